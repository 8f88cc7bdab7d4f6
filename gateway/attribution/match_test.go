package attribution

import (
	"regexp"
	"strings"
	"testing"
)

// headerRE is the header grammar as a regular expression: the oracle the
// hand-written matchHeader is held to.
var headerRE = regexp.MustCompile("^ {0,3}>[ \t]*forgetools[ \t]+agent[ \t]+`(" + valuePattern +
	")`[ \t]+on[ \t]+behalf[ \t]+of[ \t]+`(" + valuePattern + ")`,[ \t]*session[ \t]+`(" +
	valuePattern + ")`[ \t]*$")

// checkMatch fails t when matchHeader and headerRE disagree on line.
func checkMatch(t *testing.T, line string) {
	t.Helper()
	agent, owner, session, ok := matchHeader(line)
	m := headerRE.FindStringSubmatch(line)
	if ok != (m != nil) {
		t.Fatalf("matchHeader(%q) = %v, the regular expression says %v", line, ok, m != nil)
	}
	if ok && (agent != m[1] || owner != m[2] || session != m[3]) {
		t.Fatalf("matchHeader(%q) = %q, %q, %q; the regular expression says %q, %q, %q",
			line, agent, owner, session, m[1], m[2], m[3])
	}
}

func TestMatchHeaderAgreesWithTheGrammar(t *testing.T) {
	v100 := "a" + strings.Repeat("-", 99)
	for _, line := range []string{
		header,
		"   >forgetools\tagent `a`\t on  behalf\tof `b`,session `c` \t",
		"    " + header,
		"  " + header + "\r",
		"> forgetools agent `" + v100 + "` on behalf of `b`, session `c`",
		"> forgetools agent `" + v100 + "x` on behalf of `b`, session `c`",
		"> forgetools agent `-a` on behalf of `b`, session `c`",
		"> forgetools agent `a.b:c_d-e` on behalf of `B9`, session `0`",
		"> forgetools agent `` on behalf of `b`, session `c`",
		"> forgetools agent `a` on behalf of `b` , session `c`",
		"> forgetools agent `a` on behalf of `b`, session `c",
		"> forgetools agent `a` on behalf of `b`, session `c`x",
		"> forgetools agent`a` on behalf of `b`, session `c`",
		"> forgetools agent `a`on behalf of `b`, session `c`",
		"> forgetools  agent  `a`  on  behalf  of  `b`,  session  `c`  ",
		"> Forgetools agent `a` on behalf of `b`, session `c`",
		"> forgetools agent `a\xff` on behalf of `b`, session `c`",
		"> forgetools agent `a` on behalf of `b`, session `c`\n",
		">", "", "`", "> forgetools agent `",
	} {
		checkMatch(t, line)
	}
}

// FuzzMatchHeader holds the hand-written matcher to the regular expression
// on arbitrary lines, seeded with headers and their near misses so the
// fuzzer starts inside the grammar.
func FuzzMatchHeader(f *testing.F) {
	for _, s := range []string{
		header, "   >forgetools\tagent `a`\t on  behalf\tof `b`,session `c` \t",
		"> forgetools agent `a` on behalf of `b`, session `c`x", "    " + header, "",
	} {
		f.Add(s)
	}
	f.Fuzz(checkMatch)
}

// BenchmarkHeader compares the matcher with its oracle on a stamped body's
// first line and on a plain one (the two a read result's bodies are).
func BenchmarkHeader(b *testing.B) {
	for _, tc := range []struct{ name, line string }{
		{"stamped", header},
		{"plain", "Steps to reproduce: run the build twice."},
	} {
		b.Run("matcher/"+tc.name, func(b *testing.B) {
			for b.Loop() {
				matchHeader(tc.line)
			}
		})
		b.Run("regexp/"+tc.name, func(b *testing.B) {
			for b.Loop() {
				headerRE.FindStringSubmatch(tc.line)
			}
		})
	}
}
