package render

import (
	"fmt"
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

// marker is how a hidden character reads: its code point in angle brackets.
// Ordinary text such as "Promise<string>" or "<n>" never takes this shape
// because the renderer only ever writes it in place of a hidden character.
func marker(r rune) string { return fmt.Sprintf("<U+%04X>", r) }

// Visible returns untrusted text with every hidden character replaced by its
// marker (U+202E becomes "<U+202E>"), CRLF and lone CR normalised to LF, and
// invalid UTF-8 replaced by U+FFFD. Everything else is kept byte for byte.
func Visible(s string) string {
	out, _ := visiblePrefix(s, -1)
	return out
}

// visiblePrefix is Visible limited to a budget of output runes (negative =
// unlimited). It returns the visible text and how many input runes did not
// fit; a marker is never split.
func visiblePrefix(s string, budget int) (string, int) {
	var b strings.Builder
	b.Grow(min(len(s), max(budget, 0)*4+16))
	used := 0
	prev := rune(0)
	for i := 0; i < len(s); {
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
		piece := string(r)
		width := 1
		if isHidden(prev, r, next) {
			piece = marker(r)
			width = len(piece)
		}
		if budget >= 0 && used+width > budget {
			return b.String(), utf8.RuneCountInString(s[i:])
		}
		b.WriteString(piece)
		used += width
		prev = r
		i += size
	}
	return b.String(), 0
}
