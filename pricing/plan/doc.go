// Package plan ranks rental options for a GPU job over a list of price-list
// offers. It joins the four other packages: sizing (memory per GPU for each
// parallel layout), compute (time, scaling over the links), catalog (the card an
// offer's name stands for) and pricing (the exact cost of each rental).
//
// A Planner holds the offers (and, for several currencies, pricing.Rates);
// Planner.Plan returns the options for a Request, best first, and Planner.Report
// returns them with the number of candidates considered and the offers left out,
// each with its reason. By default each offer gives one option, its best GPU count
// and layout by the request's Rank (expected cost; RankTime and RankFrontier
// order by time or return the cost-time Pareto front), and DefaultLimit options
// come back. Each Option explains its layout, memory, time, cost (a pricing.Quote
// built only for the options returned), expected cost with interruptions, and
// warnings; a *NoFitError (ErrNoFit) says why nothing fits and what would.
//
// The deadline binds: no option whose expected time at the request's utilization
// misses it is returned. Planner.Report says how offers sold in instances are
// rented, which board a card name that does not say its board ("A100 80GB") is
// planned on, and which offers are left out (Report.Skipped).
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
// Layout.Tensor). The rental is Usage or Rental, or a month of continuous service
// (DefaultServingUsage); Option.PerHour and Option.PerMillion divide its cost by
// its hours and by the million tokens the traffic generates in them. Options rank
// on the rental's cost (so on PerMillion within a currency), or with RankTime on
// the time one request takes, TTFT + (OutputTokens − 1) × TPOT. A target no card
// meets is a *NoFitError with the best latency reachable and on what
// (compute.ErrUnreachable); a model no replica holds says the memory it needs
// (compute.ErrNoFit).
//
// Errors wrap pricing.ErrInvalid, pricing.ErrCurrencyMismatch or ErrNoFit;
// messages start with "plan: ". Every value is immutable and every function safe
// for concurrent use; there is no global state.
//
// # Speed
//
// Plan ranks candidates on their exact expected cost (pricing.Pricer.Total) and
// builds quotes, market checks, waste and warnings only for the options it
// returns. It does less work where the answer cannot change. Each distinct
// tariff is validated and prepared once (the offers that share it are validated
// without it, pricing.Offer.ValidateFields), and each distinct card name looked
// up once. Offers that price alike (the same tariff, card, instance size and
// interruption rate, as a provider's regions often are) form a class, and each
// class is fitted, floored and priced once per GPU count, whatever its number
// of offers; each card and GPU count is fitted once, timing each tensor degree
// once (ZeRO stages and offload only add to it, so a layout whose degree is no
// faster than the best so far is not estimated). Ranked by cost, a candidate
// whose pricing.Pricer.Floor is above the Limit-th best cost known (or its
// offer's best so far) is not priced at all, for a service as for a job, and
// with interruptions too: their expected cost prices a run at least as long,
// which never costs less.
// Measured with go test -bench Plan -benchmem on synthetic price lists (twelve
// providers, six regions, twenty cards, 1 to 8 GPUs, tariffs shared by regions;
// a LoRA job on Llama-2-7B; the default limit), three runs on a two-core AMD
// EPYC virtual machine shared with other work (load about 1). The same binary
// has run up to 60% slower at other moments, as the machine's neighbours
// changed:
//
//	offers    time/op        memory/op   allocs/op
//	1000      2.5–2.8 ms     0.77 MB     4.8 k
//	10000     8.7–10.8 ms    2.1 MB      14.5 k
//	100000    64–72 ms       9.6 MB      53 k
//
// At 1000 offers (240 distinct tariffs, 260 classes, 19 of their 1,621 counts
// priced in full) about a fifth of the time is preparing the distinct tariffs
// (pricing.NewPricer, which also allocates a third of the memory), a fifth
// the layouts of the cards, a sixth validating the offers and numbering their
// tariffs, a seventh the floors and the few full prices, a twelfth each the
// market checks and the quotes of the options returned, and the rest mostly
// garbage collection.
//
// A serving request (Llama-3.1-8B, 20 requests/s, TTFT and TPOT targets) over
// 1000 of the same offers: 2.8–3.0 ms, 0.9 MB and 5.7 k allocations, about 80
// replica searches (one per card and tensor-parallel size), the tariffs
// prepared, and pricing what passes the floor. The 47 GPU offers of the
// SkyPilot snapshot (BenchmarkPlanSkyPilot): 1.5 ms, 0.5 MB, 4.8 k allocations.
package plan
