package render

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// hidden is every character that changes how text reads without being seen:
// format characters (zero-width spaces and joiners, bidirectional embeddings,
// overrides and isolates, the byte order mark, the soft hyphen, the tag
// characters used for "ASCII smuggling"), control characters, line and
// paragraph separators that would start a line the renderer did not write,
// the default-ignorable fillers, variation selectors and noncharacters. The
// sets are the Unicode property tables, not a hand list, so they track the
// Unicode version Go ships.
var hidden = []*unicode.RangeTable{
	unicode.Cf,
	unicode.Cc,
	unicode.Zl,
	unicode.Zp,
	unicode.Other_Default_Ignorable_Code_Point,
	unicode.Variation_Selector,
	unicode.Noncharacter_Code_Point,
}

const (
	zwj  = '\u200d' // joins emoji into one glyph (family, profession, flag sequences)
	vs15 = '\ufe0e' // text presentation of the preceding symbol
	vs16 = '\ufe0f' // emoji presentation of the preceding symbol
)

// isHidden reports whether r must be made visible in untrusted text, given
// its neighbours. Newlines and tabs are layout, not hiding. Two joiners are
// ordinary emoji content and survive: the presentation selectors U+FE0E/F
// after a symbol or keycap base, and ZWJ between two symbols (the family and
// profession emoji). Every other use of them is shown.
func isHidden(prev, r, next rune) bool {
	switch r {
	case '\n', '\t':
		return false
	case vs15, vs16:
		return !(unicode.IsSymbol(prev) || unicode.IsDigit(prev) || prev == '#' || prev == '*')
	case zwj:
		return !((unicode.IsSymbol(prev) || prev == vs16) && unicode.IsSymbol(next))
	}
	return unicode.In(r, hidden...)
}

// appendMarker appends how a hidden character reads: its code point in
// angle brackets, "<U+202E>". Ordinary text such as "Promise<string>" or
// "<n>" never takes this shape because the renderer only ever writes it in
// place of a hidden character.
func appendMarker(dst []byte, r rune) []byte {
	hex := strconv.FormatInt(int64(r), 16)
	dst = append(dst, "<U+"...)
	for range 4 - len(hex) {
		dst = append(dst, '0')
	}
	dst = append(dst, strings.ToUpper(hex)...)
	return append(dst, '>')
}

// markerLen is the length of r's marker: "<U+" and ">" around at least
// four hex digits.
func markerLen(r rune) int {
	return 4 + max(4, len(strconv.FormatInt(int64(r), 16)))
}

// Visible returns untrusted text with every hidden character replaced by its
// marker (U+202E becomes "<U+202E>"), CRLF and lone CR normalised to LF, and
// invalid UTF-8 replaced by U+FFFD. Everything else is kept byte for byte.
func Visible(s string) string {
	out, _ := appendVisible(nil, s, -1)
	return string(out)
}

// appendVisible appends Visible(s) to dst, limited to a budget of output
// runes (negative = unlimited). It returns the extended slice and how many
// input runes did not fit; a marker is never split.
func appendVisible(dst []byte, s string, budget int) ([]byte, int) {
	used := 0
	prev := rune(0)
	for i := 0; i < len(s); {
		if budget >= 0 && used == budget {
			return dst, utf8.RuneCountInString(s[i:])
		}
		// Printable ASCII, tabs and line feeds are the bulk of any text and
		// never hidden: copy them a byte at a time.
		if c := s[i]; c >= ' ' && c < 0x7f || c == '\n' || c == '\t' {
			dst = append(dst, c)
			used++
			prev = rune(c)
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == '\r' {
			// CRLF and a lone CR both end a line; a bare CR would let text
			// overwrite what came before it on a terminal.
			r = '\n'
			if i+size < len(s) && s[i+size] == '\n' {
				size++
			}
		}
		next, _ := utf8.DecodeRuneInString(s[i+size:])
		width := 1
		hidden := isHidden(prev, r, next)
		if hidden {
			width = markerLen(r)
		}
		if budget >= 0 && used+width > budget {
			return dst, utf8.RuneCountInString(s[i:])
		}
		if hidden {
			dst = appendMarker(dst, r)
		} else {
			dst = utf8.AppendRune(dst, r)
		}
		used += width
		prev = r
		i += size
	}
	return dst, 0
}
