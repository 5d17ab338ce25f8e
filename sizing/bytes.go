package sizing

// Bytes is an amount of memory in bytes. It is signed so that headroom (capacity
// minus need) can go negative; every size an estimate produces is non-negative.
// The largest representable amount is about 8 EiB.
//
// Build values from the typed constants, so that 80*GiB is a Bytes: KB, MB, GB, TB and
// PB are powers of 1000 as vendors print them; KiB, MiB, GiB, TiB and PiB are powers of
// 1024 as nvidia-smi and most tools print them (and often call "GB").
type Bytes int64

// Units of memory. The decimal units are powers of 1000, the binary ones powers of
// 1024, each built from the one before.
const (
	Byte Bytes = 1
	KB         = 1000 * Byte
	MB         = 1000 * KB
	GB         = 1000 * MB
	TB         = 1000 * GB
	PB         = 1000 * TB

	KiB = 1024 * Byte
	MiB = 1024 * KiB
	GiB = 1024 * MiB
	TiB = 1024 * GiB
	PiB = 1024 * TiB
)

// GiB returns b in gibibytes, for display only.
func (b Bytes) GiB() float64 { return float64(b) / float64(GiB) }

// GB returns b in gigabytes (10^9), for display only.
func (b Bytes) GB() float64 { return float64(b) / float64(GB) }
