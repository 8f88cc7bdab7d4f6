package github

import (
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/providers/internal/rest"
	"github.com/forgetools/forgetools/toolserver"
)

var getIssue1347 = &gatewayv1.GetIssueRequest{Repo: "octocat/Hello-World", IssueNumber: 1347}

// failingGet scripts GET issue #1347 answered with status, headers and body.
func failingGet(status int, header http.Header, reply string) exchange {
	return exchange{method: "GET", path: repoPath + "/issues/1347", accept: acceptReactions, status: status, header: header, reply: reply}
}

func TestErrorsByStatus(t *testing.T) {
	for _, tc := range []struct {
		name      string
		status    int
		reply     string
		code      gatewayv1.ErrorCode
		fragments []string
	}{
		{"bad credentials", 401, "error_401.json", gatewayv1.ErrorCode_ERROR_CODE_UNAUTHENTICATED, []string{"get issue octocat/Hello-World#1347: GitHub answered 401 Unauthorized: Bad credentials", "token"}},
		{"forbidden", 403, "error_403.json", gatewayv1.ErrorCode_ERROR_CODE_PERMISSION_DENIED, []string{"403 Forbidden: Resource not accessible by personal access token"}},
		{"not found", 404, "error_404.json", gatewayv1.ErrorCode_ERROR_CODE_NOT_FOUND, []string{"404 Not Found", "cannot see it"}},
		{"issues disabled", 410, "error_410.json", gatewayv1.ErrorCode_ERROR_CODE_FAILED_PRECONDITION, []string{"410 Gone: Issues are disabled for this repo"}},
		{"validation", 422, "error_422_fields.json", gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT, []string{"422 Unprocessable Entity: Validation Failed: PullRequest.head (invalid); PullRequest.base (invalid)"}},
		{"server error", 500, "", gatewayv1.ErrorCode_ERROR_CODE_UNAVAILABLE, []string{"500 Internal Server Error: Server Error"}},
		{"bad gateway", 502, "error_502.html", gatewayv1.ErrorCode_ERROR_CODE_UNAVAILABLE, []string{"GitHub answered 502 Bad Gateway"}},
		{"unavailable", 503, "", gatewayv1.ErrorCode_ERROR_CODE_UNAVAILABLE, []string{"503 Service Unavailable"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			reply := `{"message":"` + http.StatusText(tc.status) + `"}`
			if tc.status == 500 {
				reply = `{"message":"Server Error"}`
			}
			if tc.reply != "" {
				reply = fixture(t, tc.reply)
			}
			f := newFake(t, failingGet(tc.status, nil, reply))
			_, err := f.provider(t).GetIssue(ctx, noCall, getIssue1347)
			e := wantCode(t, err, tc.code, tc.fragments...)
			if strings.Contains(e.Message, "<") || strings.Contains(e.Message, "documentation_url") || e.RetryAfter != 0 {
				t.Errorf("message %q (retry %s) leaks the body's markup or asks for a wait", e.Message, e.RetryAfter)
			}
		})
	}
}

// rateHeaders are the x-ratelimit-* headers of an exhausted hourly quota
// that resets wait after the fake's clock.
func rateHeaders(f *fakeGitHub, wait time.Duration) http.Header {
	return hdr(
		"X-RateLimit-Limit", "5000",
		"X-RateLimit-Remaining", "0",
		"X-RateLimit-Used", "5000",
		"X-RateLimit-Reset", strconv.FormatInt(f.clock.Add(wait).Unix(), 10),
		"X-RateLimit-Resource", "core",
	)
}

func wantWait(t *testing.T, e *toolserver.Error, want time.Duration) {
	t.Helper()
	if e.RetryAfter != want {
		t.Errorf("RetryAfter = %s, want %s (message %q)", e.RetryAfter, want, e.Message)
	}
}

// GitHub's primary limit is 403 (or 429) with x-ratelimit-remaining: 0; the
// wait is until x-ratelimit-reset. The provider then refuses further calls
// itself until the reset, so the next one never reaches GitHub.
func TestPrimaryRateLimit(t *testing.T) {
	for _, status := range []int{403, 429} {
		t.Run(strconv.Itoa(status), func(t *testing.T) {
			f := newFake(t)
			f.expect(failingGet(status, rateHeaders(f, 30*time.Minute), fixture(t, "rate_limit_primary.json")))
			p := f.provider(t)
			_, err := p.GetIssue(ctx, noCall, getIssue1347)
			e := wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_RESOURCE_EXHAUSTED, "GitHub rate limit exhausted (core: 5000 requests an hour): API rate limit exceeded for user ID 9001")
			wantWait(t, e, 30*time.Minute)

			_, err = p.ListIssues(ctx, noCall, &gatewayv1.ListIssuesRequest{Repo: "octocat/Hello-World"})
			e = wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_RESOURCE_EXHAUSTED, "list issues in octocat/Hello-World", "rate limit")
			wantWait(t, e, 30*time.Minute)
			if n := f.requests(); n != 1 {
				t.Errorf("%d requests reached GitHub, want 1 (the second is pre-empted)", n)
			}
		})
	}
}

// With both signs the longer wait wins.
func TestPrimaryRateLimitWithRetryAfter(t *testing.T) {
	f := newFake(t)
	h := rateHeaders(f, 2*time.Minute)
	h.Set("Retry-After", "10")
	f.expect(failingGet(403, h, fixture(t, "rate_limit_primary.json")))
	_, err := f.provider(t).GetIssue(ctx, noCall, getIssue1347)
	wantWait(t, wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_RESOURCE_EXHAUSTED), 2*time.Minute)
}

// The secondary limit is 403 with GitHub's secondary-rate-limit
// documentation_url and (usually) retry-after; the hourly quota is not out.
func TestSecondaryRateLimit(t *testing.T) {
	f := newFake(t, failingGet(403, hdr("Retry-After", "61"), fixture(t, "rate_limit_secondary.json")))
	p := f.provider(t)
	_, err := p.GetIssue(ctx, noCall, getIssue1347)
	e := wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_RESOURCE_EXHAUSTED, "GitHub secondary rate limit: You have exceeded a secondary rate limit")
	wantWait(t, e, 61*time.Second)

	// The provider remembers the wait and answers the next call itself.
	_, err = p.GetIssue(ctx, noCall, getIssue1347)
	e = wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_RESOURCE_EXHAUSTED, "secondary rate limit")
	wantWait(t, e, 61*time.Second)
	if n := f.requests(); n != 1 {
		t.Errorf("%d requests reached GitHub, want 1", n)
	}
}

func TestSecondaryRateLimitWaits(t *testing.T) {
	for _, tc := range []struct {
		name   string
		status int
		header func(f *fakeGitHub) http.Header
		reply  string
		want   time.Duration
	}{
		// GitHub's guide: no retry-after and quota left: wait at least a minute.
		{"no retry-after", 403, func(*fakeGitHub) http.Header { return nil }, "rate_limit_secondary.json", time.Minute},
		{"429", 429, func(*fakeGitHub) http.Header { return hdr("Retry-After", "45") }, "rate_limit_secondary.json", 45 * time.Second},
		{"http-date", 403, func(f *fakeGitHub) http.Header {
			return hdr("Retry-After", f.clock.Add(90*time.Second).UTC().Format(http.TimeFormat))
		}, "rate_limit_secondary.json", 90 * time.Second},
		// A limit go-github does not recognise (no secondary-rate-limit
		// documentation_url) is still one when the answer names a wait.
		{"bare 429", 429, func(*fakeGitHub) http.Header { return hdr("Retry-After", "30") }, "", 30 * time.Second},
		{"bare 429 without wait", 429, func(*fakeGitHub) http.Header { return nil }, "", time.Minute},
		{"403 with retry-after", 403, func(*fakeGitHub) http.Header { return hdr("Retry-After", "5") }, "error_403.json", 5 * time.Second},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake(t)
			reply := `{"message":"Too Many Requests"}`
			if tc.reply != "" {
				reply = fixture(t, tc.reply)
			}
			f.expect(failingGet(tc.status, tc.header(f), reply))
			_, err := f.provider(t).GetIssue(ctx, noCall, getIssue1347)
			wantWait(t, wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_RESOURCE_EXHAUSTED), tc.want)
		})
	}
}

// A credential never appears in an error, even when the answer echoes it.
func TestErrorsRedactCredentials(t *testing.T) {
	f := newFake(t, exchange{
		method: "POST", path: repoPath + "/pulls/1350/reviews", token: reviewerToken, status: 401,
		body:  `{"event":"APPROVE"}`,
		reply: `{"message":"Bad credentials: ` + reviewerToken + ` and ` + authorToken + `","documentation_url":"https://docs.github.com/rest","status":"401"}`,
	})
	_, err := f.provider(t, withReviewer).SubmitReview(ctx, noCall, &gatewayv1.SubmitReviewRequest{
		Repo: "octocat/Hello-World", PullNumber: 1350, Verdict: gatewayv1.Verdict_VERDICT_APPROVE,
	})
	e := wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_UNAUTHENTICATED, "Bad credentials: [REDACTED] and [REDACTED]")
	if strings.Contains(e.Error(), "ghp_") {
		t.Errorf("message leaks a token: %q", e.Message)
	}
}

func TestUndecodableSuccessIsUnavailable(t *testing.T) {
	f := newFake(t, failingGet(200, hdr("Content-Type", "text/html"), fixture(t, "error_502.html")))
	_, err := f.provider(t).GetIssue(ctx, noCall, getIssue1347)
	wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_UNAVAILABLE, "not the JSON")
}

func TestLongMessagesAreCutOnACharacterBoundary(t *testing.T) {
	long := strings.Repeat("é", rest.MaxMessage)
	f := newFake(t, failingGet(404, nil, `{"message":"`+long+`"}`))
	_, err := f.provider(t).GetIssue(ctx, noCall, getIssue1347)
	e := wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_NOT_FOUND)
	if len(e.Message) > rest.MaxMessage+len("…") || !strings.HasSuffix(e.Message, "é…") {
		t.Errorf("message of %d bytes ends %q", len(e.Message), e.Message[len(e.Message)-8:])
	}
}
