package redact

import (
	"html"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// A view is text read another way than byte for byte, with where each of
// its bytes came from: a credential spelled in an encoding the windows do
// not hold is matched in the view, and the span it covers in the original
// text is redacted.
//
// Two views are read besides the text itself:
//   - decoded: percent-escapes (%XX, either case, whatever byte), HTML
//     character references (&#x67; &#103; and the named ones, &lowbar;)
//     and Unicode compatibility forms (NFKC: fullwidth letters, ligatures,
//     superscript digits) become the bytes they stand for;
//   - collapsed: in the decoded text, a run of characters with one and the
//     same non-alphanumeric byte between every two ("g-h-p-_-1-6", spaced
//     letters) loses the separators.
type view struct {
	text []byte
	// from and to are, for each byte of text, the span of the original
	// text it was read from; nil for the text itself.
	from, to []int
}

func (v *view) fromAt(i int) int {
	if v.from == nil {
		return i
	}
	return v.from[i]
}

func (v *view) toAt(i int) int {
	if v.to == nil {
		return i + 1
	}
	return v.to[i]
}

func (v *view) add(s string, from, to int) {
	for i := range len(s) {
		v.text = append(v.text, s[i])
		v.from = append(v.from, from)
		v.to = append(v.to, to)
	}
}

// span is the original text's span of the view's bytes [start, end).
func (v *view) span(start, end int) [2]int { return [2]int{v.fromAt(start), v.toAt(end - 1)} }

// mayEncode reports whether s has anything the decoded view would change.
func mayEncode(s string) bool {
	for i := range len(s) {
		if c := s[i]; c == '%' || c == '&' || c >= utf8.RuneSelf {
			return true
		}
	}
	return false
}

// decoded is the decoded view of s.
func decoded(s string) *view {
	v := &view{text: make([]byte, 0, len(s))}
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
			v.add(string([]byte{unhex(s[i+1])<<4 | unhex(s[i+2])}), i, i+3)
			i += 3
		case c == '&':
			if n := entityLen(s[i:]); n > 0 {
				v.add(fold(html.UnescapeString(s[i:i+n])), i, i+n)
				i += n
				continue
			}
			v.add("&", i, i+1)
			i++
		case c >= utf8.RuneSelf:
			_, n := utf8.DecodeRuneInString(s[i:])
			v.add(fold(s[i:i+n]), i, i+n)
			i += n
		default:
			v.add(s[i:i+1], i, i+1)
			i++
		}
	}
	return v
}

// fold is s in compatibility decomposition (NFKD: fullwidth letters,
// ligatures and superscripts become ASCII) without the code points read
// as nothing (ignorable), so an accent or a zero-width space put on or
// between every character of a credential does not hide it.
func fold(s string) string {
	d := norm.NFKD.String(s)
	if !strings.ContainsFunc(d, ignorable) {
		return d
	}
	return strings.Map(func(r rune) rune {
		if ignorable(r) {
			return -1
		}
		return r
	}, d)
}

func isMark(r rune) bool { return unicode.Is(unicode.Mn, r) }

// ignorable reports whether r is read as nothing: a combining mark, or a
// code point that renders as nothing (zero-width space, joiners, soft
// hyphen, word joiner, byte-order mark, the other default-ignorable
// format characters). Put between a credential's characters it hides
// them from a byte match and from no reader.
func ignorable(r rune) bool {
	return isMark(r) || unicode.Is(unicode.Cf, r) || r == 0x034F || (0x180B <= r && r <= 0x180F) ||
		(0xFE00 <= r && r <= 0xFE0F) || (0xE0100 <= r && r <= 0xE01EF)
}

// decodedViews are the decoded view of s and, while decoding changes it,
// the decoded views of that, up to three rounds in all ("%2567" is "%67"
// is "g"; "&#37;67" too), each with offsets into s. Every round is
// matched, not only the last: a round can make an escape that was not
// there ("%１７" folds to "%17"), and decoding it would hide "17".
func decodedViews(s string) []*view {
	var out []*view
	var v *view
	text := s
	for range 3 {
		d := decoded(text)
		if string(d.text) == text {
			break
		}
		if v != nil { // map d's offsets, which are into v's text, back to s
			for i := range d.text {
				d.from[i], d.to[i] = v.from[d.from[i]], v.to[d.to[i]-1]
			}
		}
		v, text = d, string(d.text)
		out = append(out, v)
	}
	return out
}

// entityLen is the length of the HTML character reference s starts with
// ("&#x67;", "&#103;", "&lowbar;"), or 0. A numeric one may lack its
// semicolon, as browsers read it ("&#103&#104"); a named one may not: a
// bare "&amp" in prose is left as it is.
func entityLen(s string) int {
	if strings.HasPrefix(s, "&#") {
		n, digit := 2, func(c byte) bool { return '0' <= c && c <= '9' }
		if n < len(s) && (s[n] == 'x' || s[n] == 'X') {
			n, digit = 3, isHex
		}
		start := n
		for n < len(s) && n < start+8 && digit(s[n]) {
			n++
		}
		if n == start {
			return 0
		}
		if n < len(s) && s[n] == ';' {
			n++
		}
		return n
	}
	end := strings.IndexByte(s[:min(len(s), 40)], ';')
	if end < 2 {
		return 0
	}
	ref := s[:end+1]
	if html.UnescapeString(ref) == ref {
		return 0
	}
	return end + 1
}

// minCore is the fewest characters a collapsed run has with the separator
// between each: fewer is ordinary punctuation ("a-b", "x, y").
const minCore = 3

// collapsed are the separator-collapsed runs of v's text, each as a view
// of the original text. A run is at least minCore characters with one
// and the same non-alphanumeric byte between every two, plus the
// alphanumeric text touching it on either side ("e42-F-2-9" reads
// "e42F29"). Runs that share touching text are one view: "7-A-e-17-8-0"
// reads "7Ae1780", as a person reads it. Views shorter than Window are
// left out.
func collapsed[T string | []byte](t T, v *view) []*view {
	var out []*view
	var kept []int // the current view's bytes, as indices into t
	flush := func() {
		if len(kept) >= Window {
			run := &view{}
			for _, j := range kept {
				run.text = append(run.text, t[j])
				run.from = append(run.from, v.fromAt(j))
				run.to = append(run.to, v.toAt(j))
			}
			out = append(out, run)
		}
		kept = kept[:0]
	}
	for i := 0; i+1 < len(t); {
		sep := t[i+1]
		if isAlnum(sep) || t[i] == sep {
			i++
			continue
		}
		end := i // the run's last separated character
		for end+2 < len(t) && t[end+1] == sep && t[end+2] != sep {
			end += 2
		}
		if (end-i)/2+1 < minCore {
			i++
			continue
		}
		first, last := i, end // with the text touching the run
		for first > 0 && isAlnum(t[first-1]) {
			first--
		}
		for last+1 < len(t) && isAlnum(t[last+1]) {
			last++
		}
		// A run that starts inside the text the previous one ended with
		// continues its view; any other starts a new one.
		if len(kept) > 0 && first > kept[len(kept)-1] {
			flush()
		}
		add := func(j int) {
			if len(kept) == 0 || j > kept[len(kept)-1] {
				kept = append(kept, j)
			}
		}
		for j := first; j < i; j++ {
			add(j)
		}
		for j := i; j <= end; j += 2 {
			add(j)
		}
		for j := end + 1; j <= last; j++ {
			add(j)
		}
		i = end + 1
	}
	flush()
	return out
}

func isAlnum(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c >= utf8.RuneSelf
}

func isHex(c byte) bool { return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' }

func unhex(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c <= 'F':
		return c - 'A' + 10
	}
	return c - 'a' + 10
}
