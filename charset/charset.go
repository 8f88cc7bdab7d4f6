package charset

import (
	"fmt"
	"regexp/syntax"
	"strconv"
	"strings"
	"sync"
)

// charsets caches PatternWords by pattern: a table has a handful of
// patterns and every refusal of one would otherwise parse it again.
var charsets sync.Map // pattern -> string

// PatternWords is what a string pattern demands, in the model's words. A
// whole-string character set is said in words, "^[\w./-]{1,200}$" as
// "must be 1 to 200 characters, only letters, digits, '-', '.', '/' and
// '_'": a model reads that more reliably than a character class, and a
// class is all most patterns on identifiers are. Any other pattern is
// quoted.
func PatternWords(pattern string) string {
	if w, ok := charsets.Load(pattern); ok {
		return w.(string)
	}
	w := "must match the pattern " + pattern
	if chars, lo, hi := charsetWords(pattern); chars != "" {
		switch {
		case lo == 0 && hi < 0:
			w = "may contain only " + chars
		case lo == 1 && hi < 0:
			w = "must be non-empty and contain only " + chars
		case hi < 0:
			w = fmt.Sprintf("must be at least %d characters, only %s", lo, chars)
		case lo == 0:
			w = fmt.Sprintf("may be at most %d characters, only %s", hi, chars)
		default:
			w = fmt.Sprintf("must be %d to %d characters, only %s", lo, hi, chars)
		}
	}
	charsets.Store(pattern, w)
	return w
}

// charsetWords lists the characters of a ^[...]+$, ^[...]*$ or
// ^[...]{lo,hi}$ pattern, with how many it takes (hi < 0: no bound); ""
// for any other pattern.
func charsetWords(pattern string) (chars string, lo, hi int) {
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return "", 0, 0
	}
	// Not simplified: that would spell {1,200} as two hundred nested
	// repeats.
	// ^[...]+$ or ^[...]*$: begin, one repeated class, end.
	if re.Op != syntax.OpConcat || len(re.Sub) != 3 ||
		re.Sub[0].Op != syntax.OpBeginText || re.Sub[2].Op != syntax.OpEndText {
		return "", 0, 0
	}
	rep := re.Sub[1]
	switch rep.Op {
	case syntax.OpPlus:
		lo, hi = 1, -1
	case syntax.OpStar:
		lo, hi = 0, -1
	case syntax.OpRepeat:
		lo, hi = rep.Min, rep.Max
	default:
		return "", 0, 0
	}
	if rep.Sub[0].Op != syntax.OpCharClass {
		return "", 0, 0
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
		first, last := ranges[i], ranges[i+1]
		if first < '!' || last > '~' {
			// Beyond printable ASCII: words would mislead, so the
			// pattern speaks for itself.
			return "", 0, 0
		}
		var run []rune // what letters and digits do not already say
		for r := first; r <= last; r++ {
			if !(digits && r >= '0' && r <= '9') && !(letters && (r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z')) {
				run = append(run, r)
			}
		}
		switch {
		case len(run) > 3 && int(run[len(run)-1]-run[0]) == len(run)-1:
			parts = append(parts, strconv.QuoteRune(run[0])+" to "+strconv.QuoteRune(run[len(run)-1]))
		default:
			for _, r := range run {
				parts = append(parts, strconv.QuoteRune(r))
			}
		}
	}
	switch len(parts) {
	case 0:
		return "", 0, 0
	case 1:
		return parts[0], lo, hi
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1], lo, hi
}
