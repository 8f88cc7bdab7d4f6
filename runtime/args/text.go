package args

import (
	"bytes"
	"fmt"
	"unicode/utf16"
	"unicode/utf8"
)

// textProblem checks a JSON string literal (quotes included) for what
// encoding/json would silently replace with U+FFFD: bytes that are not
// UTF-8, and \u escapes of half a UTF-16 surrogate pair. Either would be
// written to the forge as a character the model never sent, so the call is
// refused instead, naming the offending byte or escape.
func textProblem(lit []byte) string {
	lit = bytes.TrimSpace(lit)
	if !utf8.Valid(lit) {
		for i := 1; i < len(lit); {
			r, size := utf8.DecodeRune(lit[i:])
			if r == utf8.RuneError && size <= 1 {
				return fmt.Sprintf("not valid UTF-8: byte 0x%02x at byte %d of the string", lit[i], i-1)
			}
			i += size
		}
	}
	for i := 1; i < len(lit)-1; i++ {
		if lit[i] != '\\' {
			continue
		}
		i++ // the escaped character: skipping it keeps \\u out of the match
		if lit[i] != 'u' {
			continue
		}
		r, ok := hex4At(lit[i+1:])
		if !ok || !utf16.IsSurrogate(r) {
			continue
		}
		esc := string(lit[i-1 : i+5])
		if r < 0xdc00 { // a high half must be followed by a low one
			if low, ok := hex4At(after(lit, i+5, `\u`)); ok && low >= 0xdc00 && low <= 0xdfff {
				i += 10 // both halves: one character
				continue
			}
		}
		return "contains " + esc + `, half of a UTF-16 surrogate pair: escape a character outside the BMP as both halves, e.g. \ud83d\ude00`
	}
	return ""
}

// hex4At reads the four hex digits of a \u escape at the start of b.
func hex4At(b []byte) (rune, bool) {
	if len(b) < 4 {
		return 0, false
	}
	r := hex4(b[:4])
	return r, r >= 0
}

// after is lit from i on when it starts with prefix, past the prefix.
func after(lit []byte, i int, prefix string) []byte {
	if i+len(prefix) > len(lit) || string(lit[i:i+len(prefix)]) != prefix {
		return nil
	}
	return lit[i+len(prefix):]
}

// hex4 is the value of four hex digits, or -1.
func hex4(h []byte) rune {
	var r rune
	for _, c := range h {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c -= 'a' - 10
		case c >= 'A' && c <= 'F':
			c -= 'A' - 10
		default:
			return -1
		}
		r = r<<4 | rune(c)
	}
	return r
}
