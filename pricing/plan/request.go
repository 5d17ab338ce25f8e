package plan

import (
	"cmp"
	"errors"
	"fmt"
	"github.com/gpuplan/gpuplan/pricing"
	"math"
	"slices"
	"strconv"
	"time"

	"github.com/gpuplan/gpuplan/compute"
	"github.com/gpuplan/gpuplan/internal/text"
	"github.com/gpuplan/gpuplan/sizing"
	"github.com/shopspring/decimal"
)

// Defaults the planner uses for unset Request fields.
const (
	// DefaultHeadroom is the fraction of card memory kept free: the first article's
	// 20% (the second asks for 30%; set Headroom to 0.3 for that).
	DefaultHeadroom = 0.2
	// DefaultCheckpoint is the checkpoint interval assumed for interruption risk.
	DefaultCheckpoint = time.Hour
	// DefaultRestart is the time one interruption costs beyond the lost work:
	// getting a machine back, loading the checkpoint, warming up.
	DefaultRestart = 10 * time.Minute
	// DefaultPlanGPUs is the GPU limit tried for an offer that states none: one
	// eight-GPU server.
	DefaultPlanGPUs = 8
	// GPUsPerServer is the GPUs one server holds (HGX baseboards and most rental
	// machines hold eight): the planner tries every count up to it, then doubles.
	// NVLink joins the GPUs of one server only; larger jobs cross InterServerLink.
	GPUsPerServer = 8
	// MaxPlanGPUs caps the GPUs the planner tries on one offer.
	MaxPlanGPUs = 1024
	// DefaultDemoHour is the usage priced when a request gives neither Tokens nor
	// Usage: one hour, so that memory-only questions still rank offers by price.
	DefaultDemoHour = time.Hour
)

// InterServerLink is the per-GPU network bandwidth assumed between servers, for
// jobs of more than GPUsPerServer GPUs: 200 Gb/s, one InfiniBand HDR port per GPU,
// as NVIDIA's HGX reference designs pair them (offers do not state their network).
const InterServerLink compute.Bandwidth = 25 * compute.GBps

// defaultMarketThreshold flags prices 30% or more away from the median of the same
// card's offers: the second article's "clearly under the going rate".
var defaultMarketThreshold = decimal.New(3, -1)

// Request is a job to plan: the model, the workload per device, the work to do and
// how the machines are rented. Every field but Model and Workload may be zero.
//
// The parallel layout in Workload.Parallel is ignored: the planner tries its own
// layouts for each GPU count (see Planner.Plan). Workload.Batch is the micro-batch
// per data-parallel replica (training) or the concurrent sequences per replica
// (inference).
type Request struct {
	Model    sizing.Model    `json:"model"`
	Workload sizing.Workload `json:"workload"`
	// Tokens is the work: training tokens (Training, LoRA, QLoRA) or tokens
	// generated (Inference). Zero: memory only; the job takes no time, and the
	// rental priced is Usage or Rental, or DefaultDemoHour when neither is set.
	Tokens float64 `json:"tokens"`
	// Usage is how long the machines are rented; zero: as long as the job takes.
	Usage time.Duration `json:"usage"`
	// Rental, when set (a non-zero Duration, Days or Trial), replaces Usage with a
	// pattern: N hours a day for M days, or a trial billed hourly then packages.
	Rental   pricing.Usage `json:"rental"`
	Deadline time.Duration `json:"deadline"` // zero: none
	// Headroom is the fraction of card memory kept free, in [0, 1); zero:
	// DefaultHeadroom. Use a tiny value such as 0.001 for almost none.
	Headroom float64 `json:"headroom"`
	// Utilization is the fraction of peak sustained, in (0, 1], when the job is
	// to be timed at a given utilization: it sets Option.Duration, and Band the
	// range around it. Zero (and Band zero): compute's model of the step, built
	// from its parts (compute.Job, compute.Decode, compute.Serving), its band
	// the model's own measured error, scaled by the card's measured speed when
	// Planner.Calibrations holds one for it.
	Utilization float64 `json:"utilization"`
	// Band is the utilization range reported with each duration when the job is
	// timed at a given utilization; zero with Utilization set:
	// compute.PublishedMFU (published model FLOPs utilization). It is widened to
	// include Utilization; set alone, the job is timed at its middle.
	Band compute.Band `json:"utilization_band"`
	// MaxGPUs caps the GPUs rented per option (whole instances, for an offer
	// sold in them); zero: each offer's own limit (DefaultPlanGPUs when the
	// offer states none).
	MaxGPUs int `json:"max_gpus"`
	// Budget leaves out options whose expected cost (Option.ExpectedCost: the
	// rental plus, for interruptible offers, the time interruptions lose) is above
	// it; zero Amount: no budget.
	Budget pricing.Money `json:"budget"`
	// Checkpoint is the checkpoint interval for interruption risk; zero:
	// DefaultCheckpoint. Restart is the time each interruption costs on top of
	// the lost work; zero: DefaultRestart.
	Checkpoint time.Duration `json:"checkpoint"`
	Restart    time.Duration `json:"restart"`
	// MarketThreshold is the fraction away from the median hourly price of the
	// same card that earns a price warning; zero: 0.3.
	MarketThreshold decimal.Decimal `json:"market_threshold"`
	// Limit is the most options returned; zero: DefaultLimit; negative: all.
	Limit int `json:"limit"`
	// EveryCount returns an option for each GPU count of each offer; false: one per
	// offer, its best count and layout by Rank.
	EveryCount bool `json:"every_count"`
	// Rank orders the options; zero: RankCost.
	Rank Rank `json:"rank"`
	// Cards keeps only offers of these cards (any name the catalog knows; a family
	// name keeps each of its cards); empty: all.
	Cards []string `json:"cards"`
	// GPUs pins the GPUs each option uses: exactly this many (an offer sold in
	// instances rents the whole instances that hold them); zero: searched. For
	// a serving request it is the GPUs of one replica. An offer that cannot give
	// them is left out (Report.Skipped).
	GPUs int `json:"gpus"`
	// Parallel pins the layout (data, tensor and pipeline degrees, ZeRO stage,
	// offload; degrees of zero are 1, as in sizing.Parallel); nil: searched. Its
	// devices must equal GPUs when both are set, and the model must take it (a
	// tensor degree dividing the heads). For a serving request it is one
	// replica's: a tensor degree alone.
	Parallel *sizing.Parallel `json:"parallel"`
	// GlobalBatch is, for training, the sequences per optimizer step across all
	// GPUs: each option's micro-batch × accumulation × data-parallel degree is
	// exactly it, and a layout whose data-parallel degree does not divide it is
	// not tried. Zero: Workload.Batch sequences per data-parallel replica per
	// step, as before. At most sizing.MaxSearchBatch.
	GlobalBatch int `json:"global_batch"`
	// Serving, when set, plans a service instead of a job: replicas enough for
	// the traffic's rate within its latency targets (see Planner.Report). Tokens
	// and Deadline must then be zero, and the workload an inference one whose
	// Precision and KVPrecision are the weights' and the KV cache's (its Batch
	// and SeqLen are ignored: the planner picks the concurrency; EagerAttention
	// and FullLogits must be false, as the engines planned run them). Headroom is
	// the memory reserve each GPU keeps (zero: compute.DefaultServingReserve,
	// 0.1). The rental priced is Usage or Rental as for any request, and
	// DefaultServingUsage (730 hours of continuous service) when neither is set;
	// each option's PerHour and PerMillion divide its cost by that rental's hours.
	Serving *Traffic `json:"serving,omitempty"`
	// Mix lets a serving option rent a fleet: several offers and cards (a
	// monthly package on one card for the base, hourly or interruptible
	// capacity on another for the peak), each group rented the hours a day
	// Traffic.Daily needs it. Planner.Report says how the fleet is searched.
	Mix bool `json:"mix"`
}

// DefaultLimit is the number of options a plan returns when Request.Limit is zero.
const DefaultLimit = 10

// Rank is how a plan orders its options.
type Rank int

const (
	// RankCost orders by expected cost, cheapest first, then by expected time.
	RankCost Rank = iota
	// RankTime orders by expected time, fastest first, then by expected cost.
	RankTime
	// RankFrontier returns the cost-time Pareto front over all offers and GPU
	// counts, cheapest first: each option is faster than every cheaper one.
	RankFrontier
)

var rankNames = [...]string{RankCost: "cost", RankTime: "time", RankFrontier: "frontier"}

// String returns "cost", "time" or "frontier".
func (r Rank) String() string {
	if r < RankCost || r > RankFrontier {
		return "Rank(" + strconv.Itoa(int(r)) + ")"
	}
	return rankNames[r]
}

// MarshalText writes the rank's name.
func (r Rank) MarshalText() ([]byte, error) {
	if r < RankCost || r > RankFrontier {
		return nil, fmt.Errorf("plan: rank %d: %w", int(r), pricing.ErrInvalid)
	}
	return []byte(r.String()), nil
}

// UnmarshalText reads "cost", "time" or "frontier" (empty: cost).
func (r *Rank) UnmarshalText(b []byte) error {
	v, err := ParseRank(string(b))
	if err == nil {
		*r = v
	}
	return err
}

// ParseRank reads "cost", "time" or "frontier"; empty is RankCost.
func ParseRank(s string) (Rank, error) {
	if s == "" {
		return RankCost, nil
	}
	if i := slices.Index(rankNames[:], s); i >= 0 {
		return Rank(i), nil
	}
	return 0, fmt.Errorf("plan: rank %s: want cost, time or frontier: %w", text.Quote(s, 64), pricing.ErrInvalid)
}

// settings is a Request with its defaults filled in.
type settings struct {
	Request
	band         compute.Band
	util         float64
	headroom     float64
	threshold    decimal.Decimal
	checkpoint   time.Duration
	restart      time.Duration
	limit        int     // options returned; negative: all
	pin          int     // GPUs each option uses (serving: each replica), from GPUs or Parallel; zero: searched
	availability float64 // serving: Traffic.Availability or its default
	// serving: the profile of the day, Traffic.Daily, or one hour at the peak
	// ([1]) without one; days is the rental in whole days with a daily
	// profile (zero without: Usage or Rental).
	profile []float64
	days    int
	// modeled: no Utilization or Band, so compute's model of the step times the
	// job (band and util are then zero), with calibrations by card ID
	// (Planner.Calibrations).
	modeled      bool
	calibrations map[string]compute.Calibration
}

// Validate reports what makes no sense in the request, each problem wrapping
// ErrInvalid.
func (r Request) Validate() error {
	_, err := r.settle()
	return err
}

func (r Request) settle() (settings, error) {
	s := settings{Request: r}
	var errs []error
	bad := func(format string, a ...any) {
		errs = append(errs, fmt.Errorf("plan: request: "+format+": %w", append(a, pricing.ErrInvalid)...))
	}
	// check puts err, when one, in context; bad marks an error of another
	// package as pricing.ErrInvalid too.
	check := func(context string, err error, bad bool) {
		switch {
		case err == nil:
		case bad:
			errs = append(errs, fmt.Errorf("plan: %s: %w", context, invalid(err)))
		default:
			errs = append(errs, fmt.Errorf("plan: %s: %w", context, err))
		}
	}
	check("request", r.Model.Validate(), true)
	// The planner sets its own layouts, so the workload's is left out of the check.
	w := r.Workload
	w.Parallel = sizing.Parallel{}
	if r.Serving != nil {
		w = servingWorkload(w, r.Serving)
	}
	check("request", w.Validate(), true)
	if math.IsNaN(r.Tokens) || math.IsInf(r.Tokens, 0) || r.Tokens < 0 {
		bad("tokens %v must be a finite number >= 0", r.Tokens)
	}
	if r.Usage < 0 || r.Deadline < 0 || r.Checkpoint < 0 || r.Restart < 0 {
		bad("usage, deadline, checkpoint and restart must not be negative")
	}
	if r.rentalSet() {
		check("request: rental", r.Rental.Validate(), false)
		if r.Usage != 0 {
			bad("give usage or rental, not both")
		}
	}
	if r.Deadline > 0 && r.Tokens == 0 {
		bad("a deadline needs tokens (the work to finish)")
	}
	s.headroom = cmp.Or(r.Headroom, DefaultHeadroom)
	if math.IsNaN(r.Headroom) || r.Headroom < 0 || r.Headroom >= 1 {
		bad("headroom %v must be in [0, 1)", r.Headroom)
	}
	if math.IsNaN(r.Utilization) || r.Utilization < 0 || r.Utilization > 1 {
		bad("utilization %v must be in (0, 1]", r.Utilization)
	}
	s.modeled = r.Utilization == 0 && r.Band == (compute.Band{})
	if !s.modeled {
		s.band = cmp.Or(r.Band, compute.PublishedMFU())
		check("request: utilization band", s.band.Validate(), true)
		s.util = cmp.Or(r.Utilization, s.band.Mid())
		s.band.Low = math.Min(s.band.Low, s.util)
		s.band.High = math.Max(s.band.High, s.util)
	}
	if r.MaxGPUs < 0 {
		bad("max_gpus %d must not be negative", r.MaxGPUs)
	}
	if e := r.Budget.Amount.Exponent(); e < -60 || e > 60 {
		bad("budget has exponent %d, outside -60 to 60", e)
		s.Budget = pricing.Money{}
	}
	if !s.Budget.Amount.IsZero() {
		if r.Budget.Amount.IsNegative() {
			bad("budget %s must not be negative", r.Budget.Amount)
		}
		check("request: budget", pricing.ValidCurrency(r.Budget.Currency), false)
	}
	s.threshold = r.MarketThreshold
	if e := s.threshold.Exponent(); e < -60 || e > 60 {
		bad("market threshold has exponent %d, outside -60 to 60", e)
		s.threshold = defaultMarketThreshold
	}
	if s.Rank < RankCost || s.Rank > RankFrontier {
		bad("rank %d: want RankCost, RankTime or RankFrontier", int(s.Rank))
	}
	if s.threshold.IsZero() {
		s.threshold = defaultMarketThreshold
	}
	if s.threshold.Sign() <= 0 || s.threshold.Cmp(decimal.New(1, 0)) >= 0 {
		bad("market threshold %s must be in (0, 1)", r.MarketThreshold)
	}
	s.limit = cmp.Or(r.Limit, DefaultLimit)
	s.checkpoint = cmp.Or(r.Checkpoint, DefaultCheckpoint)
	s.restart = cmp.Or(r.Restart, DefaultRestart)
	if r.Serving != nil {
		errs = append(errs, s.settleServing()...)
	} else if r.Mix {
		bad("mix rents a fleet for a service: it needs serving traffic")
	}
	errs = append(errs, s.settlePins(w)...)
	return s, errors.Join(errs...)
}

// settlePins checks the pinned GPU count and layout and the global batch
// against each other and the model (w is the workload as validated), and sets
// the GPUs each option uses.
func (s *settings) settlePins(w sizing.Workload) []error {
	var errs []error
	bad := func(format string, a ...any) {
		errs = append(errs, fmt.Errorf("plan: request: "+format+": %w", append(a, pricing.ErrInvalid)...))
	}
	training := s.Workload.Task != sizing.Inference
	if s.GPUs < 0 || s.GPUs > MaxPlanGPUs {
		bad("gpus %d: want 0 (searched) to %d", s.GPUs, MaxPlanGPUs)
	}
	if s.GlobalBatch < 0 || s.GlobalBatch > sizing.MaxSearchBatch {
		bad("global_batch %d: want 0 to %d sequences per step", s.GlobalBatch, sizing.MaxSearchBatch)
	}
	if s.GlobalBatch > 0 && !training {
		bad("global_batch %d: a global batch is for training, not inference", s.GlobalBatch)
	}
	s.pin = max(s.GPUs, 0)
	if p := s.Parallel; p != nil {
		n := p.Devices()
		switch {
		case s.Serving != nil && (p.Data > 1 || p.Pipeline > 1 || p.ZeRO != 0 || p.OffloadOptimizer):
			bad("parallel %s: a serving replica takes a tensor degree alone", DescribeLayout(*p))
		case !training && (p.ZeRO != 0 || p.OffloadOptimizer):
			bad("parallel %s: ZeRO and offload are for training", DescribeLayout(*p))
		case n < 1 || n > MaxPlanGPUs:
			bad("parallel uses %d GPUs: want 1 to %d (degrees of zero are 1, none negative)", n, MaxPlanGPUs)
		case s.GPUs > 0 && n != s.GPUs:
			bad("parallel %s uses %d GPUs, gpus pins %d", DescribeLayout(*p), n, s.GPUs)
		default:
			// A layout the model cannot take (a tensor degree that does not
			// divide the heads) is an error naming it.
			w.Parallel = *p
			if _, err := sizing.Estimate(s.Model, w); err != nil {
				errs = append(errs, fmt.Errorf("plan: request: parallel %s: %w", DescribeLayout(*p), invalid(err)))
			}
			s.pin = n
		}
	}
	if g := s.GlobalBatch; g > 0 && training && s.pin > 0 && len(errs) == 0 {
		degrees := s.dataDegrees(s.pin)
		if !slices.ContainsFunc(degrees, func(d int) bool { return g%d == 0 }) {
			bad("global_batch %d is not a multiple of any data-parallel degree %d GPUs can take (%v)", g, s.pin, degrees)
		}
	}
	return errs
}

// dataDegrees lists the data-parallel degrees the training layouts of n GPUs
// have (the pinned layout's alone when there is one).
func (s *settings) dataDegrees(n int) []int {
	var buf [maxLayouts]sizing.Parallel
	var out []int
	for _, l := range s.layouts(&buf, n, GPUsPerServer) {
		if d := max(l.Data, 1); !slices.Contains(out, d) {
			out = append(out, d)
		}
	}
	return out
}

// rentalSet reports whether Rental holds a pattern rather than the zero value.
func (r *Request) rentalSet() bool { return r.Rental != (pricing.Usage{}) }
