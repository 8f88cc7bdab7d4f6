package linear

import (
	"bytes"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/providers/kit"
)

// resetIn is a Linear reset header value d after the test clock.
func resetIn(d time.Duration) string {
	return strconv.FormatInt(clock.Add(d).UnixMilli(), 10)
}

// Every failure Linear (or the path to it) can produce, through one read.
func TestErrorMapping(t *testing.T) {
	for _, tc := range []struct {
		name     string
		x        exchange
		code     gatewayv1.ErrorCode
		retry    time.Duration
		contains []string
	}{
		{
			name: "rejected key, HTTP 401",
			x:    exchange{status: 401, response: "error_auth.json"},
			code: gatewayv1.ErrorCode_ERROR_CODE_UNAUTHENTICATED,
			contains: []string{"Linear rejected the credential", "Authentication required, not authenticated",
				"You need to authenticate to access this operation.", "[AUTHENTICATION_ERROR]"},
		},
		{
			name: "rejected key, HTTP 400",
			x:    exchange{status: 400, response: "error_auth.json"},
			code: gatewayv1.ErrorCode_ERROR_CODE_UNAUTHENTICATED,
		},
		{
			name:     "forbidden in errors[]",
			x:        exchange{response: "error_forbidden.json"},
			code:     gatewayv1.ErrorCode_ERROR_CODE_PERMISSION_DENIED,
			contains: []string{"You don't have access to this team."},
		},
		{
			name:     "bare HTTP 403",
			x:        exchange{status: 403, body: "Forbidden"},
			code:     gatewayv1.ErrorCode_ERROR_CODE_PERMISSION_DENIED,
			contains: []string{"HTTP 403"},
		},
		{
			name:     "invalid input",
			x:        exchange{status: 400, response: "error_invalid_input.json"},
			code:     gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT,
			contains: []string{"Argument Validation Error", "title must be shorter"},
		},
		{
			name:     "plan usage limit: exhausted, but no retry hint",
			x:        exchange{status: 400, response: "error_usage_limit.json"},
			code:     gatewayv1.ErrorCode_ERROR_CODE_RESOURCE_EXHAUSTED,
			contains: []string{"usage limit"},
		},
		{
			name:     "query the schema rejects",
			x:        exchange{status: 400, response: "error_graphql_validation.json"},
			code:     gatewayv1.ErrorCode_ERROR_CODE_INTERNAL,
			contains: []string{`Cannot query field "nope"`},
		},
		{
			name: "internal error, HTTP 500",
			x:    exchange{status: 500, response: "error_internal.json"},
			code: gatewayv1.ErrorCode_ERROR_CODE_UNAVAILABLE,
		},
		{
			name: "lock timeout, HTTP 200",
			x:    exchange{response: "error_lock_timeout.json"},
			code: gatewayv1.ErrorCode_ERROR_CODE_UNAVAILABLE,
		},
		{
			name:     "502 from the proxy in front of Linear",
			x:        exchange{status: 502, response: "bad_gateway.html"},
			code:     gatewayv1.ErrorCode_ERROR_CODE_UNAVAILABLE,
			contains: []string{"HTTP 502"},
		},
		{
			name: "503 with no body",
			x:    exchange{status: 503},
			code: gatewayv1.ErrorCode_ERROR_CODE_UNAVAILABLE,
		},
		{
			name:     "no GraphQL endpoint at the URL",
			x:        exchange{status: 404, body: "Not Found"},
			code:     gatewayv1.ErrorCode_ERROR_CODE_FAILED_PRECONDITION,
			contains: []string{"api_url"},
		},
		{
			name:     "200 that is not JSON",
			x:        exchange{body: "<html>maintenance</html>"},
			code:     gatewayv1.ErrorCode_ERROR_CODE_INTERNAL,
			contains: []string{"unreadable response"},
		},
		{
			name:     "data of the wrong shape",
			x:        exchange{body: `{"data":{"issue":{"number":"one hundred"}}}`},
			code:     gatewayv1.ErrorCode_ERROR_CODE_INTERNAL,
			contains: []string{"expected shape"},
		},
		{
			name: "rate limited: request budget spent",
			x: exchange{status: 400, response: "error_ratelimited.json", header: map[string]string{
				"X-RateLimit-Requests-Remaining": "0",
				"X-RateLimit-Requests-Reset":     resetIn(42 * time.Second),
			}},
			code:     gatewayv1.ErrorCode_ERROR_CODE_RESOURCE_EXHAUSTED,
			retry:    42 * time.Second,
			contains: []string{"rate limited", "[RATELIMITED]"},
		},
		{
			name: "rate limited: complexity budget spent, requests left",
			x: exchange{status: 400, response: "error_ratelimited.json", header: map[string]string{
				"X-RateLimit-Requests-Remaining":   "120",
				"X-RateLimit-Requests-Reset":       resetIn(10 * time.Minute),
				"X-RateLimit-Complexity-Remaining": "0",
				"X-RateLimit-Complexity-Reset":     resetIn(90 * time.Second),
			}},
			code:  gatewayv1.ErrorCode_ERROR_CODE_RESOURCE_EXHAUSTED,
			retry: 90 * time.Second,
		},
		{
			name: "rate limited: endpoint budget spent",
			x: exchange{status: 400, response: "error_ratelimited.json", header: map[string]string{
				"X-RateLimit-Endpoint-Name":               "issueCreate",
				"X-RateLimit-Endpoint-Requests-Remaining": "0",
				"X-RateLimit-Endpoint-Requests-Reset":     resetIn(5 * time.Second),
			}},
			code:  gatewayv1.ErrorCode_ERROR_CODE_RESOURCE_EXHAUSTED,
			retry: 5 * time.Second,
		},
		{
			name: "rate limited: no budget reads zero, wait for the latest reset",
			x:    exchange{status: 400, response: "error_ratelimited.json"},
			code: gatewayv1.ErrorCode_ERROR_CODE_RESOURCE_EXHAUSTED,
			// The fake's default headers reset both budgets 10 minutes on.
			retry: 10 * time.Minute,
		},
		{
			name: "rate limited: no usable headers",
			x: exchange{status: 400, response: "error_ratelimited.json", header: map[string]string{
				"X-RateLimit-Requests-Reset": "", "X-RateLimit-Complexity-Reset": "soon",
			}},
			code:  gatewayv1.ErrorCode_ERROR_CODE_RESOURCE_EXHAUSTED,
			retry: defaultRetry,
		},
		{
			name: "rate limited: reset already past",
			x: exchange{status: 400, response: "error_ratelimited.json", header: map[string]string{
				"X-RateLimit-Requests-Remaining": "0",
				"X-RateLimit-Requests-Reset":     resetIn(-time.Minute),
			}},
			code:  gatewayv1.ErrorCode_ERROR_CODE_RESOURCE_EXHAUSTED,
			retry: minRetry,
		},
		{
			name:  "HTTP 429 with Retry-After",
			x:     exchange{status: 429, body: `{"errors":[{"message":"Too many requests"}]}`, header: map[string]string{"Retry-After": "7"}},
			code:  gatewayv1.ErrorCode_ERROR_CODE_RESOURCE_EXHAUSTED,
			retry: 7 * time.Second,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.x.request = "issue_eng_123"
			_, err := newFake(t, tc.x).provider(t).GetIssue(t.Context(), builder, &gatewayv1.GetIssueRequest{Repo: "ENG", IssueNumber: 123})
			e := wantCode(t, err, tc.code)
			if e.RetryAfter != tc.retry {
				t.Errorf("RetryAfter = %s, want %s", e.RetryAfter, tc.retry)
			}
			contains(t, "message", e.Message, append([]string{"linear get issue ENG-123"}, tc.contains...)...)
		})
	}
}

// The caller waits out the hint and the same call then goes through.
func TestRateLimitedThenRetried(t *testing.T) {
	f := newFake(t,
		exchange{request: "issue_eng_123", status: 400, response: "error_ratelimited.json", header: map[string]string{
			"X-RateLimit-Requests-Remaining": "0", "X-RateLimit-Requests-Reset": resetIn(3 * time.Second),
		}},
		exchange{request: "issue_eng_123", response: "issue_eng_123.json"},
	)
	p := f.provider(t)
	req := &gatewayv1.GetIssueRequest{Repo: "ENG", IssueNumber: 123}
	_, err := p.GetIssue(t.Context(), builder, req)
	if e := wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_RESOURCE_EXHAUSTED); e.RetryAfter != 3*time.Second {
		t.Fatalf("RetryAfter = %s, want 3s", e.RetryAfter)
	}
	clock := clock.Add(3 * time.Second)
	p.now = func() time.Time { return clock }
	if got, err := p.GetIssue(t.Context(), builder, req); err != nil || got.GetIdentifier() != "ENG-123" {
		t.Fatalf("retry: got %v, %v", got, err)
	}
}

func TestSlowAnswerTimesOut(t *testing.T) {
	f := newFake(t, exchange{request: "issue_eng_123", hold: true})
	p := f.provider(t, func(o *Options) { o.Timeout = 50 * time.Millisecond })
	_, err := p.GetIssue(t.Context(), builder, &gatewayv1.GetIssueRequest{Repo: "ENG", IssueNumber: 123})
	e := wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_UNAVAILABLE)
	contains(t, "message", e.Message, "did not answer within 50ms (timeout)")
}

// A redirect on POST is reported, never followed: following a 301 or 302
// turns the POST into a GET, and even a 307 would send the credential to
// wherever the answer points.
func TestRedirectIsNotFollowed(t *testing.T) {
	for _, status := range []int{301, 302, 307, 308} {
		t.Run(strconv.Itoa(status), func(t *testing.T) {
			var elsewhere atomic.Int32
			other := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { elsewhere.Add(1) }))
			defer other.Close()
			for _, location := range []string{"/v2/graphql", other.URL + "/graphql"} {
				f := newFake(t, exchange{request: "issue_eng_123", status: status, header: map[string]string{"Location": location}})
				_, err := f.provider(t).GetIssue(t.Context(), builder, &gatewayv1.GetIssueRequest{Repo: "ENG", IssueNumber: 123})
				e := wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_FAILED_PRECONDITION)
				contains(t, "message", e.Message, "HTTP "+strconv.Itoa(status), location, "redirects are not followed")
			}
			if n := elsewhere.Load(); n != 0 {
				t.Errorf("the redirect target received %d requests", n)
			}
		})
	}
}

func TestUnreachable(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close() // nothing listens there any more
	p, err := New(Options{Options: kit.Options{APIURL: url + "/graphql", Token: testKey}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = p.GetIssue(t.Context(), builder, &gatewayv1.GetIssueRequest{Repo: "ENG", IssueNumber: 1})
	e := wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_UNAVAILABLE)
	contains(t, "message", e.Message, "could not reach Linear")
}

// The credential goes out only in the Authorization header: an answer that
// echoes it is redacted from errors, and no log line carries it.
func TestCredentialNeverLeaks(t *testing.T) {
	echo := `{"errors":[{"message":"bad header Authorization: ` + testKey + `","extensions":{"code":"AUTHENTICATION_ERROR","userPresentableMessage":"key ` + testKey + ` is revoked"}}]}`
	f := newFake(t,
		exchange{request: "issue_eng_123", status: 401, body: echo},
		exchange{request: "issue_eng_123", status: 301, header: map[string]string{"Location": "https://evil.example/?k=" + testKey}},
		exchange{request: "issue_eng_123", body: `{"data":{"issue":{"title":["` + testKey + `"]}}}`},
		exchange{request: "issue_eng_123", response: "issue_eng_123.json"},
	)
	var logs bytes.Buffer
	p := f.provider(t, func(o *Options) {
		o.Logger = slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	})
	for i := range 4 {
		_, err := p.GetIssue(t.Context(), builder, &gatewayv1.GetIssueRequest{Repo: "ENG", IssueNumber: 123})
		if i < 3 {
			if err == nil {
				t.Fatalf("call %d: want an error", i)
			}
			if strings.Contains(err.Error(), testKey) {
				t.Errorf("call %d: error carries the credential: %s", i, err)
			}
		}
		if i == 0 {
			contains(t, "message", err.Error(), "[REDACTED]")
		}
	}
	if strings.Contains(logs.String(), testKey) {
		t.Errorf("logs carry the credential:\n%s", logs.String())
	}
	contains(t, "logs", logs.String(), `"msg":"linear request"`, `"op":"get issue ENG-123"`, `"status":401`)
}
