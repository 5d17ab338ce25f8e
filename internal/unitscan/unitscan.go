// Package unitscan splits a quantity such as "80GiB", "312 TFLOPS" or "2.5TB/s" into
// its number and unit suffix. It is shared by the parsers of the gpuplan packages and
// does no unit lookup itself.
package unitscan

import (
	"errors"
	"strconv"
	"strings"
)

// ErrSyntax reports a string that is not a number followed by an optional unit.
var ErrSyntax = errors.New("invalid syntax")

// Split trims s and returns the leading decimal number (digits, one optional point,
// an optional exponent such as e9) and the remaining unit, itself trimmed of spaces.
// A leading sign is kept in the number. It does not accept hexadecimal, underscores,
// "Inf" or "NaN".
func Split(s string) (num, unit string, err error) {
	s = strings.TrimSpace(s)
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	digits, dot := 0, false
	for i < len(s) {
		c := s[i]
		if c >= '0' && c <= '9' {
			digits++
		} else if c == '.' && !dot {
			dot = true
		} else {
			break
		}
		i++
	}
	if digits == 0 {
		return "", "", ErrSyntax
	}
	// Exponent: e or E, optional sign, at least one digit. "8EB" must stay a unit,
	// so an 'e' not followed by digits ends the number.
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		j := i + 1
		if j < len(s) && (s[j] == '+' || s[j] == '-') {
			j++
		}
		k := j
		for k < len(s) && s[k] >= '0' && s[k] <= '9' {
			k++
		}
		if k > j {
			i = k
		}
	}
	return s[:i], strings.TrimSpace(s[i:]), nil
}

// Float parses the number part returned by Split as a float64, refusing NaN and
// infinities.
func Float(num string) (float64, error) {
	f, err := strconv.ParseFloat(num, 64)
	if err != nil {
		return 0, err
	}
	return f, nil
}
