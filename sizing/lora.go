package sizing

import (
	"fmt"
	"strconv"
	"strings"
)

// DefaultLoRARank is the adapter rank used when Workload.LoRARank is zero: 16. The
// LoRA paper (Hu et al. 2021) reports rank 1 to 8 already matching full fine-tuning
// on GPT-3; PEFT's LoraConfig defaults to 8 and the QLoRA paper (Dettmers et al.
// 2023) uses 64. Sixteen is a common middle choice in fine-tuning recipes; adapters
// are a small share of memory at any of these ranks.
const DefaultLoRARank = 16

// LoRATargets is the set of weight matrices in each layer that carry LoRA adapters,
// named as in Llama's modules (q_proj, k_proj, v_proj, o_proj, gate_proj, up_proj,
// down_proj). The zero value means the task's default: for LoRA the query and value
// projections (PEFT's default target modules for Llama and the LoRA paper's choice),
// for QLoRA every linear layer of the blocks (the QLoRA paper, §4, which found this
// needed to match full fine-tuning).
type LoRATargets uint8

// Adaptable matrices.
const (
	TargetQuery  LoRATargets = 1 << iota // q_proj
	TargetKey                            // k_proj
	TargetValue                          // v_proj
	TargetOutput                         // o_proj
	TargetGate                           // gate_proj (gated FFNs only; ignored otherwise)
	TargetUp                             // up_proj (the first FFN matrix of a plain FFN)
	TargetDown                           // down_proj

	// TargetAttention is every attention projection.
	TargetAttention = TargetQuery | TargetKey | TargetValue | TargetOutput
	// TargetAllLinear is every linear layer of the blocks (not the embeddings or
	// the output head), as in QLoRA.
	TargetAllLinear = TargetAttention | TargetGate | TargetUp | TargetDown
)

var targetNames = [...]string{"q", "k", "v", "o", "gate", "up", "down"}

// String lists the targets joined by "+" ("q+v"), "default" for the zero value.
func (t LoRATargets) String() string {
	if t == 0 {
		return "default"
	}
	s := ""
	for i, n := range targetNames {
		if t&(1<<i) != 0 {
			if s != "" {
				s += "+"
			}
			s += n
		}
	}
	if t&^TargetAllLinear != 0 {
		if s != "" {
			s += "+"
		}
		s += "LoRATargets(" + strconv.Itoa(int(t&^TargetAllLinear)) + ")"
	}
	return s
}

// targets resolves the zero value to the task's default.
func (t LoRATargets) resolve(task Task) LoRATargets {
	if t != 0 {
		return t
	}
	if task == QLoRA {
		return TargetAllLinear
	}
	return TargetQuery | TargetValue
}

// adapterShape returns the trainable parameters of the adapters and the number of
// values Adafactor's factored second moment keeps for them.
//
// An adapter on a d_in×d_out matrix adds A (d_in×r) and B (r×d_out): r·(d_in+d_out)
// parameters (Hu et al. 2021, §4.1). Per layer the matrices are: query h×(a·d), key
// and value h×(k·d), output (a·d)×h, and for each routed-to expert's FFN gate and up
// h×f and down f×h; a mixture of experts adapts every expert's FFN (all are trained).
// Adafactor's factored state for A and B holds (d_in + r) + (r + d_out) values
// (Shazeer & Stern 2018, §3: a row and a column accumulator per matrix).
func adapterShape(ar *arch, targets LoRATargets, rank float64) (params, factored float64) {
	r := rank
	h, ad, kd, f := ar.h, ar.a*ar.d, ar.k*ar.d, ar.f
	var perLayer, fact float64
	add := func(din, dout, copies float64) {
		perLayer += copies * r * (din + dout)
		fact += copies * (din + dout + 2*r)
	}
	if targets&TargetQuery != 0 {
		add(h, ad, 1)
	}
	if targets&TargetKey != 0 {
		add(h, kd, 1)
	}
	if targets&TargetValue != 0 {
		add(h, kd, 1)
	}
	if targets&TargetOutput != 0 {
		add(ad, h, 1)
	}
	if targets&TargetGate != 0 && ar.gated {
		add(h, f, ar.experts)
	}
	if targets&TargetUp != 0 {
		add(h, f, ar.experts)
	}
	if targets&TargetDown != 0 {
		add(f, h, ar.experts)
	}
	return perLayer * ar.L, fact * ar.L
}

// MarshalText writes the set as String does ("q+v", "default"), so that a
// Workload reads well in JSON.
func (t LoRATargets) MarshalText() ([]byte, error) {
	if t&^TargetAllLinear != 0 {
		return nil, fmt.Errorf("sizing: unknown LoRA targets %d: %w", uint8(t), ErrInvalid)
	}
	return []byte(t.String()), nil
}

// UnmarshalText reads what MarshalText writes, and also "all" (every linear layer)
// and "attention"; names are case-sensitive. Unknown names wrap ErrInvalid.
func (t *LoRATargets) UnmarshalText(b []byte) error {
	s := string(b)
	var u LoRATargets
	switch s {
	case "", "default":
	case "all":
		u = TargetAllLinear
	case "attention":
		u = TargetAttention
	default:
		for _, part := range strings.Split(s, "+") {
			found := false
			for i, n := range targetNames {
				if part == n {
					u |= 1 << i
					found = true
				}
			}
			if !found {
				return &ParseError{Func: "LoRATargets.UnmarshalText", Input: s, Err: newInvalidReason("want default, all, attention, or targets from q, k, v, o, gate, up and down joined with +")}
			}
		}
	}
	*t = u
	return nil
}
