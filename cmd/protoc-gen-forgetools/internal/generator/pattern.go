package generator

import (
	"fmt"
	"regexp/syntax"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Patterns in a JSON Schema are read by two regex dialects: RE2 (Go
// clients, santhosh-tekuri/jsonschema, and the runtime itself, since
// protovalidate matches with Go's regexp) and ECMA-262 with the u flag
// (ajv, JavaScript MCP clients, many model providers). portable rewrites
// an RE2 pattern into the syntax both accept, meaning the same under both:
//
//   - kept as written: literals, alternation, groups, greedy and lazy
//     quantifiers, ^ and $ (RE2 reads them as \A and \z unless (?m)),
//     \d \w \b and their negations (ASCII in both), \t \n \v \f \r, \xHH,
//     \p{…} of a Unicode general category (Lu, Z, …) and \p{Any};
//   - rewritten: \s and \S (ASCII in RE2, Unicode in ECMA) to explicit
//     classes, . to [^\n] (ECMA's . also stops at \r, U+2028, U+2029),
//     \A \z to ^ $, \x{…} \a and octal escapes to \xHH or the character,
//     \Q…\E and escaped punctuation to literals, a script (\p{Greek}) to
//     its ranges, (?i) to explicit case classes, (?s) to [\s\S], (?U) to
//     swapped greediness, named groups to plain ones, a literal { } ] to
//     an escaped one (ECMA's u flag refuses them bare);
//   - refused, with the reason: ^ or $ under (?m) (ECMA has no inline m
//     flag and RE2 no lookbehind to emulate it), a quantified assertion.
//
// The result is checked: it must parse under RE2 to the same regexp as
// the input.
func portable(pattern string) (string, error) {
	orig, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return "", fmt.Errorf("pattern %q does not compile: %v", pattern, err)
	}
	t := &translator{src: pattern}
	if err := t.run(); err != nil {
		return "", fmt.Errorf("pattern %q has no form that RE2 and ECMA-262 read alike: %v", pattern, err)
	}
	out := t.out.String()
	got, err := syntax.Parse(out, syntax.Perl)
	if err != nil || shape(got) != shape(orig) {
		return "", fmt.Errorf("pattern %q: its ECMA-262 form %q does not mean the same under RE2 (a translation bug; please report it)", pattern, out)
	}
	return out, nil
}

// flags are the RE2 flags that change how a token translates.
type flags struct{ fold, multiline, dotNL, ungreedy bool }

type translator struct {
	src   string
	pos   int
	out   strings.Builder
	flags flags
	stack []flags
	// assertion: the last thing written is an anchor or word boundary,
	// which ECMA-262 (u) does not let a quantifier follow.
	assertion bool
}

func (t *translator) more() bool { return t.pos < len(t.src) }

func (t *translator) peek() rune {
	r, _ := utf8.DecodeRuneInString(t.src[t.pos:])
	return r
}

func (t *translator) next() rune {
	r, n := utf8.DecodeRuneInString(t.src[t.pos:])
	t.pos += n
	return r
}

func (t *translator) run() error {
	for t.more() {
		start := t.pos
		c := t.next()
		var err error
		wasAssertion := t.assertion
		t.assertion = false
		switch c {
		case '(':
			err = t.group()
		case ')':
			if n := len(t.stack); n > 0 {
				t.flags, t.stack = t.stack[n-1], t.stack[:n-1]
			}
			t.out.WriteByte(')')
		case '|':
			t.out.WriteByte('|')
		case '*', '+', '?':
			err = t.quantifier(string(c), wasAssertion)
		case '{':
			if n, ok := repeatLen(t.src[start:]); ok {
				t.pos = start + n
				err = t.quantifier(t.src[start:t.pos], wasAssertion)
			} else {
				t.literal('{')
			}
		case '[':
			err = t.class(start)
		case '.':
			if t.flags.dotNL {
				t.out.WriteString(`[\s\S]`)
			} else {
				t.out.WriteString(`[^\n]`)
			}
		case '^', '$':
			if t.flags.multiline {
				return fmt.Errorf("%c under (?m) matches at line breaks, which ECMA-262 cannot say without a flag", c)
			}
			t.out.WriteRune(c)
			t.assertion = true
		case '\\':
			err = t.escape()
		default:
			t.literal(c)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// group handles what follows "(": a flag group, a named group or a plain
// one.
func (t *translator) group() error {
	if !strings.HasPrefix(t.src[t.pos:], "?") {
		t.stack = append(t.stack, t.flags)
		t.out.WriteByte('(')
		return nil
	}
	t.pos++ // "?"
	rest := t.src[t.pos:]
	for _, prefix := range []string{"P<", "<"} {
		if strings.HasPrefix(rest, prefix) {
			end := strings.IndexByte(rest, '>')
			t.pos += end + 1
			t.stack = append(t.stack, t.flags)
			t.out.WriteByte('(') // the name does not change what matches
			return nil
		}
	}
	f, on := t.flags, true
	for t.more() {
		switch c := t.next(); c {
		case 'i':
			f.fold = on
		case 'm':
			f.multiline = on
		case 's':
			f.dotNL = on
		case 'U':
			f.ungreedy = on
		case '-':
			on = false
		case ':':
			t.stack = append(t.stack, t.flags)
			t.flags = f
			t.out.WriteString("(?:")
			return nil
		case ')':
			t.flags = f // to the end of the enclosing group
			return nil
		default:
			return fmt.Errorf("unknown flag %q", c)
		}
	}
	return fmt.Errorf("unterminated flag group")
}

func (t *translator) quantifier(q string, afterAssertion bool) error {
	if afterAssertion {
		return fmt.Errorf("a quantifier on an anchor or word boundary (%s)", q)
	}
	lazy := strings.HasPrefix(t.src[t.pos:], "?")
	if lazy {
		t.pos++
	}
	t.out.WriteString(q)
	if lazy != t.flags.ungreedy {
		t.out.WriteByte('?')
	}
	return nil
}

// repeatLen is the length of a {n}, {n,} or {n,m} repetition at the start
// of s, as RE2 reads one; ok is false when the brace is a literal.
func repeatLen(s string) (int, bool) {
	end := strings.IndexByte(s, '}')
	if end < 0 {
		return 0, false
	}
	lo, hi, _ := strings.Cut(s[1:end], ",")
	if lo == "" || strings.Trim(lo, "0123456789") != "" || strings.Trim(hi, "0123456789") != "" {
		return 0, false
	}
	return end + 1, true
}

// escape handles what follows a backslash outside a class.
func (t *translator) escape() error {
	if !t.more() {
		return fmt.Errorf("trailing backslash")
	}
	start := t.pos - 1
	c := t.next()
	switch c {
	case 'A':
		t.out.WriteByte('^')
		t.assertion = true
	case 'z':
		t.out.WriteByte('$')
		t.assertion = true
	case 'b', 'B':
		t.out.WriteString(`\` + string(c))
		t.assertion = true
	case 'd', 'D', 'w', 'W':
		if t.flags.fold && (c == 'w' || c == 'W') { // RE2 folds \w to ſ and K
			return t.set(t.src[start:t.pos])
		}
		t.out.WriteString(`\` + string(c))
	case 's':
		t.out.WriteString(`[\t\n\f\r ]`)
	case 'S':
		t.out.WriteString(`[^\t\n\f\r ]`)
	case 'p', 'P':
		name, neg, err := t.property(c == 'P')
		if err != nil {
			return err
		}
		if t.flags.fold || !portableProperty(name) {
			return t.set(t.src[start:t.pos])
		}
		t.out.WriteString(`\` + map[bool]string{false: "p", true: "P"}[neg] + "{" + name + "}")
	case 'Q':
		end := strings.Index(t.src[t.pos:], `\E`)
		text := t.src[t.pos:]
		if end >= 0 {
			text, t.pos = text[:end], t.pos+end+2
		} else {
			t.pos = len(t.src)
		}
		for _, r := range text {
			t.literal(r)
		}
	default:
		r, err := t.charEscape(c)
		if err != nil {
			return err
		}
		t.literal(r)
	}
	return nil
}

// charEscape reads the character an escape stands for (after the
// backslash and c): \a \f \t \n \r \v, octal, \xHH, \x{…}, punctuation.
func (t *translator) charEscape(c rune) (rune, error) {
	switch c {
	case 'a':
		return 7, nil
	case 'f':
		return '\f', nil
	case 't':
		return '\t', nil
	case 'n':
		return '\n', nil
	case 'r':
		return '\r', nil
	case 'v':
		return '\v', nil
	case 'x':
		rest := t.src[t.pos:]
		digits := rest
		if strings.HasPrefix(rest, "{") {
			end := strings.IndexByte(rest, '}')
			digits, t.pos = rest[1:end], t.pos+end+1
		} else {
			digits, t.pos = rest[:2], t.pos+2
		}
		v, err := strconv.ParseUint(digits, 16, 32)
		return rune(v), err
	}
	if c >= '0' && c <= '7' {
		digits := string(c)
		for len(digits) < 3 && t.more() && t.peek() >= '0' && t.peek() <= '7' {
			digits += string(t.next())
		}
		v, err := strconv.ParseUint(digits, 8, 32)
		return rune(v), err
	}
	if c < utf8.RuneSelf && !isAlnum(c) {
		return c, nil // escaped punctuation is the character itself
	}
	return 0, fmt.Errorf(`unknown escape \%c`, c)
}

func isAlnum(c rune) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// property reads the name of \p or \P (one letter, or braces with an
// optional ^ that negates).
func (t *translator) property(neg bool) (string, bool, error) {
	if !t.more() {
		return "", false, fmt.Errorf(`\p without a name`)
	}
	if c := t.next(); c != '{' {
		return string(c), neg, nil
	}
	end := strings.IndexByte(t.src[t.pos:], '}')
	name := t.src[t.pos : t.pos+end]
	t.pos += end + 1
	if strings.HasPrefix(name, "^") {
		name, neg = name[1:], !neg
	}
	return name, neg, nil
}

// portableProperty: a Unicode general category, which ECMA-262 (u) names
// like RE2 does; a script is not (ECMA spells it \p{Script=Greek}).
func portableProperty(name string) bool {
	_, category := unicode.Categories[name]
	return category || name == "Any"
}

// literal writes one character, escaped where either dialect would read
// it as syntax; under (?i) as the class of its case variants.
func (t *translator) literal(r rune) {
	if t.flags.fold {
		if orbit := foldOrbit(r); len(orbit) > 1 {
			t.out.WriteByte('[')
			for _, o := range orbit {
				t.out.WriteString(classChar(o))
			}
			t.out.WriteByte(']')
			return
		}
	}
	if strings.ContainsRune(`\.+*?()|[]{}^$`, r) {
		t.out.WriteString(`\` + string(r))
		return
	}
	t.out.WriteString(plainChar(r))
}

// foldOrbit is r with every character RE2's (?i) treats as equal to it,
// in order.
func foldOrbit(r rune) []rune {
	orbit := []rune{r}
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		orbit = append(orbit, f)
	}
	slices.Sort(orbit)
	return orbit
}

// plainChar spells a character that is not syntax: itself when visible,
// else an escape both dialects read (\t …, \xHH). Above U+00FF there is no
// shared escape (RE2 has \x{…}, ECMA \u{…}), so the character itself.
func plainChar(r rune) string {
	switch r {
	case '\t':
		return `\t`
	case '\n':
		return `\n`
	case '\v':
		return `\v`
	case '\f':
		return `\f`
	case '\r':
		return `\r`
	}
	// A backtick is escaped too, so the schema stays a raw string literal
	// in the generated Go.
	if r <= 0xFF && (r != ' ' && !unicode.IsGraphic(r) || unicode.IsSpace(r) && r != ' ' || r == '`') {
		return fmt.Sprintf(`\x%02x`, r)
	}
	return string(r)
}

// classChar spells a character inside a class.
func classChar(r rune) string {
	if strings.ContainsRune(`\]-[^`, r) {
		return `\` + string(r)
	}
	return plainChar(r)
}

// class translates a bracket expression starting at src[start] ("[").
// Plain items are kept as written; one whose meaning differs (\S, a
// negated POSIX class, anything under (?i)) makes the whole class be
// spelled out as its ranges.
func (t *translator) class(start int) error {
	end := classEnd(t.src, start)
	if end < 0 {
		return fmt.Errorf("unterminated class")
	}
	body := t.src[start+1 : end]
	t.pos = end + 1
	var b strings.Builder
	b.WriteByte('[')
	if strings.HasPrefix(body, "^") {
		b.WriteByte('^')
		body = body[1:]
	}
	if t.flags.fold {
		return t.set(t.src[start:t.pos])
	}
	for i := 0; i < len(body); {
		r, n := utf8.DecodeRuneInString(body[i:])
		switch {
		case strings.HasPrefix(body[i:], "[:"):
			return t.set(t.src[start:t.pos]) // POSIX classes: spelled out
		case r == '\\':
			item, lit, size, ok := classEscape(body[i:])
			if !ok {
				return t.set(t.src[start:t.pos])
			}
			if lit >= 0 {
				item = classChar(lit)
			}
			b.WriteString(item)
			i += size
		case r == '-' && (i == 0 || i+n == len(body)):
			b.WriteByte('-') // first or last: a literal in both dialects
			i += n
		default:
			b.WriteString(classChar(r))
			i += n
		}
		// A range: the '-' between two characters stays a range.
		if i < len(body) && body[i] == '-' && i+1 < len(body) {
			b.WriteByte('-')
			i++
		}
	}
	b.WriteByte(']')
	t.out.WriteString(b.String())
	return nil
}

// classEnd finds the "]" closing the class opened at src[start], as RE2
// reads it (a "]" first in the class is a literal; escapes and POSIX
// names are skipped).
func classEnd(src string, start int) int {
	i := start + 1
	if strings.HasPrefix(src[i:], "^") {
		i++
	}
	if strings.HasPrefix(src[i:], "]") {
		i++
	}
	for i < len(src) {
		switch {
		case src[i] == '\\':
			i += 2
		case strings.HasPrefix(src[i:], "[:"):
			if end := strings.Index(src[i+2:], ":]"); end >= 0 {
				i += end + 4
			} else {
				i++
			}
		case src[i] == ']':
			return i
		default:
			i++
		}
	}
	return -1
}

// classEscape translates one escape inside a class: the ECMA-262 spelling
// of an item (item), or the character it stands for (lit >= 0). ok is
// false when the item has no in-class spelling (\S, \P{Greek}).
func classEscape(s string) (item string, lit rune, size int, ok bool) {
	t := &translator{src: s, pos: 1}
	c := t.next()
	switch c {
	case 'd', 'D', 'w', 'W':
		return `\` + string(c), -1, t.pos, true
	case 's':
		return `\t\n\f\r `, -1, t.pos, true
	case 'p', 'P':
		name, neg, err := t.property(c == 'P')
		if err != nil || neg && !portableProperty(name) {
			return "", -1, 0, false
		}
		if portableProperty(name) {
			return `\` + map[bool]string{false: "p", true: "P"}[neg] + "{" + name + "}", -1, t.pos, true
		}
		script, ok := unicode.Scripts[name]
		if !ok { // another spelling RE2 accepts: spelled out with the class
			return "", -1, 0, false
		}
		var b strings.Builder
		writeRanges(&b, tableRanges(script))
		return b.String(), -1, t.pos, true
	case 'S', 'Q', 'b', 'B', 'A', 'z':
		return "", -1, 0, false
	}
	r, err := t.charEscape(c)
	if err != nil {
		return "", -1, 0, false
	}
	return "", r, t.pos, true
}

// set writes the character set an atom (a class, a property, \w) stands
// for under the current flags, as RE2 computes it, spelled out as ranges.
func (t *translator) set(atom string) error {
	prefix := ""
	if t.flags.fold {
		prefix = "(?i)"
	}
	re, err := syntax.Parse(prefix+atom, syntax.Perl)
	if err != nil {
		return err
	}
	var ranges []rune
	switch re.Op {
	case syntax.OpCharClass:
		ranges = re.Rune
	case syntax.OpLiteral:
		for _, r := range re.Rune {
			for _, o := range orbitIf(r, re.Flags&syntax.FoldCase != 0) {
				ranges = append(ranges, o, o)
			}
		}
	case syntax.OpAnyChar:
		ranges = []rune{0, unicode.MaxRune}
	default:
		return fmt.Errorf("%s is not a character set", atom)
	}
	var b strings.Builder
	writeSet(&b, normalizeRanges(ranges))
	t.out.WriteString(b.String())
	return nil
}

func orbitIf(r rune, fold bool) []rune {
	if fold {
		return foldOrbit(r)
	}
	return []rune{r}
}

// writeSet spells sorted, merged ranges as a class: negated when that is
// shorter (a set reaching U+10FFFF is written as what it leaves out).
func writeSet(b *strings.Builder, ranges []rune) {
	if n := len(ranges); n > 0 && ranges[n-1] == unicode.MaxRune {
		b.WriteString("[^")
		writeRanges(b, complement(ranges))
	} else {
		b.WriteByte('[')
		writeRanges(b, ranges)
	}
	b.WriteByte(']')
}

// writeRanges spells ranges (lo, hi pairs) inside a class, leaving out the
// surrogate block, which no UTF-8 text holds.
func writeRanges(b *strings.Builder, ranges []rune) {
	for i := 0; i+1 < len(ranges); i += 2 {
		lo, hi := ranges[i], ranges[i+1]
		for _, part := range [][2]rune{{lo, min(hi, 0xD7FF)}, {max(lo, 0xE000), hi}} {
			switch {
			case part[0] > part[1]:
			case part[0] == part[1]:
				b.WriteString(classChar(part[0]))
			default:
				b.WriteString(classChar(part[0]) + "-" + classChar(part[1]))
			}
		}
	}
}

// tableRanges flattens a unicode.RangeTable into lo, hi pairs.
func tableRanges(t *unicode.RangeTable) []rune {
	var out []rune
	for _, r := range t.R16 {
		out = appendStride(out, rune(r.Lo), rune(r.Hi), rune(r.Stride))
	}
	for _, r := range t.R32 {
		out = appendStride(out, rune(r.Lo), rune(r.Hi), rune(r.Stride))
	}
	return normalizeRanges(out)
}

func appendStride(out []rune, lo, hi, stride rune) []rune {
	if stride == 1 {
		return append(out, lo, hi)
	}
	for r := lo; r <= hi; r += stride {
		out = append(out, r, r)
	}
	return out
}

// normalizeRanges sorts lo, hi pairs and merges the ones that touch.
func normalizeRanges(in []rune) []rune {
	pairs := make([][2]rune, 0, len(in)/2)
	for i := 0; i+1 < len(in); i += 2 {
		pairs = append(pairs, [2]rune{in[i], in[i+1]})
	}
	slices.SortFunc(pairs, func(a, b [2]rune) int { return int(a[0] - b[0]) })
	var out []rune
	for _, p := range pairs {
		if n := len(out); n > 0 && p[0] <= out[n-1]+1 {
			out[n-1] = max(out[n-1], p[1])
			continue
		}
		out = append(out, p[0], p[1])
	}
	return out
}

// complement is every code point the ranges leave out.
func complement(ranges []rune) []rune {
	var out []rune
	next := rune(0)
	for i := 0; i+1 < len(ranges); i += 2 {
		if ranges[i] > next {
			out = append(out, next, ranges[i]-1)
		}
		next = ranges[i+1] + 1
	}
	if next <= unicode.MaxRune {
		out = append(out, next, unicode.MaxRune)
	}
	return out
}

// shape is a parsed regexp in a canonical form for comparing two
// spellings: every character position as its set of code points (no
// surrogates), groups without names.
func shape(re *syntax.Regexp) string {
	var b strings.Builder
	var walk func(re *syntax.Regexp)
	sets := func(ranges []rune) {
		b.WriteByte('[')
		writeRanges(&b, normalizeRanges(ranges))
		b.WriteByte(']')
	}
	walk = func(re *syntax.Regexp) {
		switch re.Op {
		case syntax.OpLiteral:
			for _, r := range re.Rune {
				var ranges []rune
				for _, o := range orbitIf(r, re.Flags&syntax.FoldCase != 0) {
					ranges = append(ranges, o, o)
				}
				sets(ranges)
			}
		case syntax.OpCharClass:
			sets(re.Rune)
		case syntax.OpAnyCharNotNL:
			sets([]rune{0, '\n' - 1, '\n' + 1, unicode.MaxRune})
		case syntax.OpAnyChar:
			sets([]rune{0, unicode.MaxRune})
		case syntax.OpCapture:
			b.WriteByte('(')
			walk(re.Sub[0])
			b.WriteByte(')')
		case syntax.OpConcat:
			for _, s := range re.Sub {
				walk(s)
			}
		case syntax.OpAlternate:
			b.WriteString("(?:")
			for i, s := range re.Sub {
				if i > 0 {
					b.WriteByte('|')
				}
				walk(s)
			}
			b.WriteByte(')')
		case syntax.OpStar, syntax.OpPlus, syntax.OpQuest, syntax.OpRepeat:
			b.WriteString("(?:")
			walk(re.Sub[0])
			b.WriteByte(')')
			switch re.Op {
			case syntax.OpStar:
				b.WriteByte('*')
			case syntax.OpPlus:
				b.WriteByte('+')
			case syntax.OpQuest:
				b.WriteByte('?')
			default:
				fmt.Fprintf(&b, "{%d,%d}", re.Min, re.Max)
			}
			if re.Flags&syntax.NonGreedy != 0 {
				b.WriteByte('?')
			}
		default:
			b.WriteString(re.Op.String())
		}
	}
	walk(re.Simplify())
	return b.String()
}
