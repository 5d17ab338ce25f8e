package compute

import (
	"fmt"

	"github.com/gpuplan/gpuplan/sizing"
)

// MaxDraftTokens bounds Speculation.Tokens: serving engines propose up to about
// ten tokens a step, and a step that verifies more than this many is a typing
// error, not a plan.
const MaxDraftTokens = 1024

// Speculation is speculative decoding (Leviathan et al. 2023, "Fast Inference from
// Transformers via Speculative Decoding"; Chen et al. 2023): each step a draft
// model, or draft heads such as EAGLE's or Medusa's described as a small model,
// proposes Tokens tokens of each sequence one after the other, and the served
// model checks them all in one forward pass over Tokens + 1 positions, keeping the
// proposals up to the first it rejects and one token of its own. Acceptance is the
// chance that it accepts a proposal, taken as the same for every proposal.
//
// A Serving with a Speculative pays for the draft: its weights and KV cache take
// memory beside the served model's (fewer sequences fit), its proposals take
// steps of their own inside each engine step, and verifying Tokens + 1 positions
// costs more than decoding one where compute, not the weight read, bounds a step.
// What it gains is TokensPerStep tokens a step instead of one. At zero acceptance
// it gains nothing and pays all of that, so it never looks faster than decoding
// without it.
//
// The draft shares the served model's devices, tensor-parallel degree, weight and
// KV precisions (vLLM's and SGLang's draft-model modes run it so).
type Speculation struct {
	Draft      sizing.Model `json:"draft"`      // the draft model (or heads, as a model of their size)
	Tokens     int          `json:"tokens"`     // tokens proposed a step, 0 to MaxDraftTokens; zero proposes none
	Acceptance float64      `json:"acceptance"` // chance that a proposal is accepted, in [0, 1]
}

// Validate reports tokens outside 0..MaxDraftTokens or an acceptance outside
// [0, 1], naming the field, wrapping ErrInvalid. The draft model is checked when
// a Serving holding it is prepared.
func (s Speculation) Validate() error {
	if s.Tokens < 0 || s.Tokens > MaxDraftTokens {
		return fmt.Errorf("compute: speculative.tokens %d, want 0 to %d draft tokens a step: %w", s.Tokens, MaxDraftTokens, ErrInvalid)
	}
	if !(s.Acceptance >= 0 && s.Acceptance <= 1) {
		return fmt.Errorf("compute: speculative.acceptance %v, want a chance in [0, 1]: %w", s.Acceptance, ErrInvalid)
	}
	return nil
}

// TokensPerStep returns the tokens a sequence gains per verifying step, on
// average: with Tokens = γ proposals each accepted with chance α independently, the
// accepted run stops at the first rejection, and the served model adds one token of
// its own, so a step yields 1 + α + α² + … + α^γ tokens, which is Leviathan et al.
// 2023's equation 1, (1 − α^(γ+1)) / (1 − α), and γ + 1 at α = 1. It is 1 at zero
// acceptance or zero tokens and never decreases as either grows. The sum is taken
// term by term (Horner's rule) rather than by the quotient, which loses precision
// as α nears 1. Call it on a Speculation that Validate accepts.
func (s Speculation) TokensPerStep() float64 {
	t := 1.0
	for range s.Tokens {
		t = 1 + s.Acceptance*t
	}
	return t
}

// UnmarshalJSON reads a speculation strictly: unknown fields are errors wrapping
// ErrInvalid. It does not validate; Validate does.
func (s *Speculation) UnmarshalJSON(b []byte) error {
	type plain Speculation
	return strictUnmarshal(b, (*plain)(s))
}
