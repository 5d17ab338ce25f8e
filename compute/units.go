package compute

// FLOPs is an amount of work in floating-point operations. It is a float64 because
// training runs exceed int64 (Llama 3 405B: 3.8e25).
type FLOPs float64

// FLOPRate is a rate of work in floating-point operations per second.
type FLOPRate float64

// Bandwidth is a transfer rate in bytes per second. Its constants are decimal, as
// vendors print memory and link bandwidth (an A100's 2039 GB/s is 2.039e12 B/s).
type Bandwidth float64

// Units of work and rate, decimal.
const (
	FLOP  FLOPs = 1
	GFLOP       = 1e9 * FLOP
	TFLOP       = 1e12 * FLOP
	PFLOP       = 1e15 * FLOP
	EFLOP       = 1e18 * FLOP

	FLOPS  FLOPRate = 1
	GFLOPS          = 1e9 * FLOPS
	TFLOPS          = 1e12 * FLOPS
	PFLOPS          = 1e15 * FLOPS
	EFLOPS          = 1e18 * FLOPS
)

// Units of bandwidth, decimal bytes per second.
const (
	Bps  Bandwidth = 1
	KBps           = 1e3 * Bps
	MBps           = 1e6 * Bps
	GBps           = 1e9 * Bps
	TBps           = 1e12 * Bps
)
