package sizing

import (
	"encoding/json"
	"strconv"
)

// String returns b in the canonical form ParseBytes reads back exactly: an integer
// followed by the unit, with no space, choosing among B and the decimal and binary
// units the one that gives the shortest exact integer; on a tie the binary unit wins.
// So 80*GiB is "80GiB", 24564*MiB is "24564MiB", 80*GB is "80GB", 1234 is "1234B", and
// zero is "0B". Negative values print with a leading '-' ("-512MiB"), which ParseBytes
// refuses, as it refuses every negative size.
func (b Bytes) String() string {
	var buf [32]byte
	return string(b.appendCanonical(buf[:0]))
}

func (b Bytes) appendCanonical(dst []byte) []byte {
	if b == 0 {
		return append(dst, "0B"...)
	}
	// Work on the magnitude as uint64: -b overflows for the smallest int64.
	mag := uint64(b)
	if b < 0 {
		dst = append(dst, '-')
		mag = -mag
	}
	best, bestUnit := mag, "B"
	bestLen := decimalLen(mag)
	for _, u := range byteUnits { // binary units come first, so they win ties
		s := uint64(u.size)
		if s == 1 || mag%s != 0 {
			continue
		}
		if q := mag / s; decimalLen(q) < bestLen {
			best, bestUnit, bestLen = q, u.name, decimalLen(q)
		}
	}
	dst = strconv.AppendUint(dst, best, 10)
	return append(dst, bestUnit...)
}

func decimalLen(u uint64) int {
	n := 1
	for u >= 10 {
		u /= 10
		n++
	}
	return n
}

// Human returns b rounded for reports, in binary units with one decimal and a space:
// "12.6 GiB", "512.0 MiB", "1023 B" (whole bytes below 1 KiB). The unit is the largest
// whose value is at least 1 after rounding, so 1 GiB less one byte prints "1.0 GiB",
// never "1024.0 MiB"; PiB is the largest unit, as in ParseBytes, so the largest value
// prints "8192.0 PiB". ParseBytes reads the result back to within rounding. It is
// lossy; use String to store a size.
func (b Bytes) Human() string { return b.human(binaryHuman[:], 1024) }

// HumanSI is Human in decimal units, as vendors print card memory and the seed
// articles quote sizes: "13.5 GB", "999 B".
func (b Bytes) HumanSI() string { return b.human(decimalHuman[:], 1000) }

var (
	binaryHuman  = [...]string{"B", "KiB", "MiB", "GiB", "TiB", "PiB"}
	decimalHuman = [...]string{"B", "KB", "MB", "GB", "TB", "PB"}
)

func (b Bytes) human(units []string, base float64) string {
	neg := b < 0
	v := float64(b)
	if neg {
		v = -v
	}
	sign := ""
	if neg {
		sign = "-"
	}
	if v < base {
		return sign + strconv.FormatFloat(v, 'f', 0, 64) + " B"
	}
	i := 0
	for i < len(units)-1 && v >= base-0.05 {
		v /= base
		i++
	}
	return sign + strconv.FormatFloat(v, 'f', 1, 64) + " " + units[i]
}

// UnmarshalJSON reads a size written either as a JSON integer of bytes (as Bytes is
// always marshalled) or as a string that ParseBytes accepts ("80GiB"), so that
// hand-written configuration can use units. An integer may be negative (a headroom
// or a calibration offset); a string follows ParseBytes and may not. Fractions and
// other JSON values are errors wrapping ErrInvalid; null leaves b unchanged, as
// encoding/json does for every type.
func (b *Bytes) UnmarshalJSON(data []byte) error {
	if string(data) == "null" {
		return nil
	}
	if len(data) > 0 && data[0] == '"' {
		var s string
		if err := json.Unmarshal(data, &s); err != nil {
			return &ParseError{Func: "Bytes.UnmarshalJSON", Input: string(data), Err: errBytesSyntax}
		}
		v, err := ParseBytes(s)
		if err != nil {
			return err
		}
		*b = v
		return nil
	}
	n, err := strconv.ParseInt(string(data), 10, 64)
	if err != nil {
		return &ParseError{Func: "Bytes.UnmarshalJSON", Input: string(data), Err: errBytesSyntax}
	}
	*b = Bytes(n)
	return nil
}
