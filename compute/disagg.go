package compute

import (
	"errors"
	"fmt"
	"math"
	"slices"
)

// Disaggregated is a service that runs prompts and generation on separate
// replicas (Zhong et al. 2024, "DistServe"; Patel et al. 2024, "Splitwise"):
// PrefillReplicas replicas of Prefill take each request's prompt and give its
// first token, the prompt's KV cache then crosses Link to one of DecodeReplicas
// replicas of Decode, which streams the first token on and generates the rest.
// Neither side's steps slow the other's: a decode step never waits for a long
// prompt, and each side has its own tensor-parallel degree and cards.
//
// Both sides serve the same requests of the same model: Model, PromptTokens,
// OutputTokens, PrefixShare and Speculative must be equal on the two (a draft
// prefills its cache beside the served model's on the prefill side and crosses
// with it). Link is between a prefill replica and a decode replica, as each
// device sees it; the cache crosses it split over the devices of the smaller side.
type Disaggregated struct {
	Prefill         Serving `json:"prefill"`
	Decode          Serving `json:"decode"`
	PrefillReplicas int     `json:"prefill_replicas"`
	DecodeReplicas  int     `json:"decode_replicas"`
	Link            Link    `json:"link"` // between prefill and decode replicas: the KV cache crosses it
}

// PreparedDisaggregated is a Disaggregated validated and sized once
// (Disaggregated.Prepare), for many rates. The zero PreparedDisaggregated is not
// usable: Under returns an error wrapping ErrInvalid.
type PreparedDisaggregated struct {
	prefill, decode PreparedServing
	np, nd          float64 // replicas of each side
	transfer        float64 // seconds for one prompt's KV cache to cross the link
}

// Prepare validates d and prepares both sides: a prefill replica is its Serving
// generating one token a request (it holds a prompt's cache only until the prompt
// is done), a decode replica its Serving with every request arriving prefilled.
// Errors name the field at fault and wrap ErrInvalid; a side that cannot hold the
// model and one sequence is ErrNoFit.
func (d Disaggregated) Prepare() (PreparedDisaggregated, error) {
	p, q := d.Prefill, d.Decode
	switch {
	case d.PrefillReplicas < 1 || d.PrefillReplicas > math.MaxInt32:
		return PreparedDisaggregated{}, fmt.Errorf("compute: disaggregated prefill_replicas %d, want 1 or more: %w", d.PrefillReplicas, ErrInvalid)
	case d.DecodeReplicas < 1 || d.DecodeReplicas > math.MaxInt32:
		return PreparedDisaggregated{}, fmt.Errorf("compute: disaggregated decode_replicas %d, want 1 or more: %w", d.DecodeReplicas, ErrInvalid)
	case p.Model != q.Model:
		return PreparedDisaggregated{}, fmt.Errorf("compute: disaggregated decode.model %s differs from prefill.model %s: both sides serve one model: %w",
			quote(modelName(q.Model)), quote(modelName(p.Model)), ErrInvalid)
	case p.PromptTokens != q.PromptTokens:
		return PreparedDisaggregated{}, fmt.Errorf("compute: disaggregated decode.prompt_tokens %d differs from prefill.prompt_tokens %d: %w", q.PromptTokens, p.PromptTokens, ErrInvalid)
	case p.OutputTokens != q.OutputTokens:
		return PreparedDisaggregated{}, fmt.Errorf("compute: disaggregated decode.output_tokens %d differs from prefill.output_tokens %d: %w", q.OutputTokens, p.OutputTokens, ErrInvalid)
	case p.PrefixShare != q.PrefixShare:
		return PreparedDisaggregated{}, fmt.Errorf("compute: disaggregated decode.prefix_share %v differs from prefill.prefix_share %v: %w", q.PrefixShare, p.PrefixShare, ErrInvalid)
	case (p.Speculative == nil) != (q.Speculative == nil) || p.Speculative != nil && *p.Speculative != *q.Speculative:
		return PreparedDisaggregated{}, fmt.Errorf("compute: disaggregated decode.speculative differs from prefill.speculative: the draft's cache is built on the prefill side: %w", ErrInvalid)
	}
	if err := d.Link.Validate(); err != nil {
		return PreparedDisaggregated{}, fmt.Errorf("compute: disaggregated link: %w", err)
	}
	p.OutputTokens = 1
	pp, err := p.Prepare()
	if err != nil {
		return PreparedDisaggregated{}, fmt.Errorf("compute: disaggregated prefill: %w", err)
	}
	dp, err := q.Prepare()
	if err != nil {
		return PreparedDisaggregated{}, fmt.Errorf("compute: disaggregated decode: %w", err)
	}
	dp.fill, dp.cached = 0, dp.prompt
	// The cache of the prompt's tokens the decode side does not hold already
	// (its shared prefix is there): one copy, split over the smaller side's
	// devices, each sending its part over its own link.
	bytes := pp.kvToken * pp.fill / math.Min(pp.r.devices, dp.r.devices)
	return PreparedDisaggregated{prefill: pp, decode: dp, np: float64(d.PrefillReplicas), nd: float64(d.DecodeReplicas),
		transfer: d.Link.Latency.Seconds() + bytes/float64(d.Link.Bandwidth)}, nil
}

// Capacity returns the requests a second one replica of each side completes with
// every sequence slot busy (PreparedServing.Capacity of its prefill and its decode
// Serving): the pair is Stable under a rate below both PrefillReplicas × prefill and
// DecodeReplicas × decode, so a planner sizes each side with them.
func (p *PreparedDisaggregated) Capacity() (prefill, decode float64, err error) {
	if p.np < 1 {
		return 0, 0, errUnpreparedPair
	}
	if prefill, err = p.prefill.Capacity(); err != nil {
		return 0, 0, err
	}
	decode, err = p.decode.Capacity()
	return prefill, decode, err
}

var errUnpreparedPair = fmt.Errorf("compute: a PreparedDisaggregated not made by Disaggregated.Prepare: %w", ErrInvalid)

// Under is shorthand for Prepare, then PreparedDisaggregated.Under.
func (d Disaggregated) Under(rate float64) (LoadPoint, error) {
	p, err := d.Prepare()
	if err != nil {
		return LoadPoint{}, err
	}
	return p.Under(rate)
}

// Under returns what the pair does under requests arriving as a Poisson process
// of rate requests a second, spread evenly over the replicas of each side: each
// side is simulated as PreparedServing.Under simulates one replica, the prefill
// side under rate/PrefillReplicas, the decode side under rate/DecodeReplicas
// (arrivals there are taken as Poisson too: the merged, split output of many
// prefill replicas). A request's TTFT is its prefill side's (RequestOverhead,
// queueing, its prompt), then the KV cache's crossing (Link's latency and the
// cache over its bandwidth), then its decode side's RequestOverhead and wait for a
// sequence slot, when the first token streams; its TPOT is the decode side's. The
// two sides' TTFTs add quantile by quantile, as if a request slow on one side were
// as slow on the other (a burst of arrivals reaches both): exact for the mean, and
// on the side of caution for the percentiles. Concurrency is the mean sequences
// running over all the replicas of both sides; Throughput is rate × OutputTokens.
//
// A rate past what either side sustains is no error: Stable is false, TTFT zero,
// Throughput what the slower side completes, and TPOT and Concurrency those of the
// sides at what they are passed, each saturated or the closed loop (At) of the
// fewest users that carry its share. A rate that is not positive and finite is
// ErrInvalid.
func (p *PreparedDisaggregated) Under(rate float64) (LoadPoint, error) {
	if p.np < 1 {
		return LoadPoint{}, errUnpreparedPair
	}
	if !(rate > 0) || math.IsInf(rate, 0) {
		return LoadPoint{}, fmt.Errorf("compute: %v requests per second, want a positive finite rate: %w", rate, ErrInvalid)
	}
	psat, err := p.prefill.At(p.prefill.max)
	if err != nil {
		return LoadPoint{}, err
	}
	dsat, err := p.decode.At(p.decode.max)
	if err != nil {
		return LoadPoint{}, err
	}
	pr, dr := rate/p.np, rate/p.nd
	if pr >= psat.Requests || dr >= dsat.Requests {
		return p.saturated(rate, psat, dsat)
	}
	first, _, pbusy, err := p.prefill.simulate(pr)
	if err != nil {
		if errors.Is(err, errQueueGrowing) {
			return p.saturated(rate, psat, dsat)
		}
		return LoadPoint{}, err
	}
	wait, tpot, dbusy, err := p.decode.simulate(dr)
	if err != nil {
		if errors.Is(err, errQueueGrowing) {
			return p.saturated(rate, psat, dsat)
		}
		return LoadPoint{}, err
	}
	slices.Sort(first)
	slices.Sort(wait)
	for i := range first {
		first[i] += p.transfer + wait[i]
	}
	lp := LoadPoint{Rate: rate, Concurrency: p.np*pbusy + p.nd*dbusy, Throughput: TokenRate(rate * p.decode.output), Stable: true}
	if lp.TTFT, err = percentiles(first); err != nil {
		return LoadPoint{}, err
	}
	if lp.TPOT, err = percentiles(tpot); err != nil {
		return LoadPoint{}, err
	}
	return lp, nil
}

// saturated returns the point of a pair past its capacity at rate, psat and dsat
// being its sides' saturated points: no TTFT, the throughput of the slower side,
// and the decode side's TPOT and sequences at the rate the prefill side passes on
// (its saturated state when that too is past its capacity; otherwise the closed
// loop of the fewest users that complete that rate: a cheap answer, since a pair
// past its capacity is one a planner discards). The prefill side runs saturated
// when it is the one past its capacity.
func (p *PreparedDisaggregated) saturated(rate float64, psat, dsat ServingPoint) (LoadPoint, error) {
	done := math.Min(rate, math.Min(p.np*psat.Requests, p.nd*dsat.Requests))
	dec, busy := dsat, float64(psat.Concurrency)
	if rate/p.np < psat.Requests {
		// Only the decode side is past its capacity: the prefill side at its share.
		pp, err := p.prefill.carrying(rate / p.np)
		if err != nil {
			return LoadPoint{}, err
		}
		busy = float64(pp.Concurrency)
	} else if dr := done / p.nd; dr < dsat.Requests {
		var err error
		if dec, err = p.decode.carrying(dr); err != nil {
			return LoadPoint{}, err
		}
	}
	one := Percentiles{Mean: dec.TPOT, P50: dec.TPOT, P90: dec.TPOT, P99: dec.TPOT}
	return LoadPoint{Rate: rate, Concurrency: p.np*busy + p.nd*float64(dec.Concurrency), TPOT: one,
		Throughput: TokenRate(done * p.decode.output)}, nil
}

// carrying returns the closed-loop point (At) of the fewest users that complete
// rate requests a second, rate being below what MaxConcurrency users complete.
func (sv *PreparedServing) carrying(rate float64) (ServingPoint, error) {
	lo, hi := 1, sv.max // hi carries it
	for lo < hi {
		mid := lo + (hi-lo)/2
		p, err := sv.At(mid)
		if err != nil {
			return ServingPoint{}, err
		}
		if p.Requests >= rate {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return sv.At(lo)
}

// UnmarshalJSON reads a disaggregated pair strictly: unknown fields are errors
// wrapping ErrInvalid. It does not validate; Prepare does.
func (d *Disaggregated) UnmarshalJSON(b []byte) error {
	type plain Disaggregated
	return strictUnmarshal(b, (*plain)(d))
}
