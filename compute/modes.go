package compute

import (
	"fmt"
	"math"

	"github.com/gpuplan/gpuplan/sizing"
)

// modes holds what a prefix cache and speculative decoding change in a
// PreparedServing; Prepare sets it (setModes) after sizing the plain replica.
type modes struct {
	// fill is the prompt tokens a request prefills and cached those the prefix
	// cache already holds, in whole blocks (fill + cached = PromptTokens, both
	// whole numbers, so that the simulation's sums of tokens are exact); fill is
	// zero on the decode side of a Disaggregated pair, whose requests arrive
	// prefilled.
	fill, cached float64
	// steps is the decode steps a request takes after its first token,
	// ⌈(OutputTokens − 1) / TokensPerStep⌉, and perToken the steps per output
	// token after the first (1/TokensPerStep when there is none).
	steps, perToken float64
	// kvShared is the bytes of prefix blocks the replica holds once for all its
	// sequences; kvToken the bytes of one copy of one token's cache, the target's
	// and the draft's (what a Disaggregated pair moves per prompt token).
	kvShared, kvToken float64
	// draft is the draft's step model and gamma the tokens it proposes a step;
	// no draft when gamma is zero.
	draft replica
	gamma float64
}

// setModes applies s's PrefixShare, Speculative and Expert to sv, which Prepare has
// sized for plain serving (sv.kvSeq the cache one sequence holds at its longest,
// held tokens of it in whole blocks; sv.need the bytes each device gives to the
// weights, a chunk's activations and the reserve).
//
// A prefix cache (vLLM's automatic prefix caching, SGLang's RadixAttention) finds
// the whole KVBlockTokens blocks of the prompt's PrefixShare, never the whole
// prompt (the last token's logits give the first token), and spares their prefill:
// the rest attend to the cached prefix as to any context. Those blocks are held
// once for every sequence that shares them, as paged caches share blocks between
// sequences (Kwon et al. 2023, §4.4), so each
// sequence holds only the rest of its cache: with the shared prefix charged once,
// a replica holds at least as many sequences as without the cache. The cache a
// sequence holds is split between its shared prefix and its own tokens in
// proportion to their tokens (exact for full attention; an approximation for
// sliding windows and linear-attention state). The shared prefix is taken to be the
// same for every request (a system prompt, few-shot examples, a document under
// questions), held once per replica.
func (sv *PreparedServing) setModes(s Serving, held int) error {
	if !(s.PrefixShare >= 0 && s.PrefixShare < 1) {
		return fmt.Errorf("compute: serving prefix_share %v, want a share of the prompt in [0, 1): %w", s.PrefixShare, ErrInvalid)
	}
	if err := sv.r.setExpert(s.Model, s.Expert); err != nil {
		return err
	}
	one := sv.kvSeq / sv.r.kvCopies
	tau := 1.0
	if sp := s.Speculative; sp != nil {
		draft, err := sv.setDraft(s, *sp)
		if err != nil {
			return err
		}
		one += draft
		tau = sp.TokensPerStep()
	}
	sv.kvToken = one / float64(held)
	// Below the whole prompt: PromptTokens × PrefixShare < PromptTokens in floating
	// point too, for any share below 1.
	sv.cached = math.Floor(sv.prompt*s.PrefixShare/KVBlockTokens) * KVBlockTokens
	sv.fill = sv.prompt - sv.cached
	sv.kvShared = sv.kvSeq * sv.cached / float64(held)
	sv.kvSeq -= sv.kvShared
	sv.steps = math.Ceil((sv.output - 1) / tau)
	sv.perToken = 1 / tau
	if sv.output > 1 {
		sv.perToken = sv.steps / (sv.output - 1)
	}
	return nil
}

// setDraft sizes the draft of sp beside the target of s: the draft runs on the
// same devices, with the same tensor-parallel degree, weight and KV precisions,
// prompt and output lengths (a Serving of its own, prepared alone), its weights
// take their share of each device, its KV cache grows with the target's, and its
// steps pay no StepOverhead of their own (they run inside the engine's step). It
// returns the bytes of one copy of the draft's cache of one sequence at its
// longest.
func (sv *PreparedServing) setDraft(s Serving, sp Speculation) (float64, error) {
	if err := sp.Validate(); err != nil {
		return 0, err
	}
	ds := s
	ds.Model, ds.Speculative, ds.PrefixShare, ds.Expert = sp.Draft, nil, 0, 0
	dp, err := ds.Prepare()
	if err != nil {
		return 0, fmt.Errorf("compute: speculative.draft: %w", err)
	}
	kvp := s.KV
	if kvp == 0 {
		kvp = s.Weights.KVDefault()
	}
	est, err := sizing.Estimate(sp.Draft, sizing.Workload{Task: sizing.Inference, Precision: s.Weights,
		KVPrecision: kvp, Batch: 1, SeqLen: int(sv.chunk)})
	if err != nil {
		return 0, &sizingError{err} // Prepare has estimated the same draft
	}
	sv.need += float64(est.Weights) / sv.r.devices
	sv.kvSeq += dp.kvSeq
	sv.draft, sv.gamma = dp.r, float64(sp.Tokens)
	sv.draft.fixed = 0
	sv.r.proposed = sv.gamma
	return dp.kvSeq / dp.r.kvCopies, nil
}

// step returns the seconds of one engine step that decodes dec sequences and
// prefills pre prompt tokens of mean context ctx: the target's forward pass
// (replica.step) and, with a draft, the draft's: its pass over the same prompt
// tokens and its first proposal, then Tokens − 1 more proposals, each one token
// for every decoding sequence (Leviathan et al. 2023, Algorithm 1: the draft
// runs autoregressively, the target checks all proposals in one pass).
func (sv *PreparedServing) step(dec, pre, ctx float64) float64 {
	t := sv.r.step(dec, pre, ctx).total()
	if sv.gamma > 0 && dec+pre > 0 {
		t += sv.draft.step(dec, pre, ctx).total()
		if dec > 0 {
			t += (sv.gamma - 1) * sv.draft.step(dec, 0, 0).total()
		}
	}
	return t
}

// Capacity returns the requests a second the replica completes with every
// sequence slot busy, what MaxConcurrency users complete in a closed loop (At):
// Under reports Stable false from this rate on. A planner sizes replicas with it
// (⌈rate / Capacity⌉ at the least) before it asks Under for the latencies.
func (sv *PreparedServing) Capacity() (float64, error) {
	if sv.max < 1 {
		return 0, errUnprepared
	}
	sat, err := sv.At(sv.max)
	return sat.Requests, err
}
