package args

import (
	"unicode/utf16"
	"unicode/utf8"
)

// This file is the JSON reader under Parse: one pass over the arguments that
// checks them against RFC 8259 (the grammar encoding/json accepts, nesting
// included) and hands out each object member's key and value as slices of
// the input. It builds nothing on the way, no tokens and no errors: a
// refusal is a false, and explain phrases it afterwards. FuzzScan holds it
// to encoding/json's verdict on every input.

// maxDepth is how deeply arrays and objects may nest, encoding/json's limit.
const maxDepth = 10000

// scanner walks data from i; depth counts the arrays and objects it is in.
type scanner struct {
	data  []byte
	i     int
	depth int
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func (s *scanner) skipSpace() {
	for s.i < len(s.data) && isSpace(s.data[s.i]) {
		s.i++
	}
}

// peek is the next byte after white space, or 0 at the end.
func (s *scanner) peek() byte {
	s.skipSpace()
	if s.i == len(s.data) {
		return 0
	}
	return s.data[s.i]
}

// value reads one JSON value at s.i (after white space) and returns its
// text, or false if there is none.
func (s *scanner) value() ([]byte, bool) {
	c := s.peek()
	start := s.i
	var ok bool
	switch c {
	case '{':
		ok = s.object(nil)
	case '[':
		ok = s.array()
	case '"':
		ok = s.str()
	case 't':
		ok = s.literal("true")
	case 'f':
		ok = s.literal("false")
	case 'n':
		ok = s.literal("null")
	default:
		ok = s.number()
	}
	if !ok {
		return nil, false
	}
	return s.data[start:s.i], true
}

// object reads an object at s.i, calling member (when not nil) with each
// key's and value's text in order; member returning false stops the read.
func (s *scanner) object(member func(key, val []byte) bool) bool {
	if s.depth++; s.depth > maxDepth {
		return false
	}
	s.i++ // '{'
	if s.peek() == '}' {
		s.i++
		s.depth--
		return true
	}
	for {
		if s.peek() != '"' {
			return false
		}
		k := s.i
		if !s.str() {
			return false
		}
		key := s.data[k:s.i]
		if s.peek() != ':' {
			return false
		}
		s.i++
		val, ok := s.value()
		if !ok || (member != nil && !member(key, val)) {
			return false
		}
		switch s.peek() {
		case ',':
			s.i++
		case '}':
			s.i++
			s.depth--
			return true
		default:
			return false
		}
	}
}

func (s *scanner) array() bool {
	if s.depth++; s.depth > maxDepth {
		return false
	}
	s.i++ // '['
	if s.peek() == ']' {
		s.i++
		s.depth--
		return true
	}
	for {
		if _, ok := s.value(); !ok {
			return false
		}
		switch s.peek() {
		case ',':
			s.i++
		case ']':
			s.i++
			s.depth--
			return true
		default:
			return false
		}
	}
}

// str reads a string literal: no raw control characters, only the escapes
// JSON defines. Bytes that are not UTF-8 pass, as in encoding/json, which
// reads each as U+FFFD (see unquote).
func (s *scanner) str() bool {
	d := s.data
	for i := s.i + 1; i < len(d); i++ {
		switch c := d[i]; {
		case c == '"':
			s.i = i + 1
			return true
		case c < ' ':
			return false
		case c == '\\':
			i++
			if i == len(d) {
				return false
			}
			switch d[i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if i+4 >= len(d) || hex4(d[i+1:i+5]) < 0 {
					return false
				}
				i += 4
			default:
				return false
			}
		}
	}
	return false
}

func (s *scanner) literal(word string) bool {
	if len(s.data)-s.i < len(word) || string(s.data[s.i:s.i+len(word)]) != word {
		return false
	}
	s.i += len(word)
	return true
}

// number reads -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
func (s *scanner) number() bool {
	d, i := s.data, s.i
	if i < len(d) && d[i] == '-' {
		i++
	}
	switch {
	case i < len(d) && d[i] == '0':
		i++
	case i < len(d) && d[i] >= '1' && d[i] <= '9':
		i = digits(d, i)
	default:
		return false
	}
	if i < len(d) && d[i] == '.' {
		if j := digits(d, i+1); j > i+1 {
			i = j
		} else {
			return false
		}
	}
	if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		i++
		if i < len(d) && (d[i] == '+' || d[i] == '-') {
			i++
		}
		j := digits(d, i)
		if j == i {
			return false
		}
		i = j
	}
	s.i = i
	return true
}

func digits(d []byte, i int) int {
	for i < len(d) && d[i] >= '0' && d[i] <= '9' {
		i++
	}
	return i
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

// items calls item with the text of each element of a valid JSON array.
func items(arr []byte, item func(i int, val []byte)) {
	s := scanner{data: arr, i: 1}
	if s.peek() == ']' {
		return
	}
	for n := 0; ; n++ {
		v, _ := s.value()
		item(n, v)
		if s.peek() != ',' {
			return
		}
		s.i++
	}
}

// count is the number of elements of a valid JSON array.
func count(arr []byte) int {
	n := 0
	items(arr, func(int, []byte) { n++ })
	return n
}

// unquote decodes the text of a valid JSON string literal exactly as
// encoding/json does: escapes resolved, a UTF-16 surrogate that is not
// half of a pair and every byte that is not UTF-8 read as U+FFFD. A
// string without escapes or stray bytes costs one copy.
func unquote(lit []byte) string {
	s := lit[1 : len(lit)-1]
	plain := true
	for i := 0; i < len(s); {
		if c := s[i]; c == '\\' {
			plain = false
			break
		} else if c < utf8.RuneSelf {
			i++
			continue
		}
		r, size := utf8.DecodeRune(s[i:])
		if r == utf8.RuneError && size == 1 {
			plain = false
			break
		}
		i += size
	}
	if plain {
		return string(s)
	}
	b := make([]byte, 0, len(s)+utf8.UTFMax)
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '\\':
			i++
			switch e := s[i]; e {
			case 'b':
				b = append(b, '\b')
			case 'f':
				b = append(b, '\f')
			case 'n':
				b = append(b, '\n')
			case 'r':
				b = append(b, '\r')
			case 't':
				b = append(b, '\t')
			case 'u':
				r := hex4(s[i+1 : i+5])
				i += 4
				if utf16.IsSurrogate(r) {
					r2 := rune(-1)
					if i+6 < len(s) && s[i+1] == '\\' && s[i+2] == 'u' {
						r2 = hex4(s[i+3 : i+7])
					}
					if d := utf16.DecodeRune(r, r2); d != utf8.RuneError {
						r = d
						i += 6
					} else {
						r = utf8.RuneError
					}
				}
				b = utf8.AppendRune(b, r)
			default: // '"', '\\', '/'
				b = append(b, e)
			}
			i++
		case c < utf8.RuneSelf:
			b = append(b, c)
			i++
		default:
			r, size := utf8.DecodeRune(s[i:])
			b = utf8.AppendRune(b, r)
			i += size
		}
	}
	return string(b)
}
