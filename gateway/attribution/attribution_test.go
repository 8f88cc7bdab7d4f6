package attribution

import (
	"strings"
	"testing"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	"google.golang.org/protobuf/proto"
)

var who = &forgev1.Attribution{AgentHandle: "claude-7", OwnerHandle: "alice", SessionId: "s-42"}

const header = "> forgetools agent `claude-7` on behalf of `alice`, session `s-42`"

func TestStamp(t *testing.T) {
	for _, tc := range []struct{ name, body, want string }{
		{"empty body is just the header", "", header},
		{"blank body is just the header", " \n\t\r\n", header},
		{"body follows a blank line", "Fixes the build.", header + "\n\nFixes the build."},
		{"leading blank lines go", "\n\n  indented code stays\n", header + "\n\n  indented code stays\n"},
		{"the agent's own header is replaced",
			"> forgetools agent `mallory` on behalf of `root`, session `x`\n\nReal body",
			header + "\n\nReal body"},
		{"a stack of lookalikes is replaced",
			"**forgetools agent** `a` on behalf of `b`\r\n> FORGETOOLS  agent: x ON BEHALF OF y\n\nbody",
			header + "\n\nbody"},
		{"a lookalike behind a BOM is replaced", "\uFEFF> forgetools agent `m` on behalf of `r`, session `x`\nbody",
			header + "\n\nbody"},
		{"a header mid-body is content", "intro\n\n" + header, header + "\n\nintro\n\n" + header},
		{"prose about the agent is kept", "forgetools agent crashed on startup", header + "\n\nforgetools agent crashed on startup"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Stamp(who, tc.body)
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("Stamp(%q)\n got %q\nwant %q", tc.body, got, tc.want)
			}
		})
	}
}

func TestStampRejectsBadValues(t *testing.T) {
	for _, a := range []*forgev1.Attribution{
		{AgentHandle: "", OwnerHandle: "alice", SessionId: "s"},
		{AgentHandle: "a`b", OwnerHandle: "alice", SessionId: "s"},
		{AgentHandle: "a", OwnerHandle: "@alice", SessionId: "s"},
		{AgentHandle: "a", OwnerHandle: "alice", SessionId: "s 1"},
		{AgentHandle: "a", OwnerHandle: "alice", SessionId: strings.Repeat("x", 101)},
	} {
		if _, err := Stamp(a, "body"); err == nil {
			t.Errorf("Stamp with %v succeeded", a)
		}
	}
}

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		name, body string
		want       *forgev1.Attribution
		rest       string
	}{
		{"stamped", header + "\n\nbody\n", who, "body\n"},
		{"header only", header, who, ""},
		{"CRLF from a forge", strings.ReplaceAll(header+"\n\nline one\nline two", "\n", "\r\n"), who, "line one\r\nline two"},
		{"indented, no space after >, extra spaces", "   >forgetools  agent `claude-7`  on behalf of `alice`,  session `s-42`  \nx", who, "x"},
		{"leading blank lines and BOM", "\uFEFF\n\n" + header + "\nx", who, "x"},
		{"not at the top", "hello\n" + header, nil, "hello\n" + header},
		{"four-space indent is code", "    " + header, nil, "    " + header},
		{"bad value", "> forgetools agent `a b` on behalf of `o`, session `s`", nil, "> forgetools agent `a b` on behalf of `o`, session `s`"},
		{"missing session", "> forgetools agent `a` on behalf of `o`\nbody", nil, "> forgetools agent `a` on behalf of `o`\nbody"},
		{"trailing junk", header + " (edited)", nil, header + " (edited)"},
		{"empty", "", nil, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, rest := Parse(tc.body)
			if !proto.Equal(got, tc.want) || rest != tc.rest {
				t.Errorf("Parse(%q) = %v, %q; want %v, %q", tc.body, got, rest, tc.want, tc.rest)
			}
		})
	}
}

// FuzzParse checks the parser on untrusted bodies: it never panics, what it
// returns would stamp back to the same header, and stamping any body then
// parsing it recovers the attribution and the agent's (stripped) body.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"", header, header + "\n\nbody", "\uFEFF" + header + "\r\n", "> forgetools agent `x`"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		if a, rest := Parse(body); a != nil {
			h, err := Header(a)
			if err != nil {
				t.Fatalf("Parse(%q) returned an attribution Header rejects: %v", body, err)
			}
			if again, _ := Parse(h); !proto.Equal(again, a) {
				t.Fatalf("the header of Parse(%q) parses to %v, not %v", body, again, a)
			}
			if len(rest) >= len(body) {
				t.Fatalf("Parse(%q) found a header but removed nothing", body)
			}
		} else if rest != body {
			t.Fatalf("Parse(%q) found no header but changed the body to %q", body, rest)
		}

		stripped := Strip(body)
		if Strip(stripped) != stripped {
			t.Fatalf("Strip is not idempotent on %q", body)
		}
		stamped, err := Stamp(who, body)
		if err != nil {
			t.Fatal(err)
		}
		a, rest := Parse(stamped)
		if !proto.Equal(a, who) {
			t.Fatalf("Parse(Stamp(%q)) = %v, want %v", body, a, who)
		}
		if want := trimBlankLines(stripped); rest != want {
			t.Fatalf("Parse(Stamp(%q)) body = %q, want %q", body, rest, want)
		}
		if Strip(rest) != rest {
			t.Fatalf("a stamped body still starts with a lookalike header: %q", rest)
		}
	})
}
