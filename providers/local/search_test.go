package local_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/providers/local"
	"github.com/forgetools/forgetools/toolserver"
)

// scoped is alice searching the repositories a gateway listed for her.
func scoped(repos ...string) toolserver.Call {
	c := alice
	c.Repos = repos
	return c
}

func codeHits(t *testing.T, f *local.Forge, c toolserver.Call, req *gatewayv1.SearchCodeRequest) []string {
	t.Helper()
	out, err := f.SearchCode(context.Background(), c, req)
	if err != nil {
		t.Fatalf("SearchCode %+v: %v", req, err)
	}
	var got []string
	for _, m := range out.GetMatches() {
		got = append(got, fmt.Sprintf("%s:%s:%d:%s", m.GetRepo(), m.GetPath(), m.GetLine(), m.GetText()))
	}
	return got
}

// Code search reads the default branch (or the ref given) of exactly the
// repositories the call covers, ignoring case, with each line's number; a
// query carrying another forge's qualifiers is only text.
func TestSearchCode(t *testing.T) {
	eachDialect(t, func(t *testing.T, d database) {
		f, _ := newForge(t, d, local.Options{})
		first := writeFile(t, f, pusher, "acme/one", "main", "pkg/a.go", "package pkg\n\nfunc ParseConfig() {}\n", "")
		writeFile(t, f, pusher, "acme/two", "main", "b.go", "package b\n// parseconfig is called here\nvar x = ParseConfig\n", "")
		writeFile(t, f, pusher, "acme/three", "main", "c.go", "func ParseConfig() {} // the third\n", "")
		writeFile(t, f, pusher, "acme/one", "main", "bin.dat", "ParseConfig\x00binary", "")
		branch(t, f, "acme/one", "feature")
		writeFile(t, f, pusher, "acme/one", "feature", "pkg/a.go", "package pkg\n\nfunc ParseConfigV2() {}\n", first.GetBlobSha())

		got := codeHits(t, f, scoped("acme/one", "acme/two"), &gatewayv1.SearchCodeRequest{Query: "parseCONFIG"})
		want := []string{
			"acme/one:pkg/a.go:3:func ParseConfig() {}",
			"acme/two:b.go:2:// parseconfig is called here",
			"acme/two:b.go:3:var x = ParseConfig",
		}
		if !slices.Equal(got, want) {
			t.Errorf("scope search:\n got %q\nwant %q", got, want)
		}
		got = codeHits(t, f, alice, &gatewayv1.SearchCodeRequest{Repo: "ACME/one", Query: "ParseConfig", Ref: "feature"})
		if want := []string{"acme/one:pkg/a.go:3:func ParseConfigV2() {}"}; !slices.Equal(got, want) {
			t.Errorf("search at a ref: %q, want %q", got, want)
		}
		for _, q := range []string{"repo:acme/three ParseConfig", "ParseConfig repo:acme/three", "org:acme ParseConfig"} {
			if got := codeHits(t, f, scoped("acme/one", "acme/two"), &gatewayv1.SearchCodeRequest{Query: q}); len(got) != 0 {
				t.Errorf("query %q widened the search: %q", q, got)
			}
		}
		// A repository of the list that does not exist yet has nothing to
		// find, and the search does not create it.
		if got := codeHits(t, f, scoped("acme/none", "acme/two"), &gatewayv1.SearchCodeRequest{Query: "third"}); len(got) != 0 {
			t.Errorf("found %q in repositories without it", got)
		}
		if _, err := f.SearchCode(context.Background(), alice, &gatewayv1.SearchCodeRequest{Query: "x"}); err == nil {
			t.Error("a search with neither repo nor the gateway's list ran")
		}
		_, err := f.SearchCode(context.Background(), alice, &gatewayv1.SearchCodeRequest{Repo: "acme/one", Query: "x", Ref: "nope"})
		wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_NOT_FOUND)
	})
}

// Following next_cursor reads every match of every repository once, in
// order; a cursor the forge did not issue is invalid_argument.
func TestSearchCodePages(t *testing.T) {
	f, _ := newForge(t, sqliteDatabase(t), local.Options{})
	var want []string
	for _, repo := range []string{"acme/a", "acme/b"} {
		var b strings.Builder
		for i := range 70 {
			fmt.Fprintf(&b, "needle %d\n", i)
			want = append(want, fmt.Sprintf("%s:f.txt:%d:needle %d", repo, i+1, i))
		}
		writeFile(t, f, pusher, repo, "main", "f.txt", b.String(), "")
	}
	var got []string
	cursor, pages := "", 0
	for {
		out, err := f.SearchCode(context.Background(), scoped("acme/a", "acme/b"), &gatewayv1.SearchCodeRequest{Query: "needle", Cursor: cursor})
		if err != nil {
			t.Fatal(err)
		}
		pages++
		if len(out.GetMatches()) > 50 {
			t.Fatalf("page of %d matches, over the 50 the renderer shows", len(out.GetMatches()))
		}
		for _, m := range out.GetMatches() {
			got = append(got, fmt.Sprintf("%s:%s:%d:%s", m.GetRepo(), m.GetPath(), m.GetLine(), m.GetText()))
		}
		if cursor = out.GetNextCursor(); cursor == "" {
			break
		}
	}
	if !slices.Equal(got, want) || pages != 3 {
		t.Errorf("paged %d matches in %d pages, want the %d in order in 3", len(got), pages, len(want))
	}
	for _, bad := range []string{"entry:5", "search:2.0", "search:-1.0", "search:0.01", "search:0", "search:0.+1", "junk"} {
		_, err := f.SearchCode(context.Background(), scoped("acme/a", "acme/b"), &gatewayv1.SearchCodeRequest{Query: "needle", Cursor: bad})
		wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT, "cursor")
	}
}

func hitKeys(out *forgev1.SearchHitList) []string {
	var got []string
	for _, h := range out.GetHits() {
		got = append(got, fmt.Sprintf("%s#%d:%s:%s", h.GetRepo(), h.GetNumber(), h.GetKind(), h.GetState()))
	}
	return got
}

// Issue search matches title or body text literally (LIKE's own '%' and
// '_' are text), filters by state and kind, and reads only the listed
// repositories, on both dialects.
func TestSearchIssues(t *testing.T) {
	eachDialect(t, func(t *testing.T, d database) {
		ctx := context.Background()
		f, _ := newForge(t, d, local.Options{})
		createIssue(t, f, "acme/one", "Crash in the parser")
		if _, err := f.CreateIssue(ctx, alice, &gatewayv1.CreateIssueRequest{Repo: "acme/two", Title: "Slow start", Body: "the PARSER is slow"}); err != nil {
			t.Fatal(err)
		}
		closed := createIssue(t, f, "acme/one", "parser: closed one")
		if _, err := f.UpdateIssue(ctx, alice, &gatewayv1.UpdateIssueRequest{Repo: "acme/one", IssueNumber: closed, State: gatewayv1.IssueState_ISSUE_STATE_CLOSED}); err != nil {
			t.Fatal(err)
		}
		createIssue(t, f, "acme/three", "parser in the third")
		createIssue(t, f, "acme/one", "100% done_now")
		pull := createPull(t, f, "acme/one", "parser-fix")

		search := func(c toolserver.Call, req *gatewayv1.SearchIssuesRequest) []string {
			t.Helper()
			out, err := f.SearchIssues(ctx, c, req)
			if err != nil {
				t.Fatalf("SearchIssues %+v: %v", req, err)
			}
			return hitKeys(out)
		}
		two := scoped("acme/one", "acme/two")
		got := search(two, &gatewayv1.SearchIssuesRequest{Query: "parser"})
		want := []string{fmt.Sprintf("acme/one#%d:pull_request:open", pull), "acme/two#1:issue:open", "acme/one#1:issue:open"}
		if !slices.Equal(got, want) {
			t.Errorf("open, both kinds:\n got %q\nwant %q", got, want)
		}
		got = search(two, &gatewayv1.SearchIssuesRequest{Query: "PARSER", State: gatewayv1.IssueStateFilter_ISSUE_STATE_FILTER_CLOSED})
		if want := []string{fmt.Sprintf("acme/one#%d:issue:closed", closed)}; !slices.Equal(got, want) {
			t.Errorf("closed: %q, want %q", got, want)
		}
		got = search(alice, &gatewayv1.SearchIssuesRequest{Repo: "acme/one", Query: "parser", Kind: gatewayv1.SubscriptionKind_SUBSCRIPTION_KIND_ISSUE, State: gatewayv1.IssueStateFilter_ISSUE_STATE_FILTER_ALL})
		if want := []string{fmt.Sprintf("acme/one#%d:issue:closed", closed), "acme/one#1:issue:open"}; !slices.Equal(got, want) {
			t.Errorf("issues of acme/one: %q, want %q", got, want)
		}
		for _, q := range []string{"%", "_", "100%", "done_now"} {
			got := search(two, &gatewayv1.SearchIssuesRequest{Query: q})
			if len(got) != 1 || !strings.HasPrefix(got[0], "acme/one#3:") {
				t.Errorf("query %q: %q, want only the issue whose title has it", q, got)
			}
		}
		for _, q := range []string{"repo:acme/three parser", "parser OR 1=1", "' OR '1'='1"} {
			if got := search(two, &gatewayv1.SearchIssuesRequest{Query: q}); len(got) != 0 {
				t.Errorf("query %q widened the search: %q", q, got)
			}
		}
	})
}

// Issue search pages by offset through the whole set with no gap or
// repeat.
func TestSearchIssuesPages(t *testing.T) {
	f, _ := newForge(t, sqliteDatabase(t), local.Options{})
	for i := range 120 {
		createIssue(t, f, []string{"acme/a", "acme/b"}[i%2], fmt.Sprintf("flaky test %d", i))
	}
	seen := map[string]bool{}
	cursor := ""
	for range 10 {
		out, err := f.SearchIssues(context.Background(), scoped("acme/a", "acme/b"), &gatewayv1.SearchIssuesRequest{Query: "flaky", Cursor: cursor})
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range hitKeys(out) {
			if seen[k] {
				t.Fatalf("%s shown twice", k)
			}
			seen[k] = true
		}
		if cursor = out.GetNextCursor(); cursor == "" {
			break
		}
	}
	if len(seen) != 120 {
		t.Errorf("paged %d hits, want 120", len(seen))
	}
	_, err := f.SearchIssues(context.Background(), alice, &gatewayv1.SearchIssuesRequest{Repo: "acme/a", Query: "flaky", Cursor: "search:1.0"})
	wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT, "cursor")
}
