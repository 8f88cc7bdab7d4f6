package gitlab_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/providers/gitlab/gitlabtest"
	"github.com/forgetools/forgetools/toolserver"
)

// searchFake adds a second project to the seeded fake, and one the
// account's scope will not list.
func searchFake(t *testing.T) *gitlabtest.Server {
	s := fake(t)
	s.AddProject("platform/web", "main", map[string]string{"app.go": "package app\n\nfunc Deploy() {}\n// deploy twice\n"})
	s.AddProject("secret/vault", "main", map[string]string{"deploy.go": "func Deploy() {}\n"})
	s.AddIssue("platform/web", gitlabtest.Issue{Title: "Deploy fails", Description: "on Mondays"})
	s.AddIssue("platform/web", gitlabtest.Issue{Title: "Old deploy bug", State: "closed"})
	s.AddIssue("secret/vault", gitlabtest.Issue{Title: "Deploy secret"})
	return s
}

func scopeCall(repos ...string) toolserver.Call {
	c := noCall
	c.Repos = repos
	return c
}

// Code search asks GitLab's project search for blobs, one project of the
// list after another, and shows each match's own line; the projects are
// the URL's, and the query goes out as the search parameter, whole, so a
// query shaped like another scope or project stays text.
func TestSearchCode(t *testing.T) {
	s := searchFake(t)
	p := provider(t, s, 0)
	ctx := context.Background()
	out, err := p.SearchCode(ctx, scopeCall(proj, "platform/web"), &gatewayv1.SearchCodeRequest{Query: "deploy"})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range out.GetMatches() {
		got = append(got, fmt.Sprintf("%s:%s:%d:%s", m.GetRepo(), m.GetPath(), m.GetLine(), m.GetText()))
	}
	// The first project's README matches; the web project is the next page.
	if want := []string{proj + ":README.md:1:# deploy"}; !slices.Equal(got, want) {
		t.Errorf("first page: %q, want %q", got, want)
	}
	if out.GetNextCursor() == "" {
		t.Fatal("no cursor to the second project")
	}
	out, err = p.SearchCode(ctx, scopeCall(proj, "platform/web"), &gatewayv1.SearchCodeRequest{Query: "deploy", Cursor: out.GetNextCursor()})
	if err != nil {
		t.Fatal(err)
	}
	got = nil
	for _, m := range out.GetMatches() {
		got = append(got, fmt.Sprintf("%s:%s:%d:%s", m.GetRepo(), m.GetPath(), m.GetLine(), m.GetText()))
	}
	if want := []string{"platform/web:app.go:3:func Deploy() {}\n// deploy twice"}; !slices.Equal(got, want) || out.GetNextCursor() != "" {
		t.Errorf("second page: %q (next %q), want %q and the end", got, out.GetNextCursor(), want)
	}
	for _, r := range s.Requests() {
		if strings.Contains(r.Path, "secret") {
			t.Errorf("a search of the listed projects reached %s", r.Path)
		}
	}

	hostile := "Deploy&scope=projects&project_id=3 repo:secret/vault"
	if _, err := p.SearchCode(ctx, noCall, &gatewayv1.SearchCodeRequest{Repo: "platform/web", Query: hostile, Ref: "main"}); err != nil {
		t.Fatal(err)
	}
	r := last(s)
	if r.Path != "/projects/platform%2Fweb/-/search" && r.Path != "/projects/platform%2Fweb/search" {
		t.Errorf("searched %s, want platform/web's project search", r.Path)
	}
	if r.Query.Get("scope") != "blobs" || r.Query.Get("search") != hostile || len(r.Query["scope"]) != 1 || r.Query.Get("ref") != "main" {
		t.Errorf("query sent as %v, want scope=blobs, ref=main and the whole query as search", r.Query)
	}
}

// Issue search reads issues then merge requests per project, with GitLab's
// state filter; a cursor it did not issue is invalid_argument.
func TestSearchIssues(t *testing.T) {
	s := searchFake(t)
	p := provider(t, s, 0)
	ctx := context.Background()
	collect := func(c toolserver.Call, req *gatewayv1.SearchIssuesRequest) []string {
		t.Helper()
		var got []string
		for {
			out, err := p.SearchIssues(ctx, c, req)
			if err != nil {
				t.Fatal(err)
			}
			for _, h := range out.GetHits() {
				got = append(got, fmt.Sprintf("%s#%d:%s:%s", h.GetRepo(), h.GetNumber(), h.GetKind(), h.GetState()))
			}
			if req.Cursor = out.GetNextCursor(); req.Cursor == "" {
				return got
			}
		}
	}
	got := collect(scopeCall(proj, "platform/web"), &gatewayv1.SearchIssuesRequest{Query: "L"})
	want := []string{proj + "#1:issue:open", proj + "#1:pull_request:open", "platform/web#1:issue:open"}
	if !slices.Equal(got, want) {
		t.Errorf("open, both kinds: %q, want %q", got, want)
	}
	got = collect(scopeCall("platform/web"), &gatewayv1.SearchIssuesRequest{Query: "DEPLOY", State: gatewayv1.IssueStateFilter_ISSUE_STATE_FILTER_CLOSED, Kind: gatewayv1.SubscriptionKind_SUBSCRIPTION_KIND_ISSUE})
	if want := []string{"platform/web#2:issue:closed"}; !slices.Equal(got, want) {
		t.Errorf("closed issues: %q, want %q", got, want)
	}
	if r := last(s); r.Query.Get("scope") != "issues" || r.Query.Get("state") != "" {
		t.Errorf("closed issue search sent %v", r.Query)
	}
	_, err := p.SearchIssues(ctx, noCall, &gatewayv1.SearchIssuesRequest{Repo: proj, Query: "x", Cursor: "search:2.1"})
	wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT, "cursor")
	_, err = p.SearchIssues(ctx, noCall, &gatewayv1.SearchIssuesRequest{Query: "x"})
	wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT, "needs a repo")
}

// Many hits page through GitLab's pages with no gap or repeat.
func TestSearchIssuesPages(t *testing.T) {
	s := fake(t)
	for i := range 120 {
		s.AddIssue(proj, gitlabtest.Issue{Title: fmt.Sprintf("flaky %d", i)})
	}
	p := provider(t, s, 0)
	seen := map[uint64]bool{}
	req := &gatewayv1.SearchIssuesRequest{Repo: proj, Query: "flaky", Kind: gatewayv1.SubscriptionKind_SUBSCRIPTION_KIND_ISSUE}
	for pages := 0; ; pages++ {
		out, err := p.SearchIssues(context.Background(), noCall, req)
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range out.GetHits() {
			if seen[h.GetNumber()] {
				t.Fatalf("#%d twice", h.GetNumber())
			}
			seen[h.GetNumber()] = true
		}
		if req.Cursor = out.GetNextCursor(); req.Cursor == "" || pages > 5 {
			break
		}
	}
	if len(seen) != 120 {
		t.Errorf("paged %d issues, want 120", len(seen))
	}
}
