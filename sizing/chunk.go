package sizing

// DefaultPrefillChunk is the number of prompt tokens a serving engine runs through
// the model in one forward pass under chunked prefill: vLLM's default
// max_num_batched_tokens (2048) when chunked prefill is on. The activations of a
// serving replica are those of one such chunk, not of every sequence's full prompt.
const DefaultPrefillChunk = 2048
