package vocab

import (
	"regexp/syntax"
	"strconv"
	"strings"
	"sync"
)

// charsets caches PatternWords by pattern: a table has a handful of
// patterns and every refusal of one would otherwise parse it again.
var charsets sync.Map // pattern -> string

// PatternWords is what a string pattern demands, in the model's words. A
// whole-string character set is said in words, "^[\w./-]+$" as "must be
// non-empty and contain only letters, digits, '-', '.', '/' and '_'": a
// model reads that more reliably than a character class, and a class is
// all most patterns on identifiers are. Any other pattern is quoted.
func PatternWords(pattern string) string {
	if w, ok := charsets.Load(pattern); ok {
		return w.(string)
	}
	w := "must match the pattern " + pattern
	if chars, nonEmpty := charsetWords(pattern); chars != "" && nonEmpty {
		w = "must be non-empty and contain only " + chars
	} else if chars != "" {
		w = "may contain only " + chars
	}
	charsets.Store(pattern, w)
	return w
}

// charsetWords lists the characters of a ^[...]+$ or ^[...]*$ pattern, and
// whether it demands at least one; "" for any other pattern.
func charsetWords(pattern string) (string, bool) {
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return "", false
	}
	re = re.Simplify()
	// ^[...]+$ or ^[...]*$: begin, one repeated class, end.
	if re.Op != syntax.OpConcat || len(re.Sub) != 3 ||
		re.Sub[0].Op != syntax.OpBeginText || re.Sub[2].Op != syntax.OpEndText {
		return "", false
	}
	rep := re.Sub[1]
	if (rep.Op != syntax.OpPlus && rep.Op != syntax.OpStar) || rep.Sub[0].Op != syntax.OpCharClass {
		return "", false
	}
	ranges := rep.Sub[0].Rune // sorted [lo, hi] pairs
	has := func(lo, hi rune) bool {
		for i := 0; i < len(ranges); i += 2 {
			if ranges[i] <= lo && hi <= ranges[i+1] {
				return true
			}
		}
		return false
	}
	letters, digits := has('A', 'Z') && has('a', 'z'), has('0', '9')
	var parts []string
	if letters {
		parts = append(parts, "letters")
	}
	if digits {
		parts = append(parts, "digits")
	}
	for i := 0; i < len(ranges); i += 2 {
		for r := ranges[i]; r <= ranges[i+1]; r++ {
			switch {
			case digits && r >= '0' && r <= '9',
				letters && (r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z'):
				continue
			case r > '~' || r < '!' || ranges[i+1]-ranges[i] > 16:
				// Beyond printable ASCII, or a range too wide to list:
				// words would mislead, so the pattern speaks for itself.
				return "", false
			}
			parts = append(parts, strconv.QuoteRune(r))
		}
	}
	nonEmpty := rep.Op == syntax.OpPlus
	switch len(parts) {
	case 0:
		return "", false
	case 1:
		return parts[0], nonEmpty
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1], nonEmpty
}
