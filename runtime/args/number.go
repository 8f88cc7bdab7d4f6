package args

import (
	"strconv"
	"strings"
)

// parseInteger reads a JSON number literal exactly, without going through
// float64 (which would accept 9007199254740993 as ...992 and 3.0000000001
// as 3). It reports the sign and magnitude when the number is an integer,
// frac when it is not, and big when its magnitude exceeds uint64. -0 is 0.
func parseInteger(lit string) (neg bool, mag uint64, frac, big bool) {
	if strings.HasPrefix(lit, "-") {
		neg, lit = true, lit[1:]
	}
	mant, exp := lit, 0
	if i := strings.IndexAny(lit, "eE"); i >= 0 {
		mant = lit[:i]
		e, err := strconv.Atoi(strings.TrimPrefix(lit[i+1:], "+"))
		if err != nil {
			// An exponent beyond int: the number is either 0 (only zero
			// digits), astronomically large, or has a fraction.
			e = 1 << 30
			if strings.HasPrefix(lit[i+1:], "-") {
				e = -e
			}
		}
		exp = e
	}
	digits := mant
	if i := strings.IndexByte(mant, '.'); i >= 0 {
		digits = mant[:i] + mant[i+1:]
		exp -= len(mant) - i - 1
	}
	digits = strings.TrimLeft(digits, "0")
	if digits == "" {
		return false, 0, false, false // zero, whatever the exponent
	}
	trimmed := strings.TrimRight(digits, "0")
	exp += len(digits) - len(trimmed)
	digits = trimmed
	switch {
	case exp < 0:
		return false, 0, true, false
	case len(digits)+exp > 20: // uint64 has at most 20 digits
		return false, 0, false, true
	}
	mag, err := strconv.ParseUint(digits+strings.Repeat("0", exp), 10, 64)
	if err != nil {
		return false, 0, false, true
	}
	return neg, mag, false, false
}

// plainInteger reads the common case, up to 19 digits with an optional
// minus and no fraction or exponent, which cannot overflow uint64; ok is
// false for anything else, which parseInteger then reads.
func plainInteger(lit []byte) (neg bool, mag uint64, ok bool) {
	if len(lit) > 0 && lit[0] == '-' {
		neg, lit = true, lit[1:]
	}
	if len(lit) == 0 || len(lit) > 19 {
		return false, 0, false
	}
	for _, c := range lit {
		if c < '0' || c > '9' {
			return false, 0, false
		}
		mag = mag*10 + uint64(c-'0')
	}
	return neg && mag != 0, mag, true
}
