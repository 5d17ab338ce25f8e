// Package catalog holds GPU cards from their datasheets, finds a card by any name
// people and tools use for it, and checks a rented machine against what was
// advertised.
//
// Main types:
//
//   - Card: one GPU variant ("a100-sxm4-80gb"), or NPU (Huawei's Ascend 910B, as
//     "ascend-910b2"): exact memory as nvidia-smi reports it (npu-smi for the
//     Ascend), memory bandwidth, dense peak per precision (Peak; absent, not zero,
//     when unsupported, and also where no source gives the rate: the A10G's tensor
//     rates, the Ascend 910B's FP32), NVLink or other direct link (Infinity Fabric,
//     HCCS), PCIe generation, TDP, market (global, or China: the China variants
//     and the Ascend), the seed articles' recommended uses, sources (see Sources)
//     and the figures that rest on secondary sources only. LinkDomain says how
//     many GPUs its link joins (72 in a GB200 or GB300 NVL72 rack); a Caveat is a
//     warning to pass on with any plan on the card (the 48 GB RTX 4090 sold in
//     China has no datasheet), and ReportsAs names the card whose nvidia-smi name
//     it shares.
//   - Catalog: a read-only set of cards with a name index. Default is the built-in
//     catalog (the embedded cards.json, parsed once on first use); New builds one
//     from cards, Load from a JSON list in the cards.json form. Lookup finds a card
//     by any of its names, whole; failing that, by its words in any order with the
//     memory size ("A100 80GB SXM", "T4 16GB"), where a variant's own word ("D" of
//     the RTX 4090 D, "S" of the L40S) is never left out. Candidates lists every
//     card a name may denote, slowest first: one for a name that settles the
//     board ("NVIDIA H100 80GB HBM3"), all of them for one that leaves it open
//     ("A100 80GB", "H800"), even where Lookup picks one by convention.
//   - Device, Topology, Report: what nvidia-smi says a machine has (ParseSMI,
//     ParseTopology) and what Verify makes of it against the advertised card.
//     nvidia-smi sees NVIDIA GPUs only; the parsers read no npu-smi or rocm-smi
//     output.
//   - GPUUse, AllReduceRun: how busy a job keeps each GPU (ParseDmon, from
//     nvidia-smi dmon) and the all-reduce bus bandwidth nccl-tests measured
//     (ParseAllReducePerf), to hold against Card.AllReduceBaseline, the bus
//     bandwidth compute's ring model gives the card's link.
//
// Units: memory is sizing.Bytes, exact (an "80GB" A100 is 81920 MiB); rates are
// compute.FLOPRate and compute.Bandwidth, decimal as vendors print them. Peaks are
// dense, never "with sparsity" (H100 SXM BF16 is 989.5 TFLOPS, not 1979).
//
// Zero values: a nil *Catalog and a zero Catalog are empty catalogs and safe to
// use: Cards returns no cards, Lookup returns a *NotFoundError without suggestions,
// and Verify returns that error. Use Default, New or Load for cards. A zero Card
// fails Validate (it has no ID); a zero Rate is an unsupported one, so Peak reports
// false for it. A zero Topology has no GPUs and Link reports false for every pair;
// Verify takes a nil *Topology to mean that the links were not checked.
//
// Errors wrap ErrInvalid, ErrNotFound or ErrAmbiguous; Lookup returns a
// *NotFoundError with suggestions or an *AmbiguousError with candidates, and the
// parsers a *ParseError with the line number. Messages start with "catalog: ",
// quote the input once, at most its first 80 bytes cut at a character boundary,
// and end with the sentinel's text, which carries no package
// name of its own.
//
// Every value is immutable once made and every function is safe for concurrent
// use. Cards returned by a Catalog are copies; changing them does not change the
// catalog.
//
// Use:
//
//	card, err := catalog.Default().Lookup("NVIDIA A100-SXM4-80GB")
//	if err != nil { ... }
//	bf16, ok := card.Peak(sizing.BF16) // 312 TFLOPS, true
package catalog
