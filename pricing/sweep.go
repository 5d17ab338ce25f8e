package pricing

import (
	"cmp"
	"fmt"
	"math/bits"
	"slices"
	"time"
)

// This file holds Bill's sweep: the sessions and purchases of a billing period
// as spans of time, and the sweep over their starts and ends that finds the
// GPU-time no purchase covered.

// clip returns [start, end) within [from, to) as nanoseconds from from, and
// whether any of it is left.
func clip(from, to, start, end time.Time) ([2]int64, bool) {
	if !end.After(from) || !start.Before(to) || !end.After(start) {
		return [2]int64{}, false
	}
	s, e := int64(0), int64(to.Sub(from))
	if start.After(from) {
		s = int64(start.Sub(from))
	}
	if end.Before(to) {
		e = int64(end.Sub(from))
	}
	return [2]int64{s, e}, true
}

// span is the part of a session inside the period, as nanoseconds from its start.
type span struct {
	start, end int64
	gpus       int64
	idx        int // index in the input, for errors
}

// spanKey orders sessions: by start, then end, then GPUs, as nanoseconds from the
// period's start (saturated: two sessions tied on a saturated key have the same
// part inside the period, so the tie is harmless), then by input index, which
// separates only equal sessions.
type spanKey struct {
	ks, ke    int64
	gpus, idx int32
}

func keyOrder(x, y spanKey) int {
	switch {
	case x.ks != y.ks:
		return cmp.Compare(x.ks, y.ks)
	case x.ke != y.ke:
		return cmp.Compare(x.ke, y.ke)
	case x.gpus != y.gpus:
		return cmp.Compare(x.gpus, y.gpus)
	}
	return cmp.Compare(x.idx, y.idx)
}

// window is the part of a purchase inside the period.
type window struct {
	start, end, gpus int64
}

// clipSessions checks the sessions and returns the parts inside the period, in
// the order purchases are given to them.
func clipSessions(from, to time.Time, used []Session) ([]span, error) {
	keys := make([]spanKey, 0, len(used))
	for i, s := range used {
		if s.End.Before(s.Start) {
			return nil, fmt.Errorf("pricing: session %d: ends at %s, before it starts at %s: %w", i,
				s.End.Format(time.RFC3339Nano), s.Start.Format(time.RFC3339Nano), ErrInvalid)
		}
		if s.GPUs < 0 || s.GPUs > 1_000_000 {
			return nil, fmt.Errorf("pricing: session %d: %d GPUs: want 1 to 1000000, or zero for 1: %w", i, s.GPUs, ErrInvalid)
		}
		if !s.End.After(from) || !s.Start.Before(to) || !s.End.After(s.Start) {
			continue // nothing inside the period: clip's test, inline for speed
		}
		keys = append(keys, spanKey{int64(s.Start.Sub(from)), int64(s.End.Sub(from)), int32(max(s.GPUs, 1)), int32(i)})
	}
	if !slices.IsSortedFunc(keys, keyOrder) { // logs often come in order of start
		slices.SortFunc(keys, keyOrder)
	}
	period := int64(to.Sub(from))
	ss := make([]span, len(keys))
	for r, k := range keys {
		// The period is at most MaxDuration, far inside the saturation bounds, so
		// clamping the key clips the session.
		ss[r] = span{min(max(k.ks, 0), period), min(max(k.ke, 0), period), int64(k.gpus), int(k.idx)}
	}
	return ss, nil
}

// sweep returns, for each session in order, its billed GPU-seconds: for each of
// its GPUs, the time no purchase covered, rounded up by Tariff.billed.
//
// It sweeps the starts and ends of sessions and purchases in time order. Two
// Fenwick trees over the sessions' ranks hold the GPUs in use (to find, for the
// capacity C that purchases give at that time, the first session not fully
// covered: the sessions before it take C in order) and the time each rank has
// been fully covered (a range add over the ranks before it, read at a session's
// start and end). The one session partly covered between two events is recorded
// with its covered GPUs. It takes O((n + p) log n) for n sessions and p purchases.
func sweep(t Tariff, ss []span, ws []window) []int64 {
	n := len(ss)
	out := make([]int64, n)
	billed := func(u int64) int64 { return t.billedSecs(time.Duration(u)) }
	if len(ws) == 0 {
		for i, s := range ss {
			out[i] = s.gpus * billed(s.end-s.start)
		}
		return out
	}
	type event struct{ at, delta int64 }
	pev := make([]event, 0, 2*len(ws))
	for _, w := range ws {
		pev = append(pev, event{w.start, w.gpus}, event{w.end, -w.gpus})
	}
	slices.SortFunc(pev, func(x, y event) int { return cmp.Compare(x.at, y.at) })
	type end struct {
		at   int64
		rank int32
	}
	ends := make([]end, n)
	for i, s := range ss {
		ends[i] = end{s.end, int32(i)}
	}
	slices.SortFunc(ends, func(x, y end) int { return cmp.Compare(x.at, y.at) })

	inUse := make(fenwick, n+1)   // GPUs in use by rank
	covered := make(fenwick, n+1) // differences of the time fully covered, by rank
	full := make([]int64, n)      // time fully covered: the reading at start, then the difference
	type partial struct {
		rank int32
		c    int64 // GPUs covered
		dt   int64
	}
	var parts []partial
	var capacity, active int64
	now := int64(0)
	i, j, k := 0, 0, 0
	for j < n { // every session ends; purchases after the last end change nothing
		next := ends[j].at
		if i < n && ss[i].start < next {
			next = ss[i].start
		}
		if k < len(pev) && pev[k].at < next {
			next = pev[k].at
		}
		if dt := next - now; dt > 0 && capacity > 0 && active > 0 {
			covered.add(0, dt)
			if capacity < active {
				r, before := inUse.search(capacity)
				covered.add(r, -dt)
				if c := capacity - before; c > 0 {
					if m := len(parts) - 1; m >= 0 && parts[m].rank == int32(r) && parts[m].c == c {
						parts[m].dt += dt
					} else {
						parts = append(parts, partial{int32(r), c, dt})
					}
				}
			}
		}
		now = next
		for ; j < n && ends[j].at == now; j++ {
			r := int(ends[j].rank)
			inUse.add(r, -ss[r].gpus)
			active -= ss[r].gpus
			full[r] = covered.sum(r) - full[r]
		}
		for ; i < n && ss[i].start == now; i++ {
			inUse.add(i, ss[i].gpus)
			active += ss[i].gpus
			full[i] = covered.sum(i)
		}
		for ; k < len(pev) && pev[k].at == now; k++ {
			capacity += pev[k].delta
		}
	}
	slices.SortFunc(parts, func(x, y partial) int { return cmp.Or(cmp.Compare(x.rank, y.rank), cmp.Compare(x.c, y.c)) })
	p := 0
	for r, s := range ss {
		u := s.end - s.start - full[r] // each GPU's time not fully covered
		q := p
		var partly int64 // time in which the session was partly covered
		for ; q < len(parts) && parts[q].rank == int32(r); q++ {
			partly += parts[q].dt
		}
		// GPUs below the smallest c were covered in every partial stretch; those
		// from one c to the next in all the stretches from the next c on.
		var total, from int64
		for ; p < q; p++ {
			c := parts[p].c
			total += (c - from) * billed(u-partly)
			partly -= parts[p].dt
			from = c
		}
		out[r] = total + (s.gpus-from)*billed(u)
	}
	return out
}

// fenwick is a binary indexed tree over ranks 0..len-2 (index 0 unused).
type fenwick []int64

// add adds v at rank r.
func (f fenwick) add(r int, v int64) {
	for i := r + 1; i < len(f); i += i & -i {
		f[i] += v
	}
}

// sum returns the sum over ranks 0..r.
func (f fenwick) sum(r int) int64 {
	var s int64
	for i := r + 1; i > 0; i -= i & -i {
		s += f[i]
	}
	return s
}

// search returns the first rank r whose prefix sum over 0..r exceeds v, and the
// sum over the ranks before it. The values must be non-negative, and f must
// hold at least one rank.
func (f fenwick) search(v int64) (int, int64) {
	pos, sum := 0, int64(0)
	for step := 1 << (bits.Len(uint(len(f)-1)) - 1); step > 0; step >>= 1 {
		if next := pos + step; next < len(f) && sum+f[next] <= v {
			pos, sum = next, sum+f[next]
		}
	}
	return pos, sum
}
