package github

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/providers/github/githubtest"
	"github.com/forgetools/forgetools/providers/internal/rest"
	"github.com/forgetools/forgetools/providers/kit"
)

// checkGraphQL checks a GraphQL request of the script: the author's
// credential and the user agent as on REST, a JSON body holding a query
// and exactly the variables ex.body gives, and none of REST's API headers.
func (f *fakeGitHub) checkGraphQL(r githubtest.Request, ex exchange) {
	t := f.t
	if r.Method != ex.method || r.Path != ex.path {
		t.Errorf("request = %s %s, want %s %s", r.Method, r.Path, ex.method, ex.path)
		return
	}
	for k, want := range map[string]string{
		"Authorization": "Bearer " + authorToken, "User-Agent": testUserAgent,
		"Content-Type": "application/json", "Accept": "application/json", "X-GitHub-Api-Version": "",
	} {
		if got := r.Header.Get(k); got != want {
			t.Errorf("POST /graphql: header %s = %q, want %q", k, got, want)
		}
	}
	var body struct {
		Query     string          `json:"query"`
		Variables json.RawMessage `json:"variables"`
	}
	if err := json.Unmarshal(r.Body, &body); err != nil || body.Query == "" {
		t.Fatalf("POST /graphql: body %s is not a GraphQL request (%v)", r.Body, err)
	}
	if !sameJSON(t, body.Variables, []byte(ex.body)) {
		t.Errorf("POST /graphql: variables\n got %s\nwant %s", body.Variables, ex.body)
	}
}

func TestGraphQLURL(t *testing.T) {
	for base, want := range map[string]string{
		"https://api.github.com/":         "https://api.github.com/graphql",
		"https://api.octo.ghe.com/":       "https://api.octo.ghe.com/graphql",
		"https://ghe.example.com/api/v3/": "https://ghe.example.com/api/graphql",
		"http://127.0.0.1:8080/":          "http://127.0.0.1:8080/graphql",
	} {
		u, _ := url.Parse(base)
		if got := graphQLURL(u).String(); got != want {
			t.Errorf("graphQLURL(%s) = %s, want %s", base, got, want)
		}
	}
}

// GitHub's GraphQL errors map to the codes REST answers of the same
// meaning map to, naming the operation and what GitHub said.
func TestGetPullRequestGraphQLErrors(t *testing.T) {
	reset := func(f *fakeGitHub) http.Header {
		return http.Header{"X-Ratelimit-Remaining": {"0"}, "X-Ratelimit-Reset": {strconv.FormatInt(f.clock.Unix()+90, 10)}, "X-Ratelimit-Resource": {"graphql"}}
	}
	for _, c := range []struct {
		name   string
		status int
		reply  string
		header func(*fakeGitHub) http.Header
		code   gatewayv1.ErrorCode
		says   []string
	}{
		{name: "not found", reply: githubtest.Fixture("graphql_not_found.json"), code: gatewayv1.ErrorCode_ERROR_CODE_NOT_FOUND,
			says: []string{"get pull request octocat/Hello-World#1350", "NOT_FOUND", "Could not resolve to a PullRequest"}},
		{name: "forbidden", code: gatewayv1.ErrorCode_ERROR_CODE_PERMISSION_DENIED,
			reply: `{"data":{"repository":null},"errors":[{"type":"FORBIDDEN","path":["repository"],"message":"Resource not accessible by integration"}]}`,
			says:  []string{"FORBIDDEN", "Resource not accessible by integration"}},
		{name: "insufficient scopes", code: gatewayv1.ErrorCode_ERROR_CODE_PERMISSION_DENIED,
			reply: `{"errors":[{"type":"INSUFFICIENT_SCOPES","message":"Your token has not been granted the required scopes to execute this query."}]}`,
			says:  []string{"INSUFFICIENT_SCOPES"}},
		{name: "rate limited", reply: githubtest.Fixture("graphql_rate_limited.json"), header: reset, code: gatewayv1.ErrorCode_ERROR_CODE_RESOURCE_EXHAUSTED,
			says: []string{"GraphQL rate limit exhausted", "API rate limit already exceeded"}},
		{name: "query refused", code: gatewayv1.ErrorCode_ERROR_CODE_INTERNAL,
			reply: `{"errors":[{"path":["query","repository","pullRequest","nope"],"extensions":{"code":"undefinedField"},"message":"Field 'nope' doesn't exist on type 'PullRequest'"}]}`,
			says:  []string{"GitHub refused the query", "Field 'nope' doesn't exist"}},
		{name: "timeout", code: gatewayv1.ErrorCode_ERROR_CODE_UNAVAILABLE,
			reply: `{"data":null,"errors":[{"message":"Something went wrong while executing your query. This may be the result of a timeout, or it could be a GitHub bug."}]}`,
			says:  []string{"timeout"}},
		{name: "partial, reviews failed", code: gatewayv1.ErrorCode_ERROR_CODE_PERMISSION_DENIED,
			reply: `{"data":{"repository":{"pullRequest":{"reviews":null,"reviewThreads":{"nodes":[]},"comments":{"totalCount":0,"nodes":[]},"commits":{"nodes":[]}}}},"errors":[{"type":"FORBIDDEN","path":["repository","pullRequest","reviews"],"message":"no reviews for you"}]}`,
			says:  []string{"no reviews for you"}},
		{name: "bad credentials", status: 401, reply: githubtest.Fixture("error_401.json"), code: gatewayv1.ErrorCode_ERROR_CODE_UNAUTHENTICATED, says: []string{"401"}},
		{name: "outage", status: 502, reply: githubtest.Fixture("error_502.html"), code: gatewayv1.ErrorCode_ERROR_CODE_UNAVAILABLE, says: []string{"502"}},
		{name: "no data, no errors", reply: `{"data":{"repository":{"pullRequest":null}}}`, code: gatewayv1.ErrorCode_ERROR_CODE_NOT_FOUND, says: []string{"no such pull request"}},
		{name: "data null", reply: `{"data":null}`, code: gatewayv1.ErrorCode_ERROR_CODE_NOT_FOUND},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := newFake(t, exchange{method: "GET", path: repoPath + "/pulls/1350", reply: fixture(t, "pull.json")})
			ex := pullQueryRead(1350, c.reply)
			ex.status = c.status
			if c.header != nil {
				ex.header = c.header(f)
			}
			f.expect(ex)
			_, err := f.provider(t).GetPullRequest(ctx, noCall, &gatewayv1.GetPullRequestRequest{Repo: "octocat/Hello-World", PullNumber: 1350})
			e := wantCode(t, err, c.code, c.says...)
			if c.name == "rate limited" && e.RetryAfter.Seconds() != 90 {
				t.Errorf("retry after %s; want GitHub's reset in 90s", e.RetryAfter)
			}
		})
	}
}

// A hostile forge's GraphQL answer: past the size cap, cut off, not JSON,
// of the wrong shape, with nulls where objects belong, or echoing the
// credential. Each is a clear in-band error or a read of what is sound;
// none panics, and no message holds the token.
func TestGetPullRequestHostileGraphQL(t *testing.T) {
	huge := `{"data":{"repository":{"pullRequest":{"comments":{"totalCount":1,"nodes":[{"body":"` + strings.Repeat("x", rest.MaxResponseBytes) + `"}]}}}}}`
	many := make([]string, 500)
	for i := range many {
		many[i] = fmt.Sprintf(`{"url":"u%d","body":"c%d","author":null}`, i, i)
	}
	for _, c := range []struct {
		name, reply string
		code        gatewayv1.ErrorCode // 0: the read succeeds
		check       func(t *testing.T, comments, reviews int, total uint32)
	}{
		{name: "past the cap", reply: huge, code: gatewayv1.ErrorCode_ERROR_CODE_RESOURCE_EXHAUSTED},
		{name: "cut off", reply: `{"data":{"repository":{"pullRequest":{"reviews":{"totalCount":3,"nodes":[`, code: gatewayv1.ErrorCode_ERROR_CODE_UNAVAILABLE},
		{name: "not JSON", reply: `<html>hello</html>`, code: gatewayv1.ErrorCode_ERROR_CODE_UNAVAILABLE},
		{name: "wrong shape", reply: `{"data":{"repository":{"pullRequest":{"reviews":"many"}}}}`, code: gatewayv1.ErrorCode_ERROR_CODE_UNAVAILABLE},
		{name: "errors not a list", reply: `{"errors":{"message":"x"}}`, code: gatewayv1.ErrorCode_ERROR_CODE_UNAVAILABLE},
		{name: "credential echoed", reply: `{"errors":[{"type":"FORBIDDEN","message":"token ` + authorToken + ` is not allowed"}]}`, code: gatewayv1.ErrorCode_ERROR_CODE_PERMISSION_DENIED},
		{name: "nulls everywhere", reply: `{"data":{"repository":{"pullRequest":{"reviews":{"totalCount":2,"nodes":[null,{"state":"APPROVED","author":null,"comments":{"nodes":[null]}}]},"reviewThreads":{"nodes":[null]},"comments":{"totalCount":0,"nodes":[null]},"commits":{"nodes":[null]}}}}}`,
			check: func(t *testing.T, comments, reviews int, _ uint32) {
				if reviews != 1 || comments != 0 {
					t.Errorf("%d reviews %d comments; want the one review that is there", reviews, comments)
				}
			}},
		{name: "ignores first", reply: `{"data":{"repository":{"pullRequest":{"comments":{"totalCount":2,"nodes":[` + strings.Join(many, ",") + `]}}}}}`,
			check: func(t *testing.T, comments, _ int, total uint32) {
				if comments != 30 || total != 500 {
					t.Errorf("%d comments (total %d); want the shown 30 of the 500 sent", comments, total)
				}
			}},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := newFake(t, pullReads(t, "1350", "pull.json", c.reply)...)
			got, err := f.provider(t).GetPullRequest(ctx, noCall, &gatewayv1.GetPullRequestRequest{Repo: "octocat/Hello-World", PullNumber: 1350})
			if c.code != 0 {
				e := wantCode(t, err, c.code, "get pull request octocat/Hello-World#1350")
				if strings.Contains(e.Message, authorToken) || strings.Contains(e.Message, authorToken[4:]) {
					t.Errorf("the message shows the credential: %q", e.Message)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			c.check(t, len(got.GetComments()), len(got.GetReviews()), got.GetCommentsTotal())
		})
	}
}

// On Enterprise Server the query goes to /api/graphql, beside the REST
// root /api/v3 (the fake answers GraphQL nowhere else), with the same
// credential; the read is still two requests.
func TestGetPullRequestOnEnterpriseServer(t *testing.T) {
	srv := githubtest.NewChecked(t, githubtest.Options{Host: "ghe.example.com", PathPrefix: "/api/v3"})
	t.Cleanup(srv.Close)
	srv.AddToken(authorToken, "forgetools-bot")
	srv.AddRepo("octocat/Hello-World", "main", "feature")
	n := srv.AddPull("octocat/Hello-World", githubtest.Pull{Title: "Busy", Head: "feature"})
	srv.Review("octocat/Hello-World", n, "reviewer", "APPROVED", "ship it")
	srv.AddCheckRuns("octocat/Hello-World", n, githubtest.CheckRun{Name: "ci"})
	p, err := New(Options{Options: kit.Options{Host: "ghe.example.com", APIURL: srv.APIURL(), Token: authorToken}})
	if err != nil {
		t.Fatal(err)
	}
	got, err := p.GetPullRequest(ctx, noCall, &gatewayv1.GetPullRequestRequest{Repo: "octocat/Hello-World", PullNumber: uint64(n)})
	if err != nil {
		t.Fatal(err)
	}
	if len(got.GetReviews()) != 1 || got.GetReviews()[0].GetVerdict() != "approve" || got.GetChecksState() != "success" ||
		!strings.HasPrefix(got.GetReviews()[0].GetUrl(), "https://ghe.example.com/") {
		t.Errorf("reviews %v checks %q; want one approval and success", got.GetReviews(), got.GetChecksState())
	}
	if r := srv.Requests(); len(r) != 2 || r[1].Path != "/graphql" || r[1].Header.Get("Authorization") != "Bearer "+authorToken {
		t.Errorf("requests %d; want the pull request and one query with the author's credential", len(r))
	}
}

// Once the login's GraphQL quota is used up the fake answers RATE_LIMITED
// with HTTP 200 and x-ratelimit-remaining 0, as GitHub does: the read is
// resource_exhausted with the wait until the quota's reset.
func TestGetPullRequestGraphQLQuotaExhausted(t *testing.T) {
	srv, p := stateful(t)
	n := srv.AddPull("octocat/Hello-World", githubtest.Pull{Title: "Busy", Head: "feature"})
	srv.SetGraphQLQuota("forgetools-bot", 0)
	_, err := p.GetPullRequest(ctx, noCall, &gatewayv1.GetPullRequestRequest{Repo: "octocat/Hello-World", PullNumber: uint64(n)})
	e := wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_RESOURCE_EXHAUSTED, "GraphQL rate limit exhausted")
	if e.RetryAfter.Minutes() != 40 {
		t.Errorf("retry after %s; want the fake's reset, 40 minutes on", e.RetryAfter)
	}
}

// The query goes through the credential's rate gate like any REST call: a
// secondary limit answered to it is resource_exhausted with GitHub's wait,
// and the next read is refused before anything is sent.
func TestGetPullRequestGraphQLClosesTheRateGate(t *testing.T) {
	f := newFake(t, exchange{method: "GET", path: repoPath + "/pulls/1350", reply: fixture(t, "pull.json")})
	ex := pullQueryRead(1350, fixture(t, "rate_limit_secondary.json"))
	ex.status, ex.header = 403, http.Header{"Retry-After": {"30"}}
	f.expect(ex)
	p := f.provider(t)
	req := &gatewayv1.GetPullRequestRequest{Repo: "octocat/Hello-World", PullNumber: 1350}
	_, err := p.GetPullRequest(ctx, noCall, req)
	if e := wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_RESOURCE_EXHAUSTED); e.RetryAfter.Seconds() != 30 {
		t.Errorf("retry after %s, want 30s", e.RetryAfter)
	}
	_, err = p.GetPullRequest(ctx, noCall, req)
	wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_RESOURCE_EXHAUSTED, "not calling GitHub again")
	if n := f.requests(); n != 2 {
		t.Errorf("%d requests; the read after the limit sent something", n)
	}
}
