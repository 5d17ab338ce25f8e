package plan

import (
	"cmp"
	"errors"
	"fmt"
	"math"

	"github.com/gpuplan/gpuplan/catalog"
	"github.com/gpuplan/gpuplan/compute"
	"github.com/gpuplan/gpuplan/pricing"
)

// pairKey names a disaggregated service on one card: prefill and decode
// replicas of the same tensor and expert degree (replicaKey), joined by the
// network between servers.
type pairKey replicaKey

// pair is a disaggregated service (compute.Disaggregated) of one card and
// replica shape, and what the serving request makes of it: each side's
// capacity per replica, and once searched the replicas of each side the
// rate needs within the targets.
type pair struct {
	v              *served // the same replica served plainly: its card, degrees and fit
	d              compute.Disaggregated
	capP, capD     float64 // requests a second one replica of each side completes, every slot busy
	slotsP, slotsD int
	err            error

	searched bool
	np, nd   int
	loads    map[[2]int]compute.LoadPoint
}

// errNoSaving is a pair's search's error when it would need as many replicas
// as the plain fleet of the same replicas.
var errNoSaving = errors.New("no replica saved against serving plainly")

// pairOf returns the disaggregated service of replica v's shape, prepared on
// first use.
func (s settings) pairOf(run *serveRun, v *served) *pair {
	k := pairKey{v.card.ID, v.tensor, v.expert}
	if p := run.pairs[k]; p != nil {
		return p
	}
	p := &pair{v: v}
	run.pairs[k] = p
	side := compute.Serving{
		Model: s.Model, Weights: s.Workload.Precision, KV: s.Workload.KVPrecision, Devices: v.tensor,
		Memory: v.card.Memory, Bandwidth: v.card.MemoryBandwidth, Peak: servingPeak(v.card, s.Workload.Precision),
		Link: servingLink(v.card, v.tensor), PromptTokens: s.Serving.PromptTokens, OutputTokens: s.Serving.OutputTokens,
		Reserve: s.headroom, PrefillChunk: s.Workload.PrefillChunk, Arch: v.card.Architecture, Calibration: s.calibration(&v.card),
		PrefixShare: s.Serving.PrefixShare, Speculative: s.Serving.Speculative, Expert: v.expert,
	}
	p.d = compute.Disaggregated{Prefill: side, Decode: side, PrefillReplicas: 1, DecodeReplicas: 1, Link: pairLink(v.card)}
	pp, err := p.d.Prepare()
	if err == nil {
		p.capP, p.capD, err = pp.Capacity()
	}
	if err == nil {
		pre := side
		pre.OutputTokens = 1 // a prefill replica holds a prompt's cache until its first token
		p.slotsP, err = pre.MaxConcurrency()
	}
	p.slotsD, p.err = v.slots, err
	return p
}

// pairLink is the link a prompt's KV cache crosses from a prefill replica to a
// decode replica: the network between servers (InterServerLink, with the
// latency of a step over it), as each side is a server of its own.
func pairLink(card catalog.Card) compute.Link {
	l, _, _ := linkFor(card, GPUsPerServer+1, GPUsPerServer)
	return l
}

// under returns the pair with np prefill and nd decode replicas under the
// peak rate, simulated once per pair of counts.
func (p *pair) under(rate float64, np, nd int) (compute.LoadPoint, error) {
	k := [2]int{np, nd}
	if lp, ok := p.loads[k]; ok {
		return lp, nil
	}
	d := p.d
	d.PrefillReplicas, d.DecodeReplicas = np, nd
	lp, err := d.Under(rate)
	if err != nil {
		return lp, err
	}
	if p.loads == nil {
		p.loads = make(map[[2]int]compute.LoadPoint)
	}
	p.loads[k] = lp
	return lp, nil
}

// searchPair finds the replicas of each side the peak rate needs within the
// targets: from the fewest each side's capacity allows, the fewest prefill
// replicas that meet them beside as many decode replicas as the planner
// rents (so that no request waits for a decode slot), then the fewest decode
// replicas that meet them beside those, each found as search finds a plain
// replica's count: gallop up, then bisect. A pair whose prefill replicas and
// the fewest decode replicas are as many as the plain fleet of the same
// replicas needs is given up before the decode side is searched. A pair that misses the targets
// with as many replicas of each side as the planner rents is left out after
// one Under call.
func (s *settings) searchPair(p *pair) error {
	if p.searched || p.err != nil {
		return p.err
	}
	p.searched = true
	rate := s.Serving.Rate
	most := MaxPlanGPUs / p.v.tensor
	np := fewest(rate, math.Nextafter(p.capP, 0))
	nd := fewest(rate, math.Nextafter(p.capD, 0))
	if np+nd > most {
		p.err = errCapped
		return p.err
	}
	find := func(from int, ok func(n int) (bool, error)) (int, error) {
		lo, hi, n := from-1, 0, from
		for step := 1; ; step *= 2 {
			met, err := ok(n)
			if err != nil {
				return 0, err
			}
			if met {
				hi = n
				break
			}
			if n == most {
				return 0, compute.ErrUnreachable
			}
			lo, n = n, min(n+step, most)
		}
		for hi-lo > 1 {
			mid := lo + (hi-lo)/2
			met, err := ok(mid)
			if err != nil {
				return 0, err
			}
			if met {
				hi = mid
			} else {
				lo = mid
			}
		}
		return hi, nil
	}
	if !s.targets() {
		// Without targets a pair is stable where each side is under its
		// capacity: the fewest of each serve.
		p.np, p.nd = np, nd
		return nil
	}
	var err error
	if np, err = find(np, func(n int) (bool, error) {
		lp, err := p.under(rate, n, most)
		if err == nil && !s.meets(lp) && n == np {
			// Even the lowest load the planner would rent misses the
			// targets: no search.
			if low, err := p.under(rate, most, most); err != nil || !s.meets(low) {
				return false, cmp.Or(err, compute.ErrUnreachable)
			}
		}
		return err == nil && s.meets(lp), err
	}); err != nil {
		p.err = err
		return err
	}
	if np+nd >= p.v.peak {
		// The prefill side alone leaves no replica to save against the plain
		// fleet of the same replicas.
		p.err = errNoSaving
		return p.err
	}
	if nd, err = find(nd, func(n int) (bool, error) {
		lp, err := p.under(rate, np, n)
		return err == nil && s.meets(lp), err
	}); err != nil {
		p.err = err
		return err
	}
	p.np, p.nd = np, nd
	return nil
}

// offerPairs tries offer w.o's replicas disaggregated (compute.Disaggregated):
// each replica the offer runs on its own becomes a prefill
// group and a decode group of the same shape, when its plain fleet was
// searched (it could make the plan) and the fewest replicas each side's
// capacity allows are fewer than that fleet's, and, ranked by cost, when
// they could cost less than the bar (pairBeyond); their counts are then
// searched (searchPair) and priced as two groups rented all day.
func (s settings) offerPairs(w *sweep, run *serveRun) error {
	var buf [2 * len(servingTensor)]*served
	for _, v := range s.replicas(w, run, buf[:]) {
		if v.err != nil {
			continue
		}
		if !v.searched || v.err != nil {
			continue // not a shape that could make the plan plainly
		}
		p := s.pairOf(run, v)
		if p.err != nil || !p.searched && fewest(s.Serving.Rate, math.Nextafter(p.capP, 0))+fewest(s.Serving.Rate, math.Nextafter(p.capD, 0)) >= v.peak {
			continue // as many replicas of the same shape as the plain fleet: no saving
		}
		k := fleetKey{cls: w.class, p: p}
		e, seen := run.fleets[k]
		if !seen {
			// The fewest replicas of each side, at their floor: a pair is only
			// searched where it could cost less than what the offer has.
			bar := w.barMinor() // with one option per offer, no more than the offer's best so far
			if bar < math.MaxInt64 && w.floors() && !p.searched {
				if out, err := s.pairBeyond(w, p, bar); out || err != nil {
					if err != nil {
						return err
					}
					continue
				}
			}
			w.considered++
			if err := s.searchPair(p); err != nil {
				if errors.Is(err, compute.ErrUnreachable) || errors.Is(err, errCapped) || errors.Is(err, errNoSaving) {
					continue
				}
				return err
			}
			c, why, err := s.pairFleet(w, p)
			if err != nil {
				return err
			}
			e = fleetEntry{c, why}
			run.fleets[k] = e
		}
		if e.c == nil || e.c.peakRented > w.limit {
			continue
		}
		w.served = true
		c := candidate{w.i, e.c}
		if !s.Budget.Amount.IsZero() && c.key.Amount.GreaterThan(s.Budget.Amount) {
			continue
		}
		w.add(c)
	}
	return nil
}

// pairBeyond reports whether pair p, not searched yet, cannot give offer w.o a
// fleet of less than bar: the fewest replicas each side's capacity allows
// cost as much as the bar at their floor (each side a group of its own, with
// its spares), or, with as many replicas on each side as the bar leaves it
// beside the other side's fewest, the pair misses the targets (one Under
// call; the latencies are taken to fall as either side grows).
func (s *settings) pairBeyond(w *sweep, p *pair, bar int64) (bool, error) {
	rate := s.Serving.Rate
	np := fewest(rate, math.Nextafter(p.capP, 0))
	nd := fewest(rate, math.Nextafter(p.capD, 0))
	floor := func(n int) (int64, bool) {
		f := s.fleetFloor(w, p.v, []int{n})
		return f.minor, f.ok
	}
	fp, okP := floor(np)
	fd, okD := floor(nd)
	if !okP || !okD {
		return false, nil
	}
	if fp+fd >= bar {
		return true, nil
	}
	// most returns the most replicas of a side whose floor, beside the other
	// side's fewest at floor other, stays below the bar.
	most := func(from int, other int64) int {
		lo, hi := from, MaxPlanGPUs/p.v.tensor
		for lo < hi {
			mid := lo + (hi-lo+1)/2
			if f, ok := floor(mid); ok && f+other < bar {
				lo = mid
			} else {
				hi = mid - 1
			}
		}
		return lo
	}
	lp, err := p.under(rate, most(np, fd), most(nd, fp))
	return err == nil && !s.meets(lp), err
}

// pairFleet prices the pair's two groups on offer w.o, each rented all day
// at the peak's replicas, a daily profile or not (stack, with spares where
// the offer's replicas can be taken away).
func (s settings) pairFleet(w *sweep, p *pair) (*priced, error, error) {
	c := &priced{fit: p.v.fit, serve: p.v}
	for _, side := range [...]struct {
		role  string
		n     int
		slots int
	}{{RolePrefill, p.np, p.slotsP}, {RoleDecode, p.nd, p.slotsD}} {
		ms, sum, top, why, err := s.stack(w.o, w.pr, p.v, []int{side.n})
		if why != nil || err != nil {
			return nil, why, err
		}
		for j := range ms {
			ms[j].role, ms[j].slots, ms[j].share = side.role, side.slots, s.Serving.Rate
			c.rented += ms[j].gpus
			c.replicas += ms[j].replicas
		}
		c.members = append(c.members, ms...)
		c.peakRented += top
		if c.total, err = c.total.Add(sum); err != nil {
			return nil, nil, err
		}
	}
	c.expected, c.rental, c.units = c.total, c.members[0].rental, c.members[0].units
	c.gpus = c.replicas * p.v.tensor
	c.pair, c.loadOn, c.loadReplicas = p, p.v, p.np+p.nd
	s.setLoad(c)
	if err := w.rank(c); err != nil {
		return nil, nil, err
	}
	if c.peakRented > MaxPlanGPUs {
		return nil, fmt.Errorf("needs %d GPUs: %w", c.peakRented, pricing.ErrUnavailable), nil
	}
	return c, nil, nil
}
