package compute

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"time"
)

// LoadPoint is what a serving replica does under requests arriving at random, a
// Poisson process of Rate requests a second (Serving.Under): its latencies with
// the queueing included, and whether it keeps up at all.
type LoadPoint struct {
	Rate        float64     `json:"rate"`        // requests per second offered
	Concurrency float64     `json:"concurrency"` // mean sequences running (prefilling or decoding)
	TTFT        Percentiles `json:"ttft"`        // time to first token, queueing included
	TPOT        Percentiles `json:"tpot"`        // time per output token after the first, per request
	Throughput  TokenRate   `json:"throughput_tokens_per_second"`
	// Stable is false when the rate is at or past what the replica completes with
	// every sequence slot busy (its MaxConcurrency in a closed loop): the queue then
	// grows without bound. An unstable point reports that saturated state, its
	// Concurrency, TPOT and Throughput, and leaves TTFT zero: it has no steady value.
	Stable bool `json:"stable"`
}

// Percentiles summarizes a latency over requests: the mean and the 50th, 90th and
// 99th percentiles (nearest rank).
type Percentiles struct {
	Mean time.Duration `json:"mean"`
	P50  time.Duration `json:"p50"`
	P90  time.Duration `json:"p90"`
	P99  time.Duration `json:"p99"`
}

// The simulation behind Under: loadRequests requests are measured after
// loadWarmup that fill the replica from empty, with arrivals drawn from a PCG
// generator of fixed seed, so that the same replica and rate always give the same
// point.
const (
	loadWarmup   = 200
	loadRequests = 2000
	loadSeed1    = 0x9e3779b97f4a7c15
	loadSeed2    = 0xbf58476d1ce4e5b9
)

// Under is shorthand for Prepare, then PreparedServing.Under.
func (s Serving) Under(rate float64) (LoadPoint, error) {
	p, err := s.Prepare()
	if err != nil {
		return LoadPoint{}, err
	}
	return p.Under(rate)
}

// Under returns the replica's latencies and throughput under requests of
// PromptTokens and OutputTokens arriving as a Poisson process of rate requests a
// second (open loop, as serving benchmarks with a request rate run them).
//
// It simulates the engine step by step with the step model of At: a request
// reaches the scheduler RequestOverhead after it is sent and waits for a sequence
// slot (MaxConcurrency of them); each step decodes one token of every decoding
// sequence and runs up to PrefillChunk tokens of the waiting prompts, first come
// first served, at replica.step's cost; a request's first token comes with the
// step that ends its prompt, and its last OutputTokens − 1 steps later. With
// SeparatePrefill a step runs prompts or decodes: the prompts waiting after a
// decode step run in steps of their own (a phase; those that come meanwhile wait
// for the next), then the sequences decode one step. Between
// events (an arrival, a prompt, a sequence finishing) the steps are alike and are
// taken together, so a call costs a few thousand steps' arithmetic whatever the
// lengths. Arrivals come from a generator of fixed seed: the answer is
// deterministic. 2000 requests are measured after 200 that fill the replica; TTFT
// and TPOT are per request, and Concurrency is the mean over the measured time.
//
// A rate at or past the replica's capacity (what At(MaxConcurrency) completes),
// or one under which the simulated queue keeps growing, is no error: the point
// says Stable false and reports the saturated replica. A rate
// that is not positive and finite is ErrInvalid.
func (sv *PreparedServing) Under(rate float64) (LoadPoint, error) {
	if sv.max < 1 {
		return LoadPoint{}, errUnprepared
	}
	if !(rate > 0) || math.IsInf(rate, 0) {
		return LoadPoint{}, fmt.Errorf("compute: %v requests per second, want a positive finite rate: %w", rate, ErrInvalid)
	}
	sat, err := sv.At(sv.max)
	if err != nil {
		return LoadPoint{}, err
	}
	ttft, tpot, busy := []float64(nil), []float64(nil), 0.0
	if rate < sat.Requests {
		ttft, tpot, busy, err = sv.simulate(rate)
	}
	if rate >= sat.Requests || errors.Is(err, errQueueGrowing) {
		one := Percentiles{Mean: sat.TPOT, P50: sat.TPOT, P90: sat.TPOT, P99: sat.TPOT}
		return LoadPoint{Rate: rate, Concurrency: float64(sat.Concurrency), TPOT: one, Throughput: sat.Throughput}, nil
	}
	if err != nil {
		return LoadPoint{}, err
	}
	lp := LoadPoint{Rate: rate, Concurrency: busy, Throughput: TokenRate(rate * sv.output), Stable: true}
	if lp.TTFT, err = percentiles(ttft); err != nil {
		return LoadPoint{}, err
	}
	if lp.TPOT, err = percentiles(tpot); err != nil {
		return LoadPoint{}, err
	}
	return lp, nil
}

// errQueueGrowing is simulate's answer when the queue grows without bound below
// the closed loop's capacity (the engine's steps, taken one at a time, complete
// less than At's steady state does): Under reports the saturated point, as past
// that capacity.
var errQueueGrowing = errors.New("compute: the simulated queue keeps growing")

// request is one simulated request: when it reaches the scheduler, how much of its
// prompt is left, and when its first token came.
type request struct {
	arrive, first float64
	left          float64
	firstStep     int64
}

// simulate runs the engine under Poisson arrivals at rate and returns the measured
// requests' TTFTs and TPOTs in seconds and the mean sequences running.
func (sv *PreparedServing) simulate(rate float64) (ttft, tpot []float64, busy float64, err error) {
	rng := rand.New(rand.NewPCG(loadSeed1, loadSeed2))
	total := loadWarmup + loadRequests
	reqs := make([]request, 0, total+loadRequests/4)
	ttft = make([]float64, 0, loadRequests)
	tpot = make([]float64, 0, loadRequests)
	over := RequestOverhead.Seconds()
	sent := 0.0
	arrive := func() {
		sent += rng.ExpFloat64() / rate
		reqs = append(reqs, request{arrive: sent + over, left: sv.fill})
	}
	arrive()
	var (
		now                 float64
		step                int64
		admitted, firstDone int // requests admitted (into prefill) and past their prompt, in order
		finished            int // requests done, in order (first come, first served)
		measured            int
		start, area         float64 // the measured window's start and ∫ running dt
		open                bool
		queued              float64 // prompt tokens admitted and not yet run
		// With SeparatePrefill: the prompt tokens left of the prefill phase under
		// way, and whether the last step decoded.
		phase   float64
		decoded = true
	)
	decodeSteps := int64(sv.steps)
	// A step that only decodes takes a time that depends on the sequences
	// decoding alone: each count's is worked out once (a simulation has
	// thousands of such steps and a few dozen counts), for counts up to the
	// requests it measures or MaxConcurrency, whichever is fewer.
	decodeDt := make([]float64, min(sv.max, total)+1)
	for measured < loadRequests {
		// Arrivals up to now, and one beyond, so that the next is known.
		for reqs[len(reqs)-1].arrive <= now {
			arrive()
		}
		for admitted < len(reqs) && reqs[admitted].arrive <= now && admitted-finished < sv.max {
			queued += reqs[admitted].left
			admitted++
		}
		for firstDone < admitted && reqs[firstDone].left == 0 {
			// Prefilled elsewhere (the decode side of a Disaggregated pair): its
			// first token streams as it is admitted.
			reqs[firstDone].first, reqs[firstDone].firstStep = now, step
			firstDone++
		}
		dec := float64(firstDone - finished)
		prefilling := admitted - firstDone
		if dec == 0 && prefilling == 0 {
			// Idle until the next request, the last one drawn. The clock restarts
			// at its sending: at a low rate the gaps add up to more seconds than a
			// float64 holds to the microsecond (1e12 s keeps about 0.1 ms, and a
			// subnormal rate's gap is infinite), and nothing running needs the old
			// origin. Only the measured window's start is kept, moved back.
			start -= sent
			sent = 0
			reqs[admitted].arrive = over
			now = over
			continue
		}
		// Prompt tokens of this step: the waiting prompts, first come first served,
		// up to one chunk; their mean context for attention. Prompts in steps of
		// their own run in phases between decode steps: a phase takes the prompts
		// waiting when it starts, after a decode step (or with none decoding), and
		// those that come meanwhile wait for the next, so that decoding advances a
		// step a phase however fast prompts arrive.
		budget := sv.chunk
		if sv.separate {
			if phase == 0 && (decoded || dec == 0) {
				phase = queued
			}
			budget = math.Min(budget, phase)
		}
		var pre, ctx float64
		for i := firstDone; i < admitted && pre < budget; i++ {
			k := math.Min(reqs[i].left, budget-pre)
			ctx += k * (sv.prompt - reqs[i].left + k/2) // the cached prefix and the chunks before
			pre += k
		}
		if pre > 0 {
			ctx /= pre
		}
		// A step of prompts alone leaves the decoding sequences waiting: it is no
		// step of theirs.
		alone := sv.separate && pre > 0
		stepDec := dec
		if alone {
			stepDec = 0
		}
		var dt float64
		if d := int(stepDec); pre > 0 || d >= len(decodeDt) {
			dt = sv.step(stepDec, pre, ctx)
		} else if dt = decodeDt[d]; dt == 0 {
			dt = sv.step(stepDec, 0, 0)
			decodeDt[d] = dt
		}
		k := int64(1)
		if pre == 0 && queued == 0 {
			// Only decoding: steps are alike until a sequence finishes or, with a
			// slot free, a request arrives.
			k = reqs[finished].firstStep + decodeSteps - step
			if admitted < len(reqs) && admitted-finished < sv.max {
				if n := int64(math.Ceil((reqs[admitted].arrive - now) / dt)); n < k {
					k = max(n, 1)
				}
			}
		}
		if open {
			area += float64(k) * dt * (dec + float64(prefilling))
		}
		now += float64(k) * dt
		queued -= pre
		if alone {
			phase -= pre
			decoded = false
		} else {
			step += k
			decoded = true
		}
		// Prompts this step finished: their first token.
		for left := pre; firstDone < admitted && left > 0; {
			r := &reqs[firstDone]
			take := math.Min(r.left, left)
			r.left -= take
			left -= take
			if r.left > 0 {
				break
			}
			r.first, r.firstStep = now, step
			firstDone++
		}
		// Sequences done: OutputTokens − 1 steps after their first token.
		for finished < firstDone && reqs[finished].firstStep+decodeSteps <= step {
			r := &reqs[finished]
			if finished == loadWarmup {
				open, start = true, now
			}
			if finished >= loadWarmup && measured < loadRequests {
				ttft = append(ttft, r.first-r.arrive+over)
				if sv.output > 1 {
					tpot = append(tpot, (now-r.first)/(sv.output-1))
				}
				measured++
			}
			finished++
		}
		if len(reqs) > 64*total {
			return nil, nil, 0, errQueueGrowing
		}
	}
	if now > start {
		busy = area / (now - start)
	}
	return ttft, tpot, busy, nil
}

// percentiles summarizes seconds; an empty list is the zero Percentiles.
func percentiles(s []float64) (Percentiles, error) {
	if len(s) == 0 {
		return Percentiles{}, nil
	}
	slices.Sort(s)
	sum := 0.0
	for _, v := range s {
		sum += v
	}
	rank := func(q float64) float64 { return s[min(len(s)-1, int(math.Ceil(q*float64(len(s))))-1)] }
	var p Percentiles
	var err error
	for _, f := range [...]struct {
		d *time.Duration
		v float64
	}{{&p.Mean, sum / float64(len(s))}, {&p.P50, rank(0.5)}, {&p.P90, rank(0.9)}, {&p.P99, rank(0.99)}} {
		if *f.d, err = seconds(f.v); err != nil {
			return Percentiles{}, err
		}
	}
	return p, nil
}
