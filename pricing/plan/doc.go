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
// requests per second at the peak, the mean prompt and output tokens, and optional
// TTFT and TPOT targets. For each offer and each tensor-parallel size of 1, 2, 4 or
// 8 GPUs (dividing the model's heads, within the offer's GPU cap),
// compute.Serving, prepared once per card and size whatever the number of offers,
// finds the highest concurrency within the targets; the rate then needs
// ⌈Rate / requests per replica⌉ replicas (Option.Replicas, the GPUs Replicas ×
// Layout.Tensor). An offer whose replicas can be taken away (interruptible, or
// stating interruptions a day) rents the fewest spare replicas that keep those
// up Traffic.Availability of the time (99% by default), their cost included,
// or is left out. The rental is Usage or Rental, or a month of continuous service
// (DefaultServingUsage); Option.PerHour and Option.PerMillion divide its cost by
// its hours and by the million tokens the traffic generates in them. Options rank
// on the rental's cost (so on PerMillion within a currency), or with RankTime on
// the time one request takes, TTFT + (OutputTokens − 1) × TPOT. A target no card
// meets is a *NoFitError with the best latency reachable and on what
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
// building the floor's Money) is not priced at all. The
// benchmarks in this package measure it (go test -bench Plan -benchmem).
package plan
