package gitea_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/providers/gitea/giteatest"
	"github.com/forgetools/forgetools/toolserver"
)

func scopeCall(repos ...string) toolserver.Call {
	c := noCall
	c.Repos = repos
	return c
}

// Issue search uses each repository's issue list with its keyword filter,
// one repository of the list after another, issues and pull requests
// together unless kind says; the repository is the URL's, and the query
// goes out whole as q, so nothing in it reaches another repository. The
// global /repos/issues/search, which no repository list bounds, is never
// called.
func TestSearchIssues(t *testing.T) {
	for _, forgejo := range []bool{false, true} {
		s := fake(t, forgejo)
		s.AddRepo("acme/tools", "main", map[string]string{"README.md": "# tools\n"})
		s.AddRepo("secret/vault", "main", map[string]string{"README.md": "# vault\n"})
		s.AddIssue("acme/tools", giteatest.Issue{Title: "Jams on start", Body: "tools jam"})
		s.AddIssue("acme/tools", giteatest.Issue{Title: "Old jam", State: "closed"})
		s.AddIssue("secret/vault", giteatest.Issue{Title: "Jam secret"})
		p := provider(t, s, forgejo, 0)
		ctx := context.Background()
		collect := func(c toolserver.Call, req *gatewayv1.SearchIssuesRequest) []string {
			t.Helper()
			var got []string
			for range 10 {
				out, err := p.SearchIssues(ctx, c, req)
				if err != nil {
					t.Fatal(err)
				}
				for _, h := range out.GetHits() {
					got = append(got, fmt.Sprintf("%s#%d:%s:%s", h.GetRepo(), h.GetNumber(), h.GetKind(), h.GetState()))
				}
				if req.Cursor = out.GetNextCursor(); req.Cursor == "" {
					break
				}
			}
			return got
		}
		got := collect(scopeCall(repo, "acme/tools"), &gatewayv1.SearchIssuesRequest{Query: "JAM"})
		if want := []string{repo + "#1:issue:open", "acme/tools#1:issue:open"}; !slices.Equal(got, want) {
			t.Errorf("forgejo %v: open: %q, want %q", forgejo, got, want)
		}
		got = collect(scopeCall(repo), &gatewayv1.SearchIssuesRequest{Query: "feature", Kind: gatewayv1.SubscriptionKind_SUBSCRIPTION_KIND_PULL_REQUEST})
		if want := []string{repo + "#2:pull_request:open"}; !slices.Equal(got, want) {
			t.Errorf("forgejo %v: pull requests: %q, want %q", forgejo, got, want)
		}
		if r := s.Requests()[len(s.Requests())-1]; r.Query.Get("type") != "pulls" || r.Query.Get("q") != "feature" {
			t.Errorf("pull request search sent %v", r.Query)
		}
		got = collect(scopeCall("acme/tools"), &gatewayv1.SearchIssuesRequest{Query: "jam", State: gatewayv1.IssueStateFilter_ISSUE_STATE_FILTER_CLOSED})
		if want := []string{"acme/tools#2:issue:closed"}; !slices.Equal(got, want) {
			t.Errorf("forgejo %v: closed: %q, want %q", forgejo, got, want)
		}
		hostile := "jam&owner=secret repo:secret/vault"
		if _, err := p.SearchIssues(ctx, noCall, &gatewayv1.SearchIssuesRequest{Repo: "acme/tools", Query: hostile}); err != nil {
			t.Fatal(err)
		}
		for _, r := range s.Requests() {
			if strings.Contains(r.Path, "secret") || strings.Contains(r.Path, "/repos/issues/search") {
				t.Errorf("forgejo %v: a search reached %s", forgejo, r.Path)
			}
		}
		if r := s.Requests()[len(s.Requests())-1]; r.Path != "/repos/acme/tools/issues" || r.Query.Get("q") != hostile || r.Query.Get("owner") != "" {
			t.Errorf("forgejo %v: hostile query sent as %s %v", forgejo, r.Path, r.Query)
		}
		_, err := p.SearchIssues(ctx, noCall, &gatewayv1.SearchIssuesRequest{Repo: repo, Query: "x", Cursor: "search:1.1"})
		wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT, "cursor")
	}
}

// Many hits page through Gitea's pages with no gap or repeat.
func TestSearchIssuesPages(t *testing.T) {
	s := fake(t, false)
	for i := range 120 {
		s.AddIssue(repo, giteatest.Issue{Title: fmt.Sprintf("flaky %d", i)})
	}
	p := provider(t, s, false, 0)
	seen := map[uint64]bool{}
	req := &gatewayv1.SearchIssuesRequest{Repo: repo, Query: "flaky"}
	for range 10 {
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
		if req.Cursor = out.GetNextCursor(); req.Cursor == "" {
			break
		}
	}
	if len(seen) != 120 {
		t.Errorf("paged %d issues, want 120", len(seen))
	}
}

// Gitea's API has no code search: unimplemented, saying so, with no
// request made.
func TestSearchCodeUnimplemented(t *testing.T) {
	s := fake(t, false)
	p := provider(t, s, false, 0)
	before := len(s.Requests())
	_, err := p.SearchCode(context.Background(), noCall, &gatewayv1.SearchCodeRequest{Repo: repo, Query: "main"})
	wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_UNIMPLEMENTED, "no code search")
	if len(s.Requests()) != before {
		t.Error("an unimplemented search reached the forge")
	}
}
