package plan

import (
	"cmp"
	"errors"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gpuplan/gpuplan/compute"
	"github.com/gpuplan/gpuplan/pricing"
	"github.com/shopspring/decimal"
)

// The bounds of a mix's search (Request.Mix): the replica shapes it combines
// and the offers it takes for each shape and role.
const (
	// MixShapes is how many replica shapes (card, tensor and expert degree) a
	// fleet may combine: those of the cheapest options found without mixing.
	MixShapes = 4
	// MixOffers is how many offers of each shape a mix tries in each role:
	// those with the cheapest replica rented all day (the base) and rented by
	// the hours the profile's busy hours need (the burst).
	MixOffers = 2
)

// piece is an offer that may take part in a mix, with one replica shape: its
// place in the list, its tariff prepared, the replicas its GPU cap holds, and
// the cost of a replica by the role.
type piece struct {
	i      int
	o      *pricing.Offer
	pr     *pricing.Pricer
	v      *served
	most   int             // replicas its cap holds
	base   decimal.Decimal // one rental unit all day, per replica
	burst  decimal.Decimal // one rental unit the burst hours a day, per replica
	stacks map[string]stacked
}

// stacked is a fleet stacked on a piece for some hourly needs (stack).
type stacked struct {
	ms   []member
	sum  pricing.Money
	top  int
	fits bool
}

// mix searches fleets over several offers and cards (Request.Mix) and keeps
// the cheapest as one more candidate when it costs less than every option
// found on one offer, so that a mix never costs more than the best single
// offer. A fleet is a base, some replicas of one offer rented all day, and a
// burst, the replicas of another offer (or another shape of the same one)
// that carry the rest of each hour's rate, stacked in groups by the hours a
// day they are needed (stack). The rate is split over the groups in
// proportion to what a replica of each sustains within the targets (its
// shape's searched per-replica rate, search), and evenly within a group.
//
// The search is exact within its bounds: the MixShapes replica shapes of
// least cost per request a second (mixShapes), and for each shape the MixOffers offers of its card
// (in the cheapest option's currency, each class of offers that price alike
// once) with the cheapest replica all day, and the MixOffers cheapest for the
// hours a day its burst needs; every pair of a base and a burst among them,
// and every base count from one replica to the fewest that carry the peak
// alone, is priced exactly (the sum of its groups' rounded totals), a base
// count stopping as soon as the base alone costs as much as the best option.
func (s settings) mix(w *sweep, run *serveRun) error {
	if len(w.cands) == 0 {
		return nil
	}
	best := &w.cands[0]
	for k := range w.cands {
		if cmpKey(&w.cands[k], best) < 0 {
			best = &w.cands[k]
		}
	}
	cur := w.p.Offers[best.offer].Tariff.Currency
	shapes, err := s.mixShapes(w, run, cur)
	if err != nil {
		return err
	}
	var bases, bursts []*piece
	for _, v := range shapes {
		ps, err := s.pieces(w, v, cur)
		if err != nil {
			return err
		}
		bases = append(bases, top(ps, func(p *piece) decimal.Decimal { return p.base })...)
		bursts = append(bursts, top(ps, func(p *piece) decimal.Decimal { return p.burst })...)
	}
	var found *priced
	found0 := best.expected
	rate := s.Serving.Rate
	for _, a := range bases {
		xa := a.v.lo
		for na := 1; na <= min(fewest(rate, xa), a.most); na++ {
			base, err := s.stackOn(a, []int{na})
			if err != nil {
				return err
			}
			if !base.fits || !base.sum.Amount.LessThan(cmpTo(found, found0).Amount) {
				break // the base alone costs as much: a larger one costs more
			}
			for _, b := range bursts {
				if b == a {
					continue // one offer and shape: a fleet the sweep priced
				}
				w.considered++
				needs := make([]int, len(s.profile))
				for h, m := range s.profile {
					needs[h] = fewest(m*rate-float64(na)*xa, b.v.lo)
				}
				burst, err := s.stackOn(b, needs)
				if err != nil {
					return err
				}
				if !burst.fits || b.i == a.i && base.top+burst.top > s.gpuLimit(*b.o) {
					continue
				}
				sum := base.sum
				if len(burst.ms) > 0 {
					if sum, err = sum.Add(burst.sum); err != nil {
						return err
					}
				}
				if !sum.Amount.LessThan(cmpTo(found, found0).Amount) {
					continue
				}
				found = s.mixed(a, b, na, base, burst, needs, sum)
			}
		}
	}
	if found == nil {
		return nil
	}
	s.setLoad(found)
	if err := w.rank(found); err != nil {
		return err
	}
	c := candidate{found.members[0].offer, found}
	if !s.Budget.Amount.IsZero() && c.key.Amount.GreaterThan(s.Budget.Amount) {
		return nil
	}
	w.cands = append(w.cands, c)
	return nil
}

// cmpTo is the cost a mix must beat: the cheapest fleet found so far, or the
// best single option's.
func cmpTo(found *priced, single pricing.Money) pricing.Money {
	if found != nil {
		return found.total
	}
	return single
}

// mixShapes returns the MixShapes replica shapes a mix combines: of the
// shapes the offers kept in currency cur may run (replicas), those whose
// cheapest offer costs least per request a second it carries, all day or for
// the hours of a daily profile's busy half (at pricing.Pricer.Floor, per
// replica, over the rate a replica carries within the targets, or its
// capacity before it is searched), each searched.
func (s settings) mixShapes(w *sweep, run *serveRun, cur string) ([]*served, error) {
	type keyed struct {
		v   *served
		key float64
	}
	best := make(map[*served]float64)
	var order []*served
	var buf [2 * len(servingTensor)]*served
	busy := HoursPerDay
	if s.days > 0 {
		busy = (HoursPerDay + 1) / 2
	}
	for _, i := range w.in.kept {
		if w.p.Offers[i].Tariff.Currency != cur {
			continue
		}
		w.begin(i)
		for _, v := range s.replicas(w, run, buf[:]) {
			if v.err != nil {
				continue
			}
			x := v.capacity
			if v.searched {
				x = v.lo
			}
			per, _, tu := unitsOf(w.o, v.tensor)
			for _, u := range [...]pricing.Usage{s.allDay(), pricing.Continuous(time.Duration(busy*max(s.days, 1)) * time.Hour)} {
				f, ok := w.pr.Floor(u, tu)
				if !ok {
					continue
				}
				k, _ := f.Amount.Float64()
				k /= float64(per) * x
				if old, seen := best[v]; !seen || k < old {
					if !seen {
						order = append(order, v)
					}
					best[v] = k
				}
			}
		}
	}
	ks := make([]keyed, len(order))
	for j, v := range order {
		ks[j] = keyed{v, best[v]}
	}
	slices.SortStableFunc(ks, func(a, b keyed) int { return cmp.Compare(a.key, b.key) })
	var out []*served
	for _, k := range ks {
		if len(out) == MixShapes {
			break
		}
		if err := s.search(k.v); err != nil {
			if errors.Is(err, compute.ErrUnreachable) || errors.Is(err, errCapped) {
				continue
			}
			return nil, err
		}
		out = append(out, k.v)
	}
	return out, nil
}

// mixed builds the candidate of a mix: base's groups on a, then burst's on b,
// each replica's share of the peak rate in proportion to what a replica of
// its shape sustains.
func (s settings) mixed(a, b *piece, na int, base, burst stacked, needs []int, sum pricing.Money) *priced {
	c := &priced{fit: a.v.fit, serve: a.v, total: sum, expected: sum}
	peak := slices.Max(needs)
	capacity := float64(na)*a.v.lo + float64(peak)*b.v.lo
	for _, part := range [...]struct {
		p  *piece
		ms []member
	}{{a, base.ms}, {b, burst.ms}} {
		for _, m := range part.ms {
			m.offer, m.share = part.p.i, s.Serving.Rate*part.p.v.lo/capacity
			c.members = append(c.members, m)
			c.rented += m.gpus
			c.replicas += m.replicas
			c.gpus += m.replicas * m.v.tensor
		}
	}
	c.rental, c.units = c.members[0].rental, c.members[0].units
	c.peakRented = base.top + burst.top
	return c
}

// stackOn stacks a fleet for needs on piece p (stack), once per needs; fits
// is false when the offer cannot price it or its cap cannot hold it.
func (s settings) stackOn(p *piece, needs []int) (stacked, error) {
	var b strings.Builder
	for _, n := range needs {
		b.WriteString(strconv.Itoa(n))
		b.WriteByte(',')
	}
	k := b.String()
	if st, ok := p.stacks[k]; ok {
		return st, nil
	}
	ms, sum, top, why, err := s.stack(p.o, p.pr, p.v, needs)
	if err != nil {
		return stacked{}, err
	}
	st := stacked{ms, sum, top, why == nil && top <= s.gpuLimit(*p.o)}
	if len(ms) == 0 { // no need: nothing rented
		st = stacked{sum: pricing.Money{Currency: p.o.Tariff.Currency}, fits: why == nil}
	}
	p.stacks[k] = st
	return st, nil
}

// pieces returns the offers kept of v's card, in currency cur, that can run
// v's replicas, one per class of offers and GPU cap (the first in the list),
// with the cost of a replica all day and for the hours a day v's burst is
// rented (the median group of v's own stack of needs).
func (s settings) pieces(w *sweep, v *served, cur string) ([]*piece, error) {
	burstHours := HoursPerDay
	if ls := layersOf(v.needs); len(ls) > 0 && len(s.profile) > 1 {
		burstHours = ls[len(ls)/2].hours
	}
	type classCap struct {
		cls   *class
		limit int
	}
	seen := make(map[classCap]bool)
	var out []*piece
	for _, i := range w.in.kept {
		o := &w.p.Offers[i]
		limit := s.gpuLimit(*o)
		if w.in.cards[i].ID != v.card.ID || o.Tariff.Currency != cur || v.tensor > limit ||
			o.GPUsPerInstance > 0 && v.tensor > o.GPUsPerInstance {
			continue
		}
		k := classCap{w.in.classes[i], limit}
		if seen[k] {
			continue
		}
		seen[k] = true
		per, unitGPUs, tu := unitsOf(o, v.tensor)
		p := &piece{i: i, o: o, pr: w.in.pricer(i), v: v, most: limit / unitGPUs * per, stacks: make(map[string]stacked)}
		all, err := p.pr.Total(s.allDay(), tu)
		if errors.Is(err, pricing.ErrUnavailable) {
			continue
		}
		if err != nil {
			return nil, err
		}
		some, err := p.pr.Total(s.sessions(burstHours), tu)
		if errors.Is(err, pricing.ErrUnavailable) {
			continue
		}
		if err != nil {
			return nil, err
		}
		n := decimal.NewFromInt(int64(per))
		p.base, p.burst = all.Amount.DivRound(n, 16), some.Amount.DivRound(n, 16)
		out = append(out, p)
	}
	return out, nil
}

// top returns the MixOffers pieces of least cost by key, in the list's order
// between equals.
func top(ps []*piece, key func(*piece) decimal.Decimal) []*piece {
	ps = slices.Clone(ps)
	slices.SortStableFunc(ps, func(a, b *piece) int { return cmp.Or(key(a).Cmp(key(b)), cmp.Compare(a.i, b.i)) })
	return ps[:min(len(ps), MixOffers)]
}
