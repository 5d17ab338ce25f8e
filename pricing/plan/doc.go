// Package plan answers the question asked before renting GPUs: which card, how
// many, for how long and at what price, for this model and this job. Most
// callers put the offers of a price list in a Planner and call Plan with a
// Request (the model, the workload, the work in Tokens, and a Deadline, a Budget
// or a fixed rental when there is one); the options come back best first:
//
//	p := plan.Planner{Offers: offers}
//	opts, err := p.Plan(plan.Request{Model: m, Workload: w, Tokens: 1e8, Deadline: 12 * time.Hour})
//	fmt.Println(opts[0].Offer.Card, opts[0].GPUs, opts[0].Duration, opts[0].Cost.Total)
//
// Planner.Report is Plan with the number of candidates considered and the
// offers left out, each with its reason; Planner.Fit answers "does it fit, and
// how long?" for the cards named in Request.Cards, with no price list. A
// *NoFitError (ErrNoFit) says why nothing fits and what would.
//
// The planner searches what a user would try: the GPU count (or the one
// Request.GPUs pins), the parallel layout (or Request.Parallel), and for
// training the micro-batch, down to one sequence before more GPUs, with the
// accumulation that reaches the workload's batch or Request.GlobalBatch. The
// time comes from compute's model of the step on the card (its bandwidth and
// architecture), scaled by the speed measured on the card when
// Planner.Calibrations holds it, unless the request gives a Utilization.
//
// The planner joins the four other packages: sizing (memory per GPU for each
// parallel layout), compute (time, scaling over the links), catalog (the card an
// offer's name stands for) and pricing (the exact cost of each rental). By
// default each offer gives one option, its best GPU count and layout by the
// request's Rank (expected cost; RankTime and RankFrontier order by time or
// return the cost-time Pareto front), and DefaultLimit options come back. Each
// Option explains its layout, memory, time, cost (a pricing.Quote), expected
// cost with interruptions, and warnings.
//
// The deadline binds: no option whose expected time at the request's
// utilization misses it is returned. Planner.Report says how offers sold in
// instances are rented, which board a card name that does not say its board
// ("A100 80GB") is planned on, and which offers are left out (Report.Skipped).
//
// # Serving
//
// A Request with Serving plans a service rather than a job: Traffic gives the
// requests per second at the peak, the mean prompt and output tokens, optional
// TTFT and TPOT targets and the share of requests they hold for
// (Traffic.Percentile: 0.5, 0.9 or 0.99; zero: the mean), queueing included.
// For each offer and each replica it may run (1, 2, 4 or 8 tensor-parallel
// GPUs dividing the model's heads, within the offer's cap; for a mixture of
// experts also with its experts spread over them, Group.Expert), compute.Serving,
// prepared once per card and replica whatever the number of offers, gives the
// replica's capacity; the fewest replicas it allows (⌈Rate / Capacity⌉) are
// the start of a search with a few compute.PreparedServing.Under calls, the
// rate split evenly over the replicas, for the fewest that meet the targets
// (Option.Load: what each then does). A prefix cache (Traffic.PrefixShare)
// and a draft model the request names (Traffic.Speculative: the planner
// never guesses an acceptance rate) are the replica's. Where the targets
// bind, the planner also tries the replica disaggregated: prefill and decode
// groups of it (compute.Disaggregated), when that takes fewer replicas.
//
// An option is a fleet (Option.Fleet, one Group or more): with a daily profile
// (Traffic.Daily, 24 hourly multiples of the peak Rate) each hour needs its own
// replicas, and the replicas one hour needs beyond the quietest's form groups
// rented only the hours a day they are needed (pricing.DailySessions, when
// cheaper than all day); the rental is then whole days (Usage rounded up,
// DefaultServingDays without). With Request.Mix a fleet may also combine
// offers and cards, a base rented all day on one and the rest by the hour on
// another (Planner.Report says how that search is bounded). An offer whose
// replicas can be taken away (interruptible, or stating interruptions a day)
// rents the fewest spare replicas that keep those up Traffic.Availability of
// the time (99% by default), their cost included, or is left out. The cost is
// the exact sum of the groups' rounded covers; Option.PerHour and
// Option.PerMillion divide it by the rental's hours and by the million tokens
// the traffic generates in them. Option.Launch holds the vLLM and SGLang lines
// that start each group's replicas as they were priced. Options rank on the
// cost, or with RankTime on the time one request takes at the percentile,
// TTFT + (OutputTokens − 1) × TPOT. A target no replica meets is a
// *NoFitError naming the best percentile reached and on what
// (compute.ErrUnreachable); a model no replica holds says the memory it needs
// (compute.ErrNoFit).
//
// # Errors and concurrency
//
// Errors wrap pricing.ErrInvalid, pricing.ErrCurrencyMismatch or ErrNoFit;
// messages start with "plan: ". Every value is immutable and every function safe
// for concurrent use; there is no global state.
//
// # How it stays fast
//
// The planner runs in phases, as a query planner does: resolve the inputs,
// fit and price every candidate, rank, and explain only what is returned. It
// ranks candidates on their exact expected cost (pricing.Pricer.Total) and
// builds quotes, market checks, waste and warnings only for the options it
// returns. One cache, a map per kind of thing, holds what many offers share:
// each distinct tariff (keyed on its canonical encoding) is validated and
// prepared once, each card name looked up once, each class of offers that price
// alike (the same tariff, card, instance size and interruption rate, as a
// provider's regions often are) fitted, floored and priced once per GPU count,
// and each card fitted once per GPU count, timing each tensor degree once.
// Ranked by cost, a candidate whose pricing.Pricer.Floor is above the Limit-th
// best cost known (or its offer's best so far; Pricer.FloorAbove asks without
// building the floor's Money) is not priced at all. A service
// is planned cheapest floor first: each replica's fleet has a floor from its
// capacity alone before any Under call, a replica whose fleet cannot make the
// plan is left unsearched (or ruled out by one Under call at the most replicas
// the bar allows), and the search of a replica serves every offer of its card.
// The benchmarks in this package measure it (go test -bench Plan -benchmem).
package plan
