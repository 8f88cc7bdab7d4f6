package kit_test

import (
	"strings"
	"testing"

	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	optionsv1 "github.com/forgetools/forgetools/gen/forgetools/options/v1"
	"github.com/forgetools/forgetools/providers/kit"
	"github.com/forgetools/forgetools/toolserver"
)

func limit(n uint32) *uint32 { return &n }

// wantInvalid fails unless err is invalid_argument.
func wantInvalid(t *testing.T, err error, what string) {
	t.Helper()
	if e, ok := toolserver.AsError(err); !ok || e.Code != optionsv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT {
		t.Errorf("%s: %v, want invalid_argument", what, err)
	}
}

// A cursor reads back as the position it was issued with, for the same
// arguments (the cursor field itself aside) only.
func TestCursorsBindTheQuery(t *testing.T) {
	req := &gatewayv1.ListIssuesRequest{Repo: "acme/app", Labels: []string{"bug"}, Limit: limit(10)}
	cur := kit.CursorsFor("forge_list_issues", req)
	next := cur.NextKey(3)
	if len(next) > kit.CursorMax || !strings.HasSuffix(next, ".3") {
		t.Fatalf("cursor %q", next)
	}
	req.Cursor = next
	again := kit.CursorsFor("forge_list_issues", req)
	if n, err := again.Page(req.Cursor); err != nil || n != 3 {
		t.Fatalf("read back %d, %v; want page 3", n, err)
	}
	if n, err := again.Page(""); err != nil || n != 1 {
		t.Errorf("no cursor: page %d, %v; want 1", n, err)
	}
	for name, other := range map[string]*gatewayv1.ListIssuesRequest{
		"another repository": {Repo: "acme/other", Labels: []string{"bug"}, Limit: limit(10)},
		"another label":      {Repo: "acme/app", Labels: []string{"ui"}, Limit: limit(10)},
		"another page size":  {Repo: "acme/app", Labels: []string{"bug"}, Limit: limit(20)},
		"the default size":   {Repo: "acme/app", Labels: []string{"bug"}},
	} {
		_, err := kit.CursorsFor("forge_list_issues", other).Page(next)
		wantInvalid(t, err, name)
	}
	// The page size may be left free (a keyset cursor).
	free := kit.CursorsFor("forge_list_issues", req, "limit")
	req.Limit = limit(50)
	if n, err := kit.CursorsFor("forge_list_issues", req, "limit").Key(free.NextKey(9), 100); err != nil || n != 9 {
		t.Errorf("free limit: %d, %v; want 9", n, err)
	}
	// Another arm's cursor, for the same arguments, is not this one's.
	_, err := kit.CursorsFor("forge_list_pull_requests", req).Page(cur.NextKey(3))
	wantInvalid(t, err, "another arm")
}

// A cursor is the agent's input: anything but what was issued is refused.
func TestCursorsParseStrictly(t *testing.T) {
	cur := kit.CursorsFor("forge_list_issues", &gatewayv1.ListIssuesRequest{Repo: "acme/app"})
	ok := cur.NextKey(12)
	query := strings.TrimSuffix(ok, "12")
	for _, bad := range []string{"12", ".12", query, query + "0", query + "-1", query + "012", query + "+12", query + "1e3",
		query + "12 ", query + "9223372036854775807", ok + ".1", "entry:12", "x" + ok, query + "１２"} {
		_, err := cur.Page(bad)
		wantInvalid(t, err, bad)
	}
	if n, err := cur.Key(ok, 11); err == nil {
		t.Errorf("a key over the bound read as %d", n)
	}
	// A forge's own cursor passes through, if it fits.
	if c, err := cur.Next("6f0c7a52-3c59-4e63-9a53-31a1d4b0e3a1"); err != nil {
		t.Error(err)
	} else if pos, err := cur.Position(c); err != nil || pos != "6f0c7a52-3c59-4e63-9a53-31a1d4b0e3a1" {
		t.Errorf("read back %q, %v", pos, err)
	}
	for _, odd := range []string{strings.Repeat("a", 60), "a b", "a.b", `{"x":1}`} {
		if c, err := cur.Next(odd); err == nil {
			t.Errorf("forge cursor %q made cursor %q", odd, c)
		}
	}
	if c, err := cur.Next(""); c != "" || err != nil {
		t.Errorf("no next page: %q, %v", c, err)
	}
}
