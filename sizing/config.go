package sizing

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// MaxConfigBytes bounds the config.json ReadConfig reads: 4 MiB, hundreds of times
// the largest published config (DeepSeek-V3's is under 2 KB; Phi-3's, with its
// rope-scaling tables, under 10 KB). A longer input is refused without being
// decoded.
const MaxConfigBytes = 4 << 20

// ReadConfig reads a Hugging Face config.json and returns the model it describes,
// with the architecture fields set and Params left zero, so that ParamCount derives
// the count from the architecture: the tensor elements of the language model in the
// published checkpoint (presets_test.go and config_test.go pin them), vision towers
// and multi-token-prediction layers left out (MTPLayers and Notes say how many the
// checkpoint holds). StoredPrecision is set from quantization_config or torch_dtype.
//
// It reads these model_type values: llama (Llama 1, 2, 3, 3.1, 3.2), llama4
// (Llama 4's language model), mistral, mixtral, qwen2, qwen2_moe, qwen3, qwen3_moe,
// qwen3_next, phi3, gemma, gemma2, gemma3 and gemma3_text, deepseek_v2,
// deepseek_v3 (DeepSeek-R1 too), kimi_k2, gpt2, gpt_neox, falcon (and its older
// RefinedWeb names), opt, bloom, gpt_oss, chatglm (ChatGLM2, ChatGLM3, GLM-4 in
// THUDM's format), glm and glm4 (GLM-4 in transformers' format), glm4_moe
// (GLM-4.5), baichuan, internlm2, internlm3, minicpm, ernie4_5 and ernie4_5_moe.
// A config without model_type is read by the first class its architectures list
// names (MiniCPM-2B's config has none), and Notes says so. A config with a
// text_config object (a multimodal wrapper such as Gemma 3's or Llama 4's) is read
// for its language model: the keys of text_config, with those of the outer object
// as a fallback. An unknown model_type (the error lists those read and how to
// describe a model by hand), a config that is no model's (a tokenizer's, {}), a
// missing required key, a value of the wrong type, or an input over MaxConfigBytes
// is an error wrapping ErrInvalid that names it; ReadConfig never returns a zero
// Model without an error.
func ReadConfig(r io.Reader) (Model, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxConfigBytes+1))
	if err != nil {
		return Model{}, fmt.Errorf("sizing: config.json: %w", err)
	}
	if len(data) > MaxConfigBytes {
		return Model{}, fmt.Errorf("sizing: config.json is over %d bytes: %w", MaxConfigBytes, ErrInvalid)
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		return Model{}, fmt.Errorf("sizing: config.json: %s: %w", reason(err), ErrInvalid)
	}
	c := &hfConfig{keys: top}
	if raw, ok := top["text_config"]; ok && !isNull(raw) {
		var inner map[string]json.RawMessage
		if err := json.Unmarshal(raw, &inner); err != nil {
			return Model{}, fmt.Errorf("sizing: config.json: text_config: %s: %w", reason(err), ErrInvalid)
		}
		c = &hfConfig{keys: inner, outer: top}
	}
	m, err := c.model()
	if err != nil {
		return Model{}, err
	}
	if m.StoredPrecision, err = c.storedPrecision(&m.Notes); err != nil {
		return Model{}, err
	}
	p := problems{collect: true, prefix: "sizing: config.json (" + c.typ + "): "}
	if m.check(&p); p.n > 0 {
		return Model{}, p.err()
	}
	if m.StoredPrecision == MXFP4 && m.Experts > 1 {
		m.StoredBytes = mxfp4Experts(&m)
	}
	return m, nil
}

// mxfp4Experts is the stored size of a model whose routed experts' matrices are
// MXFP4 and everything else 16-bit, as transformers' mxfp4 quantizer stores them
// (gpt-oss: attention, router, embeddings, the output head and every bias stay
// BF16): 17 bytes per 32 expert weights (16 bytes of E2M1 pairs and one E8M0
// scale, OCP MX v1.0) and 2 bytes per other parameter. gpt-oss-20b's 19.1B expert
// weights and 1.8B others come to 13.76 GB, its checkpoint's size.
func mxfp4Experts(m *Model) Bytes {
	mats := int64(2)
	if m.GatedFFN {
		mats = 3
	}
	experts := int64(m.Layers-m.DenseLayers) * int64(m.Experts) * mats * int64(m.Hidden) * int64(m.expertFFN()) // under ParamCount, which fits
	return Bytes((experts*17+31)/32 + 2*(m.ParamCount()-experts))
}

// hfConfig looks keys up in a config.json object, then in its outer object.
type hfConfig struct {
	keys, outer map[string]json.RawMessage
	typ         string
	err         error // the first problem; later lookups are skipped
}

func isNull(raw json.RawMessage) bool { return string(bytes.TrimSpace(raw)) == "null" }

// raw returns the first of names present and not null, and its name.
func (c *hfConfig) raw(names ...string) (json.RawMessage, string) {
	for _, src := range []map[string]json.RawMessage{c.keys, c.outer} {
		for _, n := range names {
			if v, ok := src[n]; ok && !isNull(v) {
				return v, n
			}
		}
	}
	return nil, ""
}

func (c *hfConfig) fail(format string, args ...any) {
	if c.err == nil {
		c.err = fmt.Errorf("sizing: config.json (%s): "+format+": %w", append(append([]any{c.typ}, args...), ErrInvalid)...)
	}
}

// maxConfigInt bounds every integer read from a config: 2^40, far above any
// dimension or count a model has, and small enough that no product ParamCount
// forms before its own overflow check can wrap.
const maxConfigInt = 1 << 40

// intOr returns the integer under the first present name, or def when none is.
func (c *hfConfig) intOr(def int, names ...string) int {
	v, name := c.raw(names...)
	if v == nil || c.err != nil {
		return def
	}
	// v is a valid JSON value: a number is a float strconv reads as JSON does.
	f, err := strconv.ParseFloat(string(v), 64)
	if err != nil {
		c.fail("%s is not a number", name)
		return def
	}
	if f != math.Trunc(f) || f < 0 || f > maxConfigInt {
		c.fail("%s %v is not a whole number from 0 to 2^40", name, f)
		return def
	}
	return int(f)
}

// int returns the integer under the first present name; none is an error naming
// the first.
func (c *hfConfig) int(names ...string) int {
	if v, _ := c.raw(names...); v == nil {
		c.fail("missing key %s", names[0])
		return 0
	}
	return c.intOr(0, names...)
}

func (c *hfConfig) boolOr(def bool, name string) bool {
	v, _ := c.raw(name)
	if v == nil || c.err != nil {
		return def
	}
	switch string(v) {
	case "true":
		return true
	case "false":
		return false
	}
	c.fail("%s is not true or false", name)
	return def
}

func (c *hfConfig) str(name string) string {
	v, _ := c.raw(name)
	if n := len(v); n >= 2 && v[0] == '"' && v[n-1] == '"' && bytes.IndexByte(v, '\\') < 0 {
		return string(v[1 : n-1]) // no escapes to decode
	}
	var s string
	if v != nil && json.Unmarshal(v, &s) != nil {
		c.fail("%s is not a string", name)
	}
	return s
}

// ints returns the list of whole numbers under name, and whether it is there.
func (c *hfConfig) ints(name string) ([]int, bool) {
	v, _ := c.raw(name)
	if v == nil || c.err != nil {
		return nil, false
	}
	var list []int
	if err := json.Unmarshal(v, &list); err != nil {
		c.fail("%s is not a list of whole numbers", name)
		return nil, false
	}
	return list, true
}

// firstInt returns the integer under name, or the first of a list of them there
// (ERNIE 4.5's multimodal configs list the text experts' figures first), or def.
func (c *hfConfig) firstInt(def int, name string) int {
	if v, _ := c.raw(name); v != nil && c.err == nil && bytes.HasPrefix(bytes.TrimSpace(v), []byte("[")) {
		if list, ok := c.ints(name); ok && len(list) > 0 {
			if list[0] < 0 || list[0] > maxConfigInt {
				c.fail("%s %d is not a whole number from 0 to 2^40", name, list[0])
				return def
			}
			return list[0]
		}
		return def
	}
	return c.intOr(def, name)
}

// strings returns the list of strings under name, and whether it is there.
func (c *hfConfig) strings(name string) ([]string, bool) {
	v, _ := c.raw(name)
	if v == nil || c.err != nil {
		return nil, false
	}
	var list []string
	if err := json.Unmarshal(v, &list); err != nil {
		c.fail("%s is not a list of strings", name)
		return nil, false
	}
	return list, true
}

// count returns how many entries of the string list under name equal want, and
// whether the list is there.
func (c *hfConfig) count(name, want string) (int, bool) {
	list, ok := c.strings(name)
	n := 0
	for _, s := range list {
		if s == want {
			n++
		}
	}
	return n, ok
}

// storedPrecision reads the format a config.json states for its weights: its
// quantization_config when there is one (transformers' quantizers name the method
// in quant_method), else its torch_dtype (dtype in newer configs). The methods
// read are fp8 and fbgemm_fp8 (FP8), gptq and awq (GPTQ4 and AWQ4 at 4 bits; other
// widths as CustomBits with an FP16 scale and a zero point per group),
// bitsandbytes (NF4 for load_in_4bit, INT8 for load_in_8bit), mxfp4 (MXFP4),
// modelopt (quant_algo FP8 or NVFP4) and compressed-tensors (8-bit floats as FP8,
// 8-bit integers as INT8, 4-bit integers as GPTQ4, 4-bit floats in groups of 16
// as NVFP4). Another method, or a dtype it does not know, leaves the precision
// zero with a note saying so.
func (c *hfConfig) storedPrecision(notes *string) (Precision, error) {
	raw, _ := c.raw("quantization_config")
	if raw == nil {
		dtype := c.str("torch_dtype")
		if dtype == "" {
			dtype = c.str("dtype")
		}
		switch dtype {
		case "":
			return 0, c.err
		case "float32":
			return FP32, c.err
		case "float16":
			return FP16, c.err
		case "bfloat16":
			return BF16, c.err
		}
		addNote(notes, "torch_dtype "+quote(dtype)+" is not one gpuplan reads: the stored format is unknown")
		return 0, c.err
	}
	var q struct {
		Method string `json:"quant_method"`
		Bits   int    `json:"bits"`
		WBit   int    `json:"w_bit"`
		Group  int    `json:"group_size"`
		QGroup int    `json:"q_group_size"`
		Load4  bool   `json:"load_in_4bit"`
		Load8  bool   `json:"load_in_8bit"`
		Algo   string `json:"quant_algo"`
		Groups map[string]struct {
			Weights *struct {
				Bits  int    `json:"num_bits"`
				Type  string `json:"type"`
				Group *int   `json:"group_size"`
			} `json:"weights"`
		} `json:"config_groups"`
	}
	if err := json.Unmarshal(raw, &q); err != nil {
		return 0, fmt.Errorf("sizing: config.json (%s): quantization_config: %s: %w", c.typ, reason(err), ErrInvalid)
	}
	bits, group := max(q.Bits, q.WBit), max(q.Group, q.QGroup)
	switch strings.ToLower(q.Method) {
	case "fp8", "fbgemm_fp8":
		return FP8, nil
	case "gptq", "awq":
		p := GPTQ4
		if strings.EqualFold(q.Method, "awq") {
			p = AWQ4
		}
		return intGroups(bits, group, p, notes)
	case "bitsandbytes":
		switch {
		case q.Load4:
			return NF4, nil
		case q.Load8:
			return INT8, nil
		}
	case "mxfp4":
		return MXFP4, nil
	case "modelopt":
		switch strings.ToUpper(q.Algo) {
		case "FP8":
			return FP8, nil
		case "NVFP4":
			return NVFP4, nil
		}
	case "compressed-tensors":
		// The group holding the weights' scheme; configs name one ("group_0").
		for _, g := range q.Groups {
			w := g.Weights
			switch {
			case w == nil:
			case w.Bits == 8 && w.Type == "float":
				return FP8, nil
			case w.Bits == 8 && w.Type == "int":
				return INT8, nil
			case w.Bits == 4 && w.Type == "float" && w.Group != nil && *w.Group == 16:
				return NVFP4, nil
			case w.Type == "int" && w.Group != nil:
				return intGroups(w.Bits, *w.Group, GPTQ4, notes)
			}
		}
	}
	addNote(notes, "quantization_config's quant_method "+quote(q.Method)+" is not one gpuplan reads: the stored format is unknown (give -precision)")
	return 0, nil
}

// intGroups is the precision of integer weights of bits bits with an FP16 scale
// and a bits-wide zero point per group of group weights (GPTQ, AWQ): named4 at 4
// bits, whose figure assumes groups of 128 (a note says when the config's
// differ), otherwise CustomBits of bits + (16+bits)/group bits per weight (a group
// of 0 or less is a whole row, whose scale costs next to nothing).
func intGroups(bits, group int, named4 Precision, notes *string) (Precision, error) {
	switch {
	case bits == 4:
		if group > 0 && group != 128 {
			addNote(notes, fmt.Sprintf("%v assumes groups of 128 weights; this checkpoint's groups of %d change its bits per weight", named4, group))
		}
		return named4, nil
	case bits < 2 || bits > 8:
		addNote(notes, fmt.Sprintf("quantization_config gives %d bits: the stored format is unknown", bits))
		return 0, nil
	}
	b := float64(bits)
	if group > 0 {
		b += float64(16+bits) / float64(group)
	}
	return CustomBits(b)
}
