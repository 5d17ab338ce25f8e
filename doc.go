// Package gpuplan is the root of a library that answers the question people ask before
// they rent GPUs: which card, how many, for how long, and at what price, for this
// model and this job. This package holds documentation only; the work is done by
// five packages. sizing, compute and catalog each import only those before them;
// pricing imports none of the others (money only, so a billing system can vendor it
// alone); pricing/plan imports all four:
//
//   - sizing: GPU memory for a model and a job, per device, split into weights,
//     gradients, optimizer state, activations, KV cache and overhead; precisions and
//     quantized formats; LoRA and QLoRA; multi-GPU sharding; the inverse questions
//     (the largest context or batch that fits); models from presets, a Hugging Face
//     config.json, or GGUF and safetensors headers.
//   - compute: floating-point work to duration and back (the rate a deadline needs,
//     the number of cards), utilization, multi-GPU scaling limited by the
//     interconnect, inference speed, and a serving replica's throughput and latency
//     against concurrency.
//   - catalog: GPU cards from datasheets, with sources; lookup by any common name;
//     checking what a provider delivered (nvidia-smi, dmon and nccl-tests output)
//     against what was ordered.
//   - pricing: exact money, tariffs and the cheapest way to cover a usage,
//     break-even, comparison across offers, exchange rates, price lists and
//     providers' price books (SkyPilot, vast.ai), and billing the sessions an
//     account used.
//   - pricing/plan: the planner that joins the four packages and ranks rental
//     options for a job or a service, with the offers it left out and why.
//
// A walk-through: take a model from sizing.Preset("llama-3-8b"), describe the job as
// a sizing.Workload and call sizing.Estimate for the memory per GPU; look the card up
// with catalog.Default().Lookup("RTX 4090") and ask the estimate whether it
// Fits(card.Memory, 0.2), that is with 20% of the card kept free; give the planner
// a plan.Request and a list of pricing.Offer values, and plan.Planner.Plan
// returns the options that fit, cheapest first, each explaining itself.
//
// Every value is immutable and safe for concurrent use. There is no global state, no
// logging and no network access; money is exact (decimal, never float). The code is
// under the MIT license (the LICENSE file).
package gpuplan
