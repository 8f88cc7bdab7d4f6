package forges_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/forgetools/forgetools/providers/gitea/giteatest"
	"github.com/forgetools/forgetools/providers/gitlab/gitlabtest"
)

// failure is one scripted forge answer and the line the model reads.
type failure struct {
	name   string
	status int
	header http.Header
	body   string
	want   string
}

// Every GitLab failure comes back in-band with the code it maps to and,
// for a rate limit, GitLab's wait. The client library neither retries nor
// sleeps: each failure costs one request.
func TestGitLabFailuresInBand(t *testing.T) {
	e := start(t, func(s *settings) { s.restTimeout = "2s" })
	call := `{` + onGitLab + `,"issue_number":1}`
	prefix := "forge_get_issue failed: "
	for _, f := range []failure{
		{"401", 401, nil, gitlabtest.Fixture("error_401.json"),
			"unauthenticated: get issue platform/infra/deploy#1: GitLab answered 401 Unauthorized (the configured token is missing, expired or revoked)"},
		{"403", 403, nil, `{"message":"403 Forbidden"}`,
			"permission_denied: get issue platform/infra/deploy#1: GitLab answered 403 Forbidden"},
		{"404", 404, nil, gitlabtest.Fixture("error_404.json"),
			"not_found: get issue platform/infra/deploy#1: GitLab answered 404 Not Found (it does not exist, or the credential cannot see it)"},
		{"429", 429, http.Header{"Retry-After": {"30"}, "RateLimit-Name": {"throttle_authenticated_api"}, "Content-Type": {"text/plain"}}, "Retry later\n",
			"resource_exhausted: get issue platform/infra/deploy#1: GitLab rate limit throttle_authenticated_api: GitLab answered 429 Too Many Requests; retry after 30000ms"},
		{"502", 502, http.Header{"Content-Type": {"text/html"}}, "<html><body>502 Whoops, GitLab is taking too much time to respond.</body></html>",
			"unavailable: get issue platform/infra/deploy#1: GitLab answered 502 Bad Gateway"},
	} {
		e.gitlab.Inject("GET "+project+"/issues/1", gitlabtest.Response{Status: f.status, Header: f.header, Body: f.body})
		n := len(e.gitlab.Requests())
		want(t, f.name, e.fails("forge_get_issue", call), prefix+f.want)
		if got := len(e.gitlab.Requests()) - n; got != 1 {
			t.Errorf("%s: %d requests, want 1 (no retries)", f.name, got)
		}
	}
	e.gitlab.Inject("GET "+project+"/issues/1", gitlabtest.Response{Hold: true})
	want(t, "timeout", e.fails("forge_get_issue", call), prefix+"unavailable: get issue platform/infra/deploy#1: GitLab did not answer within 2s")
}

// The same for Gitea: its 403, a 429 from whatever limits it, and the
// rest.
func TestGiteaFailuresInBand(t *testing.T) {
	e := start(t, func(s *settings) { s.restTimeout = "2s" })
	call := `{` + onGitea + `,"issue_number":1}`
	prefix := "forge_get_issue failed: "
	for _, f := range []failure{
		{"401", 401, nil, giteatest.Fixture("error_401.json"),
			"unauthenticated: get issue acme/gadgets#1: Gitea answered 401 Unauthorized: invalid username, password or token (the configured token is missing, expired or revoked)"},
		{"403", 403, nil, giteatest.Fixture("error_403_scope.json"),
			"permission_denied: get issue acme/gadgets#1: Gitea answered 403 Forbidden: token does not have at least one of required scope(s): [read:issue]"},
		{"403 with a wait", 403, http.Header{"Retry-After": {"12"}}, `{"message":"Forbidden"}`,
			"resource_exhausted: get issue acme/gadgets#1: Gitea rate limit: Gitea answered 403 Forbidden; retry after 12000ms"},
		{"429", 429, http.Header{"Retry-After": {"7"}}, `{"message":"rate limit exceeded"}`,
			"resource_exhausted: get issue acme/gadgets#1: Gitea rate limit: Gitea answered 429 Too Many Requests: rate limit exceeded; retry after 7000ms"},
		{"404", 404, nil, giteatest.Fixture("error_404.json"),
			"not_found: get issue acme/gadgets#1: Gitea answered 404 Not Found: The target couldn't be found. (it does not exist, or the credential cannot see it)"},
		{"502", 502, http.Header{"Content-Type": {"text/html"}}, "<html>bad gateway</html>",
			"unavailable: get issue acme/gadgets#1: Gitea answered 502 Bad Gateway"},
	} {
		e.gitea.Inject("GET /repos/acme/gadgets/issues/1", giteatest.Response{Status: f.status, Header: f.header, Body: f.body})
		want(t, f.name, e.fails("forge_get_issue", call), prefix+f.want)
	}
	e.gitea.Inject("GET /repos/acme/gadgets/issues/1", giteatest.Response{Hold: true})
	want(t, "timeout", e.fails("forge_get_issue", call), prefix+"unavailable: get issue acme/gadgets#1: Gitea did not answer within 2s")

	// A write answered with a redirect is not followed, and says so.
	e.gitea.Inject("POST /repos/acme/gadgets/issues/1/comments", giteatest.Response{Status: 301, Header: http.Header{"Location": {"/api/v1/repos/acme/renamed/issues/1/comments"}}})
	n := len(e.gitea.Requests())
	want(t, "301 on POST", e.fails("forge_comment_on_issue", `{`+onGitea+`,"issue_number":1,"body":"x"}`),
		"forge_comment_on_issue failed: failed_precondition: comment on issue acme/gadgets#1: Gitea answered POST with a 301 redirect, which is not followed on writes; nothing was written (was the repository renamed or transferred?)")
	posts := 0
	for _, r := range e.gitea.Requests()[n:] {
		if r.Method == http.MethodPost {
			posts++
		}
	}
	if posts != 1 {
		t.Errorf("the redirect was followed: %d POST requests", posts)
	}
}

// A gateway serving several forges starts while some are down: no forge
// is asked anything at start, and calls to a down forge answer
// unavailable in-band while the others work.
func TestGatewayStartsWithForgesDown(t *testing.T) {
	e := start(t, down("gitlab", "gitea", "forgejo"))
	for _, c := range []struct{ args, forge string }{
		{`{` + onGitLab + `,"issue_number":1}`, "GitLab"},
		{`{` + onGitea + `,"issue_number":1}`, "Gitea"},
		{`{` + onForgejo + `,"issue_number":1}`, "Forgejo"},
	} {
		got := e.fails("forge_get_issue", c.args)
		if !strings.HasPrefix(got, "forge_get_issue failed: unavailable: ") || !strings.Contains(got, c.forge+" unreachable: ") {
			t.Errorf("%s down: %s", c.forge, got)
		}
	}
	if got := e.ok("forge_get_issue", `{`+hello+`,"issue_number":1}`); !strings.Contains(got, "Found a bug") {
		t.Errorf("GitHub beside the down forges:\n%s", got)
	}
}
