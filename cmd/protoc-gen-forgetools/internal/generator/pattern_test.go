package generator

import (
	"encoding/json"
	"os/exec"
	"regexp"
	"strings"
	"testing"
)

// patternCases: an RE2 pattern as a proto would write it, and its portable
// form (or the reason it has none).
var patternCases = []struct{ in, out, refused string }{
	{in: `^[a-z][a-z0-9-]*$`, out: `^[a-z][a-z0-9-]*$`},
	{in: `[-a]|[a\-b]`, out: `[-a]|[a\-b]`},
	{in: `[^\t-\r\x85\p{Z}]`, out: `[^\t-\r\x85\p{Z}]`}, // the project's non-blank rule, as written
	{in: `\S`, out: `[^\t\n\f\r ]`},
	{in: `\s+`, out: `[\t\n\f\r ]+`},
	{in: `[\s,]`, out: `[\t\n\f\r ,]`},
	{in: `[^\S\n]`, out: `[\t\f-\r ]`},
	{in: `\Aabc\z`, out: `^abc$`},
	{in: `a.c`, out: `a[^\n]c`},
	{in: `(?s)a.c`, out: `a[\s\S]c`},
	{in: `(?i)ok`, out: "[Oo][Kk\u212a]"},
	{in: `(?i:x)y`, out: `(?:[Xx])y`},
	{in: `\p{Lu}\pN\PL`, out: `\p{Lu}\p{N}\P{L}`},
	{in: `\p{Greek}`, out: "[\u0370-\u0373\u0375-\u0377\u037a-\u037d\u037f\u0384\u0386\u0388-\u038a\u038c\u038e-\u03a1\u03a3-\u03e1\u03f0-\u03ff\u1d26-\u1d2a\u1d5d-\u1d61\u1d66-\u1d6a\u1dbf\u1f00-\u1f15\u1f18-\u1f1d\u1f20-\u1f45\u1f48-\u1f4d\u1f50-\u1f57\u1f59\u1f5b\u1f5d\u1f5f-\u1f7d\u1f80-\u1fb4\u1fb6-\u1fc4\u1fc6-\u1fd3\u1fd6-\u1fdb\u1fdd-\u1fef\u1ff2-\u1ff4\u1ff6-\u1ffe\u2126\uab65\U00010140-\U0001018e\U000101a0\U0001d200-\U0001d245]"},
	{in: `\x{1F600}|\x41\101\a`, out: "\U0001F600|AA\\x07"},
	{in: `\Q1+1=2\E`, out: `1\+1=2`},
	{in: `a{2,3}b{2}c{,4}`, out: `a{2,3}b{2}c\{,4\}`},
	{in: `(?U)a+b+?`, out: `a+?b+`},
	{in: `(?P<year>\d{4})-(?<m>\d\d)`, out: `(\d{4})-(\d\d)`},
	{in: `\-\#\]x`, out: `-#\]x`},
	{in: `[]a]`, out: `[\]a]`},
	{in: `[[:alpha:]_]`, out: `[A-Z_a-z]`},
	{in: "\u00a0", out: `\xa0`},
	{in: `(?m)^a`, refused: `^ under (?m) matches at line breaks`},
	{in: `^*a`, refused: `a quantifier on an anchor`},
	{in: `a(`, refused: `does not compile`},
}

func TestPortablePatterns(t *testing.T) {
	for _, tc := range patternCases {
		got, err := portable(tc.in)
		switch {
		case tc.refused != "":
			if err == nil || !strings.Contains(err.Error(), tc.refused) {
				t.Errorf("portable(%q) = %q, %v; want a refusal containing %q", tc.in, got, err, tc.refused)
			}
		case err != nil:
			t.Errorf("portable(%q): %v", tc.in, err)
		case got != tc.out:
			t.Errorf("portable(%q) = %q, want %q", tc.in, got, tc.out)
		}
	}
}

// probes are strings on which RE2 and ECMA-262 classes tend to differ.
var probes = []string{
	"", "a", "A", "ok", "OK", "o\u212a", "abc", "aXc", "a\nc", "a\rc", "a\u2028c", "x", "X", "xy", "Xy",
	" ", "\t", "\v", "\f", "\u0085", "\u00a0", "\u1680", "\u2003", "\u2028", "\u3000", "\ufeff", "\u200b",
	"{", "}", "]", "1+1=2", "aa", "aab", "aabb", "cc{,4}", "-#]x", "_", "é", "Ω", "ω", "α", "\U0001F600", "AA\x07",
	"Ab1", "2024-05", "ab-c", "Σ", "\U00010140", "1+1=2x",
}

// The portable forms must accept exactly what the RE2 originals accept,
// under a real ECMA-262 engine: node's RegExp with the u flag, the engine
// ajv and JavaScript MCP clients use.
func TestPortablePatternsUnderECMA(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatalf("node is needed to check patterns under ECMA-262: %v", err)
	}
	type check struct {
		Pattern string   `json:"pattern"`
		Inputs  []string `json:"inputs"`
	}
	var checks []check
	var want [][]bool
	for _, tc := range patternCases {
		if tc.refused != "" {
			continue
		}
		re := regexp.MustCompile(tc.in)
		out, err := portable(tc.in)
		if err != nil {
			t.Fatal(err)
		}
		verdicts := make([]bool, len(probes))
		for i, p := range probes {
			verdicts[i] = re.MatchString(p)
		}
		checks = append(checks, check{out, probes})
		want = append(want, verdicts)
	}
	in, err := json.Marshal(checks)
	if err != nil {
		t.Fatal(err)
	}
	const script = `
let data = "";
process.stdin.on("data", c => data += c);
process.stdin.on("end", () => {
  const out = JSON.parse(data).map(c => {
    const re = new RegExp(c.pattern, "u");
    return c.inputs.map(s => re.test(s));
  });
  process.stdout.write(JSON.stringify(out));
});`
	cmd := exec.Command(node, "-e", script)
	cmd.Stdin = strings.NewReader(string(in))
	res, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v", err)
	}
	var got [][]bool
	if err := json.Unmarshal(res, &got); err != nil {
		t.Fatalf("node answered %q: %v", res, err)
	}
	for i, c := range checks {
		for j, p := range probes {
			if got[i][j] != want[i][j] {
				t.Errorf("%q on %q: ECMA-262 says %v, RE2 says %v", c.Pattern, p, got[i][j], want[i][j])
			}
		}
	}
}

// FuzzPortable: whatever pattern a proto holds, portable either refuses it
// or returns one that RE2 compiles (portable itself checks it means the
// same); it never panics.
func FuzzPortable(f *testing.F) {
	for _, tc := range patternCases {
		f.Add(tc.in)
	}
	f.Fuzz(func(t *testing.T, pattern string) {
		out, err := portable(pattern)
		if err != nil {
			return
		}
		if _, err := regexp.Compile(out); err != nil {
			t.Fatalf("portable(%q) = %q, which RE2 does not compile: %v", pattern, out, err)
		}
	})
}
