package github

import (
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/providers/github/githubtest"
	"github.com/forgetools/forgetools/toolserver"
)

// searchFake is the stateful fake with two repositories in scope and one
// outside it, each holding the same function and an issue about it.
func searchFake(t *testing.T) (*githubtest.Server, *Provider) {
	srv, p := stateful(t)
	srv.AddRepo("octocat/Spoon-Knife", "main")
	srv.AddRepo("other/x", "main")
	for _, r := range []string{"octocat/Hello-World", "octocat/Spoon-Knife", "other/x"} {
		srv.Commit(r, "main", "add parse", githubtest.File{Path: "src/parse.go", Content: "package src\n\nfunc parseWidget() {}\n"})
		srv.AddIssue(r, githubtest.Issue{Title: "parseWidget crashes in " + r})
	}
	srv.AddPull("octocat/Hello-World", githubtest.Pull{Title: "Fix parseWidget", Head: "feature"})
	return srv, p
}

var scopeCall = toolserver.Call{Repos: []string{"octocat/Hello-World", "octocat/Spoon-Knife"}}

// sentQ is the q of the last search GitHub received.
func sentQ(t *testing.T, srv *githubtest.Server) string {
	t.Helper()
	rs := srv.Requests()
	return rs[len(rs)-1].Query.Get("q")
}

// A code search without a repo covers the call's repositories in one
// request, with the agent's text one quoted phrase and a repo: qualifier
// each; the fragment GitHub matched is the text.
func TestSearchCodeCoversTheScope(t *testing.T) {
	srv, p := searchFake(t)
	before := len(srv.Requests())
	got, err := p.SearchCode(ctx, scopeCall, &gatewayv1.SearchCodeRequest{Query: "func parseWidget"})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(srv.Requests()) - before; n != 1 {
		t.Errorf("%d requests, want 1", n)
	}
	if q := sentQ(t, srv); q != `"func parseWidget" repo:octocat/Hello-World repo:octocat/Spoon-Knife` {
		t.Errorf("q = %q", q)
	}
	var repos []string
	for _, m := range got.GetMatches() {
		repos = append(repos, m.GetRepo())
		if m.GetPath() != "src/parse.go" || m.GetText() != "func parseWidget() {}" {
			t.Errorf("match %s %q: %q", m.GetRepo(), m.GetPath(), m.GetText())
		}
	}
	if strings.Join(repos, " ") != "octocat/Hello-World octocat/Spoon-Knife" || got.GetNextCursor() != "" {
		t.Errorf("matches in %v (cursor %q)", repos, got.GetNextCursor())
	}
}

// An agent's query naming GitHub's own qualifiers (repo:, org:, OR) is
// literal text: the search stays in the repositories the call covers and
// finds nothing in other/x, which the fake would search for an unquoted
// repo:other/x. Quotes and backslashes, which could end the phrase, are
// refused before GitHub is asked.
func TestSearchQualifiersInTheQueryDoNotWiden(t *testing.T) {
	srv, p := searchFake(t)
	for _, q := range []string{"parseWidget repo:other/x", "repo:other/x", "parseWidget OR repo:other/x", "org:other parseWidget"} {
		code, err := p.SearchCode(ctx, toolserver.Call{}, &gatewayv1.SearchCodeRequest{Repo: "octocat/Hello-World", Query: q})
		if err != nil {
			t.Fatal(err)
		}
		hits, err := p.SearchIssues(ctx, scopeCall, &gatewayv1.SearchIssuesRequest{Query: q, State: gatewayv1.IssueStateFilter_ISSUE_STATE_FILTER_ALL})
		if err != nil {
			t.Fatal(err)
		}
		if len(code.GetMatches()) != 0 || len(hits.GetHits()) != 0 {
			t.Errorf("%q found %v and %v: the qualifier was read as one", q, code.GetMatches(), hits.GetHits())
		}
	}
	// The fake does honour an unquoted qualifier: what the provider's
	// quoting prevents would widen the search.
	raw, _, err := p.author.Search.Issues(ctx, `parseWidget repo:other/x`, nil)
	if err != nil || len(raw.Issues) != 1 || !strings.HasSuffix(raw.Issues[0].GetRepositoryURL(), "/repos/other/x") {
		t.Fatalf("the fake's answer to an unquoted repo:other/x: %v, %v; want other/x's issue", raw, err)
	}
	before := len(srv.Requests())
	for _, q := range []string{`parseWidget" repo:other/x "`, `parseWidget\`, "parse\x00Widget"} {
		_, err := p.SearchCode(ctx, scopeCall, &gatewayv1.SearchCodeRequest{Query: q})
		wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT, "GitHub")
		_, err = p.SearchIssues(ctx, scopeCall, &gatewayv1.SearchIssuesRequest{Query: q})
		wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT, "GitHub")
	}
	if len(srv.Requests()) != before {
		t.Errorf("a refused query reached GitHub")
	}
	_, err = p.SearchCode(ctx, toolserver.Call{}, &gatewayv1.SearchCodeRequest{Query: "parseWidget"})
	wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT, "needs a repo")
}

// An issue search adds the kind and state qualifiers and pages by a
// cursor bound to the query.
func TestSearchIssuesKindStateAndPages(t *testing.T) {
	srv, p := searchFake(t)
	got, err := p.SearchIssues(ctx, scopeCall, &gatewayv1.SearchIssuesRequest{Query: "parseWidget", Kind: gatewayv1.SubscriptionKind_SUBSCRIPTION_KIND_PULL_REQUEST})
	if err != nil {
		t.Fatal(err)
	}
	if q := sentQ(t, srv); q != `"parseWidget" repo:octocat/Hello-World repo:octocat/Spoon-Knife is:pr is:open` {
		t.Errorf("q = %q", q)
	}
	if len(got.GetHits()) != 1 || got.GetHits()[0].GetKind() != "pull_request" || got.GetHits()[0].GetRepo() != "octocat/Hello-World" {
		t.Errorf("hits %v", got.GetHits())
	}
	for range 60 {
		srv.AddIssue("octocat/Spoon-Knife", githubtest.Issue{Title: "parseWidget again"})
	}
	req := &gatewayv1.SearchIssuesRequest{Query: "parseWidget", Kind: gatewayv1.SubscriptionKind_SUBSCRIPTION_KIND_ISSUE}
	seen := map[string]bool{}
	pages := 0
	for {
		got, err := p.SearchIssues(ctx, scopeCall, req)
		if err != nil {
			t.Fatal(err)
		}
		pages++
		for _, h := range got.GetHits() {
			if k := h.GetUrl(); seen[k] || h.GetKind() != "issue" {
				t.Errorf("hit %s repeated or not an issue", k)
			}
			seen[h.GetUrl()] = true
		}
		if got.GetNextCursor() == "" {
			break
		}
		req.Cursor = got.GetNextCursor()
	}
	if len(seen) != 62 || pages < 2 {
		t.Errorf("%d hits in %d pages, want 62 in more than one", len(seen), pages)
	}
	req.Kind = gatewayv1.SubscriptionKind_SUBSCRIPTION_KIND_PULL_REQUEST
	req.Cursor = "x" + req.Cursor
	_, err = p.SearchIssues(ctx, scopeCall, req)
	wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT, "cursor")
}

// GitHub's search quota is its own (30 a minute): its refusal is
// resource_exhausted with the wait, and does not stop other calls.
func TestSearchRateLimitIsResourceExhausted(t *testing.T) {
	srv, p := searchFake(t)
	srv.Inject("GET /search/issues", githubtest.Response{Status: 403, Body: `{"message":"API rate limit exceeded for user ID 1.","documentation_url":"https://docs.github.com/rest/overview/rate-limits-for-the-rest-api"}`,
		Header: http.Header{"X-Ratelimit-Limit": {"30"}, "X-Ratelimit-Remaining": {"0"}, "X-Ratelimit-Resource": {"search"},
			"X-Ratelimit-Reset": {strconv.FormatInt(srv.Clock().Add(40*time.Second).Unix(), 10)}}})
	_, err := p.SearchIssues(ctx, scopeCall, &gatewayv1.SearchIssuesRequest{Query: "parseWidget"})
	e := wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_RESOURCE_EXHAUSTED, "rate limit")
	if e != nil && e.RetryAfter <= 0 {
		t.Errorf("no retry_after: %+v", e)
	}
	if _, err := p.ListIssues(ctx, noCall, &gatewayv1.ListIssuesRequest{Repo: "octocat/Hello-World"}); err != nil {
		t.Errorf("the search limit stopped a list: %v", err)
	}
}

// Only the search API counts against the search quota: a repository
// whose owner is named search is on the core one.
func TestQuotaOf(t *testing.T) {
	for path, want := range map[string]string{
		"/search/issues": "search", "/api/v3/search/code": "search",
		"/repos/search/code": "", "/repos/o/n/issues": "", "/orgs/search/search/x": "",
	} {
		r, _ := http.NewRequest(http.MethodGet, "https://api.github.com"+path, nil)
		if got := quotaOf(r); got != want {
			t.Errorf("quotaOf(%s) = %q, want %q", path, got, want)
		}
	}
}
