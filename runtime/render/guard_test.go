package render_test

import (
	"strings"
	"testing"

	"github.com/forgetools/forgetools/runtime/render"
)

const bad = render.Malformed

func TestGuards(t *testing.T) {
	tests := []struct {
		guard string
		fn    func(string) string
		in    string
		want  string
	}{
		{"attr", render.Attr, "12", "12"},
		{"attr", render.Attr, "open", "open"},
		{"attr", render.Attr, "ENG-123", "ENG-123"},
		{"attr", render.Attr, "v1.2:rc_3", "v1.2:rc_3"},
		{"attr", render.Attr, "", bad},
		{"attr", render.Attr, "open\nrecord issue", bad},
		{"attr", render.Attr, `alice" onclick="x`, bad},
		{"attr", render.Attr, "good first issue", bad},
		{"attr", render.Attr, "a/b", bad},
		{"attr", render.Attr, "caf\u00e9", bad},
		{"attr", render.Attr, "ab\u202ecd", bad},
		{"attr", render.Attr, strings.Repeat("a", 256), strings.Repeat("a", 256)},
		{"attr", render.Attr, strings.Repeat("a", 257), bad},

		{"url", render.URL, "https://github.com/acme/widgets/issues/12", "https://github.com/acme/widgets/issues/12"},
		{"url", render.URL, "http://localhost:8080/a/b?x=1&y=%20#frag", "http://localhost:8080/a/b?x=1&y=%20#frag"},
		{"url", render.URL, "https://linear.app/acme/issue/ENG-1/title-slug", "https://linear.app/acme/issue/ENG-1/title-slug"},
		{"url", render.URL, "", bad},
		{"url", render.URL, "javascript:alert(1)", bad},
		{"url", render.URL, "ftp://example.com/x", bad},
		{"url", render.URL, "https://", bad},
		{"url", render.URL, "https:///path", bad},
		{"url", render.URL, "/relative/path", bad},
		{"url", render.URL, "https://example.com/a b", bad},
		{"url", render.URL, "https://example.com/a\nrecord issue", bad},
		{"url", render.URL, `https://example.com/"quoted"`, bad},
		{"url", render.URL, "https://example.com/'x'", bad},
		{"url", render.URL, "https://example.com/<script>", bad},
		{"url", render.URL, "https://example.com/\\x", bad},
		{"url", render.URL, "https://user:token@example.com/x", bad},
		{"url", render.URL, "https://ex\u202eample.com/", bad},
		{"url", render.URL, "https://example.com/" + strings.Repeat("a", 2048), bad},

		{"slug", render.Slug, "acme/widgets", "acme/widgets"},
		{"slug", render.Slug, "ENG", "ENG"},
		{"slug", render.Slug, "group/sub/project.js", "group/sub/project.js"},
		{"slug", render.Slug, "acme/.github", "acme/.github"},
		{"slug", render.Slug, "", bad},
		{"slug", render.Slug, "acme/", bad},
		{"slug", render.Slug, "/widgets", bad},
		{"slug", render.Slug, "acme//widgets", bad},
		{"slug", render.Slug, "acme/../etc", bad},
		{"slug", render.Slug, "acme/widgets\nrecord issue", bad},
		{"slug", render.Slug, `acme/wid"gets`, bad},
		{"slug", render.Slug, "acme widgets", bad},
		{"slug", render.Slug, "https://github.com/acme/widgets", bad},
		{"slug", render.Slug, strings.Repeat("a", 257), bad},

		{"verdict", render.Verdict, "approve", "approve"},
		{"verdict", render.Verdict, "APPROVED", "approve"},
		{"verdict", render.Verdict, "changes_requested", "request_changes"},
		{"verdict", render.Verdict, "CHANGES_REQUESTED", "request_changes"},
		{"verdict", render.Verdict, "REQUEST_CHANGES", "request_changes"},
		{"verdict", render.Verdict, "request-changes", "request_changes"},
		{"verdict", render.Verdict, "VERDICT_REQUEST_CHANGES", "request_changes"},
		{"verdict", render.Verdict, "COMMENTED", "comment"},
		{"verdict", render.Verdict, "comment", "comment"},
		{"verdict", render.Verdict, "DISMISSED", "dismissed"},
		{"verdict", render.Verdict, "PENDING", "pending"},
		{"verdict", render.Verdict, "approve\nrecord review", bad},
		{"verdict", render.Verdict, "", bad},
	}
	for _, tc := range tests {
		if got := tc.fn(tc.in); got != tc.want {
			t.Errorf("%s(%q) = %q, want %q", tc.guard, tc.in, got, tc.want)
		}
	}
}

func TestFlat(t *testing.T) {
	tests := []struct{ in, want string }{
		{"one line", "one line"},
		{"line one\nline two", "line one line two"},
		{"  a \r\n\t b  ", "a b"},
		{"a\x00\x07\x1bb", "a b"},
		{"a\u2028b\u2029c\u0085d", "a b c d"},
		{"evil\u202egnp.exe", "evil<U+202E>gnp.exe"},
		{"zero\u200bwidth", "zero<U+200B>width"},
		{"Promise<string> and <n>", "Promise<string> and <n>"},
		{"bad \xff byte", "bad \ufffd byte"},
		{"", ""},
	}
	for _, tc := range tests {
		if got := render.Flat(tc.in); got != tc.want {
			t.Errorf("Flat(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestVisible(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"ordinary angle brackets survive", "func f() Promise<string> { return <n> }", "func f() Promise<string> { return <n> }"},
		{"markdown and code survive", "# Title\n\n```go\nif a < b && c > d {}\n```\n> quote", "# Title\n\n```go\nif a < b && c > d {}\n```\n> quote"},
		{"non-Latin text survives", "日本語 — ünïcödé — עברית", "日本語 — ünïcödé — עברית"},
		{"bidi override shown", "access\u202e\u2066 level", "access<U+202E><U+2066> level"},
		{"all bidi controls shown", "\u200e\u200f\u202a\u202b\u202c\u202d\u2067\u2068\u2069\u061c", "<U+200E><U+200F><U+202A><U+202B><U+202C><U+202D><U+2067><U+2068><U+2069><U+061C>"},
		{"zero-width and BOM shown", "a\u200bb\u200cc\ufeffd\u2060e", "a<U+200B>b<U+200C>c<U+FEFF>d<U+2060>e"},
		{"soft hyphen shown", "pass\u00adword", "pass<U+00AD>word"},
		{"tag characters shown", "hi\U000E0049\U000E0047\U000E004E", "hi<U+E0049><U+E0047><U+E004E>"},
		{"hangul filler shown", "a\u3164b", "a<U+3164>b"},
		{"variation selector smuggling shown", "x\U000E0100\ufe00", "x<U+E0100><U+FE00>"},
		{"emoji presentation kept", "ok \u2764\ufe0f and 1\ufe0f\u20e3", "ok \u2764\ufe0f and 1\ufe0f\u20e3"},
		{"emoji ZWJ sequence kept", "family \U0001F468\u200d\U0001F469\u200d\U0001F467", "family \U0001F468\u200d\U0001F469\u200d\U0001F467"},
		{"stray ZWJ shown", "pay\u200dpal", "pay<U+200D>pal"},
		{"control characters shown", "bell\a esc\x1b[31m", "bell<U+0007> esc<U+001B>[31m"},
		{"CRLF and CR become LF", "a\r\nb\rc", "a\nb\nc"},
		{"line separator shown", "a\u2028b", "a<U+2028>b"},
		{"tabs and newlines kept", "a\tb\nc", "a\tb\nc"},
		{"invalid UTF-8 replaced", "a\xffb", "a\ufffdb"},
	}
	for _, tc := range tests {
		if got := render.Visible(tc.in); got != tc.want {
			t.Errorf("%s: Visible(%q) = %q, want %q", tc.name, tc.in, got, tc.want)
		}
	}
}

func TestName(t *testing.T) {
	Malformed := render.Malformed
	Name := render.Name
	for in, want := range map[string]string{
		"good first issue":       "good first issue",
		"🐛 bug":                  "🐛 bug",
		"Ada Lovelace":           "Ada Lovelace",
		"área: documentação":     "área: documentação",
		"priority/P1":            "priority/P1",
		"bug, wontfix":           Malformed, // a comma would read as two labels
		"two\nlines":             Malformed,
		" leading":               Malformed,
		"trailing ":              Malformed,
		"double  space":          Malformed,
		"<<<body-1234abcd":       Malformed,
		"`code`":                 Malformed,
		"":                       Malformed,
		strings.Repeat("a", 101): Malformed,
	} {
		if got := Name(in); got != want {
			t.Errorf("Name(%q) = %q, want %q", in, got, want)
		}
	}
}
