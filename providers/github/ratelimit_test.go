package github

import (
	"net/http"
	"strconv"
	"sync"
	"testing"
	"time"

	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/providers/github/githubtest"
	"github.com/forgetools/forgetools/providers/internal/rest"
	"github.com/forgetools/forgetools/providers/kit"
)

// okIssue1347 are the two requests of a successful read of issue #1347.
func okIssue1347(t *testing.T) []exchange {
	return []exchange{
		{method: "GET", path: repoPath + "/issues/1347", accept: acceptReactions, reply: fixture(t, "issue.json")},
		{method: "GET", path: repoPath + "/issues/1347/comments", query: q("per_page", "30"), accept: acceptReactions, reply: fixture(t, "issue_comments.json")},
	}
}

// One 403 whose x-ratelimit-reset lies years ahead must not silence the
// forge until a restart: the provider believes at most an hour of it, asks
// GitHub again once that hour is over, and a success ends the limit.
func TestBogusRateLimitResetIsClamped(t *testing.T) {
	f := newFake(t)
	f.expect(failingGet(403, rateHeaders(f, 10*365*24*time.Hour), fixture(t, "rate_limit_primary.json")))
	p := f.provider(t)
	_, err := p.GetIssue(ctx, noCall, getIssue1347)
	wantWait(t, wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_RESOURCE_EXHAUSTED, "rate limit"), rest.MaxWait)

	// Within the hour the provider answers for GitHub, never with more
	// than what is left of the hour.
	f.clock = f.clock.Add(20 * time.Minute)
	_, err = p.GetIssue(ctx, noCall, getIssue1347)
	wantWait(t, wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_RESOURCE_EXHAUSTED, "rate limit"), 40*time.Minute)
	if n := f.requests(); n != 1 {
		t.Fatalf("%d requests reached GitHub within the hour, want 1", n)
	}

	// After it, the next call goes to GitHub, and succeeds.
	f.clock = f.clock.Add(41 * time.Minute)
	f.expect(okIssue1347(t)...)
	if _, err := p.GetIssue(ctx, noCall, getIssue1347); err != nil {
		t.Fatalf("after the clamped hour: %v", err)
	}
	// The success ended the limit: the clock is still years before the
	// bogus reset, and calls go through.
	f.expect(okIssue1347(t)...)
	if _, err := p.GetIssue(ctx, noCall, getIssue1347); err != nil {
		t.Fatalf("after a success: %v", err)
	}
}

// A rate limit answered to one request, while another was in flight: the
// other's success, arriving later, shows GitHub is answering again, so the
// next call goes to GitHub instead of being refused for the limit's hour.
func TestSuccessClearsRateLimit(t *testing.T) {
	srv := githubtest.NewChecked(t, githubtest.Options{})
	t.Cleanup(srv.Close)
	srv.AddToken(authorToken, "octocat")
	srv.AddRepo("octocat/Hello-World", "main")
	srv.AddIssue("octocat/Hello-World", githubtest.Issue{Title: "slow"})
	srv.AddIssue("octocat/Hello-World", githubtest.Issue{Title: "limited"})
	p, err := New(Options{Options: kit.Options{APIURL: srv.APIURL(), Token: authorToken}})
	if err != nil {
		t.Fatal(err)
	}
	p.now = srv.Clock

	release := make(chan struct{})
	srv.Delay("GET /repos/octocat/Hello-World/issues/1", release)
	srv.Inject("GET /repos/octocat/Hello-World/issues/2", githubtest.Response{Status: 403, Body: githubtest.Fixture("rate_limit_primary.json"),
		Header: http.Header{"X-Ratelimit-Remaining": {"0"}, "X-Ratelimit-Reset": {strconv.FormatInt(srv.Clock().Add(30*time.Minute).Unix(), 10)}}})

	var wg sync.WaitGroup
	var slowErr error
	wg.Go(func() {
		_, slowErr = p.GetIssue(ctx, noCall, &gatewayv1.GetIssueRequest{Repo: "octocat/Hello-World", IssueNumber: 1})
	})
	for len(srv.Requests()) == 0 { // the slow read is at GitHub
		time.Sleep(time.Millisecond)
	}
	_, err = p.GetIssue(ctx, noCall, &gatewayv1.GetIssueRequest{Repo: "octocat/Hello-World", IssueNumber: 2})
	wantWait(t, wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_RESOURCE_EXHAUSTED), 30*time.Minute)
	close(release)
	wg.Wait()
	if slowErr != nil {
		t.Fatalf("the slow read: %v", slowErr)
	}
	before := len(srv.Requests())
	if _, err := p.GetIssue(ctx, noCall, &gatewayv1.GetIssueRequest{Repo: "octocat/Hello-World", IssueNumber: 2}); err != nil {
		t.Fatalf("after a success: %v", err)
	}
	if len(srv.Requests()) == before {
		t.Fatal("the read after a success never reached GitHub")
	}
}
