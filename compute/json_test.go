package compute

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/gpuplan/gpuplan/sizing"
)

func TestJSONDurations(t *testing.T) {
	tests := []struct {
		name string
		v    any
		want string
		back any
	}{
		{"timing", Timing{Duration: 90 * time.Minute, Low: time.Hour, High: 2 * time.Hour, Step: 1500 * time.Millisecond, Steps: 3600,
			Compute: 80 * time.Minute, Comm: 10 * time.Minute, Bubble: time.Minute, Efficiency: 0.875, MFU: 0.41, Data: 4, Tensor: 2, Pipeline: 2},
			`{"duration":"1h30m0s","low":"1h0m0s","high":"2h0m0s","step":"1.5s","steps":3600,"compute":"1h20m0s","comm":"10m0s","bubble":"1m0s","efficiency":0.875,"mfu":0.41,"data":4,"tensor":2,"pipeline":2}`,
			new(Timing)},
		{"load point", LoadPoint{Rate: 4, Concurrency: 6.5, TTFT: Percentiles{Mean: 40 * time.Millisecond, P50: 30 * time.Millisecond, P90: 60 * time.Millisecond, P99: 90 * time.Millisecond},
			TPOT: Percentiles{Mean: 13 * time.Millisecond, P50: 12 * time.Millisecond, P90: 15 * time.Millisecond, P99: 18 * time.Millisecond}, Throughput: 800, Stable: true},
			`{"rate":4,"concurrency":6.5,"ttft":{"mean":"40ms","p50":"30ms","p90":"60ms","p99":"90ms"},"tpot":{"mean":"13ms","p50":"12ms","p90":"15ms","p99":"18ms"},"throughput_tokens_per_second":800,"stable":true}`,
			new(LoadPoint)},
		{"calibration", Calibration{Train: 0.8, Decode: 1.1}, `{"train":0.8,"decode":1.1}`, new(Calibration)},
		{"step", Step{Compute: time.Second, Comm: 300 * time.Millisecond, Exposed: 100 * time.Millisecond, Total: 1100 * time.Millisecond, Efficiency: 0.5},
			`{"compute":"1s","comm":"300ms","exposed":"100ms","total":"1.1s","efficiency":0.5}`, new(Step)},
		{"span", Span{Low: time.Hour, High: 0}, `{"low":"1h0m0s","high":"0s"}`, new(Span)},
		{"link", Link{Bandwidth: 450e9, Latency: 5 * time.Microsecond}, `{"bandwidth_bytes_per_second":450000000000,"latency":"5µs"}`, new(Link)},
		{"decode speed", DecodeSpeed{PerSequence: 20, Total: 160, Step: 50 * time.Millisecond, BytesRead: 1 << 30, MemoryBound: true, Comm: 2 * time.Millisecond},
			`{"per_sequence_tokens_per_second":20,"total_tokens_per_second":160,"step":"50ms","bytes_read":1073741824,"memory_bound":true,"comm":"2ms","approx":false}`,
			new(DecodeSpeed)},
		{"serving point", ServingPoint{Concurrency: 8, TTFT: 120 * time.Millisecond, TPOT: 25 * time.Millisecond, Throughput: 320, PerUser: 40, Requests: 1.25},
			`{"concurrency":8,"ttft":"120ms","tpot":"25ms","throughput_tokens_per_second":320,"per_user_tokens_per_second":40,"requests_per_second":1.25,"approx":false}`,
			new(ServingPoint)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := json.Marshal(tt.v)
			if err != nil || string(b) != tt.want {
				t.Fatalf("Marshal = %s, %v; want %s", b, err, tt.want)
			}
			if err := json.Unmarshal(b, tt.back); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.v, deref(tt.back)); diff != "" {
				t.Errorf("round trip mismatch (-want +got):\n%s", diff)
			}
		})
	}
	for _, bad := range []struct {
		in string
		v  any
	}{
		{`{"low":"1h","high":"2h","extra":1}`, new(Span)},
		{`{"low":3600000000000,"high":"2h"}`, new(Span)},
		{`{"bandwidth_bytes_per_second":1,"latency_ns":5000}`, new(Link)},
		{`{"bandwidth_bytes_per_second":1,"latency":"soon"}`, new(Link)},
		{`{"devices":2,"link":{"bandwidth_bytes_per_second":1,"latency":"5us"},"device":1}`, new(Job)},
		{`{"batch":1,"batchsize":1}`, new(Decode)},
		{`{"low":0.3,"high":0.5,"mid":0.4}`, new(Band)},
		{`{"concurrency":1,"ttft_ns":5}`, new(ServingPoint)},
		{`{"devices":1,"prompt":3}`, new(Serving)},
		{`{"rate":1,"p50":"1s"}`, new(LoadPoint)},
		{`{"train":1,"serve":1}`, new(Calibration)},
		{`{"accumulation":2,"calibration":{"train":0.9,"eval":1}}`, new(Job)},
	} {
		if err := json.Unmarshal([]byte(bad.in), bad.v); !errors.Is(err, ErrInvalid) {
			t.Errorf("Unmarshal(%s) error = %v; want ErrInvalid", bad.in, err)
		}
	}
	// A nested sizing value's error is sizing's message under "compute: ", its
	// sentinel's text once, and wraps both packages' ErrInvalid.
	for _, in := range []string{`{"model":{"bogus":1}}`, `{"speculative":{"draft":{"layers":"x"}}}`} {
		err := json.Unmarshal([]byte(in), new(Serving))
		if !errors.Is(err, ErrInvalid) || !errors.Is(err, sizing.ErrInvalid) ||
			!strings.HasPrefix(err.Error(), "compute: sizing: model: ") || strings.Count(err.Error(), "invalid input") != 1 {
			t.Errorf("Unmarshal(%s) error = %q; want sizing's message once, wrapping both ErrInvalid", in, err)
		}
	}
	// A value of the wrong JSON type is said in JSON's words, not Go's type names.
	for in, want := range map[string]string{
		`{"calibration":"x"}`:           `compute: want an object, got string: invalid input`,
		`{"calibration":{"train":"x"}}`: `compute: field train: want a number, got string: invalid input`,
	} {
		if err := json.Unmarshal([]byte(in), new(Job)); !errors.Is(err, ErrInvalid) || err.Error() != want {
			t.Errorf("Unmarshal(%s) error = %q, want %q", in, err, want)
		}
	}
	var j Job
	if err := json.Unmarshal([]byte(`{"devices":2,"link":{"bandwidth_bytes_per_second":1e9,"latency":"5us"}}`), &j); err != nil ||
		j.Devices != 2 || j.Link.Latency != 5*time.Microsecond {
		t.Errorf("Unmarshal(job) = %+v, %v; want 2 devices on a 5µs link", j, err)
	}
}

func deref(v any) any {
	switch p := v.(type) {
	case *Timing:
		return *p
	case *Step:
		return *p
	case *Span:
		return *p
	case *Link:
		return *p
	case *DecodeSpeed:
		return *p
	case *ServingPoint:
		return *p
	case *LoadPoint:
		return *p
	case *Calibration:
		return *p
	}
	return nil
}

// FuzzJSON: any input either fails with ErrInvalid or reads into a value that
// writes and reads back to itself, for each type with its own JSON reader.
func FuzzJSON(f *testing.F) {
	for _, s := range []string{
		`{"duration":"1h30m0s","low":"1h0m0s","high":"2h0m0s","step":"1.5s","steps":3600,"compute":"1h20m0s","comm":"10m0s","efficiency":0.875,"data":4,"tensor":2}`,
		`{"compute":"1s","comm":"300ms","exposed":"100ms","total":"1.1s","efficiency":0.5}`,
		`{"low":"1h0m0s","high":"0s"}`,
		`{"bandwidth_bytes_per_second":450000000000,"latency":"5µs"}`,
		`{"per_sequence_tokens_per_second":20,"total_tokens_per_second":160,"step":"50ms","bytes_read":1073741824,"memory_bound":true,"comm":"2ms","approx":false}`,
		`{"concurrency":8,"ttft":"120ms","tpot":"25ms","throughput_tokens_per_second":320,"per_user_tokens_per_second":40,"requests_per_second":1.25,"approx":false}`,
		`{"rate":4,"concurrency":6.5,"ttft":{"mean":"40ms","p50":"30ms","p90":"60ms","p99":"90ms"},"tpot":{"mean":"13ms","p50":"12ms","p90":"15ms","p99":"18ms"},"throughput_tokens_per_second":800,"stable":true}`,
		`{"train":0.8,"decode":1.1}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, v := range []func() any{
			func() any { return new(Timing) }, func() any { return new(Step) }, func() any { return new(Span) },
			func() any { return new(Link) }, func() any { return new(DecodeSpeed) }, func() any { return new(ServingPoint) },
			func() any { return new(LoadPoint) }, func() any { return new(Calibration) },
		} {
			first := v()
			if err := json.Unmarshal([]byte(s), first); err != nil {
				var syntax *json.SyntaxError
				if !errors.Is(err, ErrInvalid) && !errors.As(err, &syntax) {
					t.Fatalf("Unmarshal(%q) into %T: %v, want ErrInvalid", s, first, err)
				}
				continue
			}
			b, err := json.Marshal(first)
			if err != nil {
				t.Fatalf("Marshal(%T %+v): %v", first, first, err)
			}
			second := v()
			if err := json.Unmarshal(b, second); err != nil {
				t.Fatalf("Unmarshal(%s) into %T: %v", b, second, err)
			}
			if b2, _ := json.Marshal(second); string(b2) != string(b) {
				t.Fatalf("%T: %s read back writes %s", first, b, b2)
			}
		}
	})
}
