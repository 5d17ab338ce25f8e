package plan

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/gpuplan/gpuplan/sizing"
)

// Command starts one replica of a fleet's group on a serving engine: Engine
// names the engine ("vllm" or "sglang"), Args is the whole command line, the
// program first, as exec takes it (String writes it for a shell).
type Command struct {
	Engine string   `json:"engine"`
	Args   []string `json:"args"`
}

// The engines Option.Launch writes lines for.
const (
	EngineVLLM   = "vllm"
	EngineSGLang = "sglang"
)

// String writes the command as one shell line, single-quoting each argument
// the shell would otherwise split or expand.
func (c Command) String() string {
	parts := make([]string, len(c.Args))
	for i, a := range c.Args {
		parts[i] = shellQuote(a)
	}
	return strings.Join(parts, " ")
}

// shellQuote quotes a for a POSIX shell when it holds anything but letters,
// digits and -_./:=,@+.
func shellQuote(a string) string {
	safe := a != ""
	for _, r := range a {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./:=,@+", r)) {
			safe = false
			break
		}
	}
	if safe {
		return a
	}
	return "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
}

// launch returns the lines that start the replicas of a fleet as they were
// priced, one per engine per group, in the fleet's order: vLLM's `vllm
// serve` and SGLang's `python -m sglang.launch_server`, each with the model's
// name as its model argument, and
//
//   - the tensor-parallel degree (--tensor-parallel-size, --tp-size) and,
//     for experts spread over all of a replica's GPUs, expert parallelism
//     (vLLM's --enable-expert-parallel, which spans every tensor-parallel
//     rank; SGLang's --ep-size);
//   - the sequence slots the replica was sized for, MaxConcurrency
//     (--max-num-seqs, --max-running-requests);
//   - the share of each GPU's memory the engine takes, 1 − the reserve
//     (--gpu-memory-utilization, --mem-fraction-static);
//   - a request's tokens, prompt and output, as the context length
//     (--max-model-len, --context-length);
//   - an FP8 KV cache (--kv-cache-dtype: vLLM's fp8, SGLang's fp8_e4m3) and
//     FP8 weights quantized on loading (--quantization fp8);
//   - speculative decoding with a draft model: vLLM's --speculative-config
//     (model and num_speculative_tokens; vLLM takes a model it is given
//     there for a draft model), SGLang's
//     STANDALONE algorithm with as many steps as draft tokens, a top-k of 1
//     and the draft tokens plus the verified one;
//   - a disaggregated group's role: vLLM's NixlConnector KV transfer, both
//     ways (--kv-transfer-config), SGLang's --disaggregation-mode.
//
// Prefix caching needs no flag: vLLM's V1 engine and SGLang's RadixAttention
// cache prefixes by default. A model without a name gets no lines (the
// option says so).
func (s settings) launch(fleet []Group, slots []int) []Command {
	name := s.Model.Name
	if name == "" {
		return nil
	}
	util := strconv.FormatFloat(1-s.headroom, 'f', -1, 64)
	ctx := strconv.Itoa(s.Serving.PromptTokens + s.Serving.OutputTokens)
	kv := s.Workload.KVPrecision
	if kv == 0 {
		kv = s.Workload.Precision.KVDefault()
	}
	out := make([]Command, 0, 2*len(fleet))
	for j, g := range fleet {
		tp, seqs := strconv.Itoa(max(g.Tensor, 1)), strconv.Itoa(slots[j])
		v := []string{"vllm", "serve", name, "--tensor-parallel-size", tp}
		sg := []string{"python", "-m", "sglang.launch_server", "--model-path", name, "--tp-size", tp}
		if g.Expert > 1 {
			v = append(v, "--enable-expert-parallel")
			sg = append(sg, "--ep-size", strconv.Itoa(g.Expert))
		}
		v = append(v, "--max-num-seqs", seqs, "--gpu-memory-utilization", util, "--max-model-len", ctx)
		sg = append(sg, "--max-running-requests", seqs, "--mem-fraction-static", util, "--context-length", ctx)
		if s.Workload.Precision == sizing.FP8 {
			v = append(v, "--quantization", "fp8")
			sg = append(sg, "--quantization", "fp8")
		}
		if kv == sizing.FP8 {
			v = append(v, "--kv-cache-dtype", "fp8")
			sg = append(sg, "--kv-cache-dtype", "fp8_e4m3")
		}
		if sp := s.Serving.Speculative; sp != nil && sp.Tokens > 0 {
			cfg, _ := json.Marshal(struct {
				Model  string `json:"model"`
				Tokens int    `json:"num_speculative_tokens"`
			}{sp.Draft.Name, sp.Tokens}) // cannot fail: a string and an int
			v = append(v, "--speculative-config", string(cfg))
			sg = append(sg, "--speculative-algorithm", "STANDALONE", "--speculative-draft-model-path", sp.Draft.Name,
				"--speculative-num-steps", strconv.Itoa(sp.Tokens), "--speculative-eagle-topk", "1",
				"--speculative-num-draft-tokens", strconv.Itoa(sp.Tokens+1))
		}
		if g.Role == RolePrefill || g.Role == RoleDecode {
			v = append(v, "--kv-transfer-config", `{"kv_connector":"NixlConnector","kv_role":"kv_both"}`)
			sg = append(sg, "--disaggregation-mode", g.Role)
		}
		out = append(out, Command{EngineVLLM, v}, Command{EngineSGLang, sg})
	}
	return out
}
