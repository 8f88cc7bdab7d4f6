package rest

import (
	"encoding/base64"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	optionsv1 "github.com/forgetools/forgetools/gen/forgetools/options/v1"
	"github.com/forgetools/forgetools/internal/redact"
	"github.com/forgetools/forgetools/toolserver"
)

var now = time.Unix(1767225000, 0)

// token is a credential shaped like GitLab's.
const token = "glpat-Xq3vR8kT2mW9pL4nB7cZ"

func TestAPIURLRefusals(t *testing.T) {
	for raw, want := range map[string]string{
		"https://user:pw@gitlab.example.com/api/v4": "no credentials",
		"http://gitlab.example.com/api/v4":          "plain http",
		"ftp://gitlab.example.com/":                 "scheme must be https",
		"https://gitlab.example.com/api?x=1":        "no credentials, query or fragment",
		"://nope":                                   "not a URL",
		"https://user:pw@gitlab.example.com/%zz":    "not a URL",
		"/api/v4":                                   "scheme://host",
	} {
		_, err := APIURL(raw)
		if err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "pw@") {
			t.Errorf("APIURL(%q) = %v, want %q and no credentials", raw, err, want)
		}
	}
	u, err := APIURL("http://127.0.0.1:3000/api/v1")
	if err != nil || u.String() != "http://127.0.0.1:3000/api/v1/" {
		t.Errorf("loopback = %v, %v", u, err)
	}
	if _, err := Host("https://gitea.com", "gitea.com"); err == nil {
		t.Error("Host accepted a URL")
	}
	if h, err := Host(" Git.Example.com:3000 ", "gitea.com"); err != nil || h != "git.example.com:3000" {
		t.Errorf("Host = %q, %v", h, err)
	}
}

func TestWaits(t *testing.T) {
	h := http.Header{"Retry-After": {"42"}}
	if d, ok := RetryAfter(h, now); !ok || d != 42*time.Second {
		t.Errorf("seconds: %v %v", d, ok)
	}
	h.Set("Retry-After", now.Add(90*time.Second).UTC().Format(http.TimeFormat))
	if d, ok := RetryAfter(h, now); !ok || d != 90*time.Second {
		t.Errorf("date: %v %v", d, ok)
	}
	if _, ok := RetryAfter(http.Header{"Retry-After": {"soon"}}, now); ok {
		t.Error("a garbled Retry-After counts")
	}
	if d, ok := ResetWait(http.Header{"Ratelimit-Reset": {"1767225030"}}, "RateLimit-Reset", now); !ok || d != 30*time.Second {
		t.Errorf("reset: %v %v", d, ok)
	}
	// A garbled header can neither overflow (time.Unix of a huge value
	// lands in the past: no wait at all) nor ask for more than MaxWait.
	for _, huge := range []string{"9223372036854775807", "99999999999999"} {
		if d, ok := ResetWait(http.Header{"Ratelimit-Reset": {huge}}, "RateLimit-Reset", now); !ok || d != MaxWait {
			t.Errorf("reset %s: %v %v, want %v", huge, d, ok, MaxWait)
		}
	}
	for _, huge := range []string{"9223372036854775807", "36000", "Fri, 31 Dec 9999 23:59:59 GMT"} {
		if d, ok := RetryAfter(http.Header{"Retry-After": {huge}}, now); !ok || d != MaxWait {
			t.Errorf("Retry-After %s: %v %v, want %v", huge, d, ok, MaxWait)
		}
	}
	if d, ok := RetryAfter(http.Header{"Retry-After": {"-5"}}, now); !ok || d != 0 {
		t.Errorf("a negative Retry-After: %v %v", d, ok)
	}
	for in, want := range map[time.Duration]time.Duration{0: time.Minute, -time.Second: time.Minute, 1500 * time.Millisecond: 2 * time.Second, 5 * time.Hour: time.Hour} {
		if e := Limited("x", in); e.RetryAfter != want || e.Code != optionsv1.ErrorCode_ERROR_CODE_RESOURCE_EXHAUSTED {
			t.Errorf("Limited(%v) = %v", in, e.RetryAfter)
		}
	}
}

func TestCleanAndText(t *testing.T) {
	r := redact.New(token, "")
	msg := Clean("token "+token+" in "+strings.Repeat("é", MaxMessage)+"\xff", r)
	if strings.Contains(msg, token) || !utf8.ValidString(msg) || len(msg) > MaxMessage+len("…") || !strings.HasSuffix(msg, "…") {
		t.Errorf("Clean: %d bytes, %q...", len(msg), msg[:30])
	}
	// Not only the literal credential: its case changed, a piece of it,
	// its base64 (an echoed Authorization: Basic header).
	for _, echo := range []string{strings.ToUpper(token), token[3:17], base64.StdEncoding.EncodeToString([]byte(token))} {
		if got := Clean("said "+echo, r); got != "said "+redact.Marker {
			t.Errorf("Clean(%q) = %q", echo, got)
		}
	}
	if _, binary, _ := FileText([]byte("a\x00b")); !binary {
		t.Error("NUL is text")
	}
	if _, binary, _ := FileText([]byte{0xff, 0xfe}); !binary {
		t.Error("invalid UTF-8 is text")
	}
	text, _, cut := FileText([]byte(strings.Repeat("é", MaxFileText)))
	if !cut || len(text) > MaxFileText || !utf8.ValidString(text) {
		t.Errorf("FileText cut %v, %d bytes", cut, len(text))
	}
	log := strings.Repeat("line\n", MaxLogTail) + "FAIL: at the end\n"
	if tail := LogTail([]byte(log)); len(tail) > MaxLogTail || !strings.HasPrefix(tail, "line\n") || !strings.HasSuffix(tail, "FAIL: at the end") {
		t.Errorf("LogTail: %d bytes ending %q", len(tail), tail[len(tail)-20:])
	}
}

// A Forge maps by status, keeps handler errors, and says what it can
// about transport failures.
func TestForgeMap(t *testing.T) {
	f := &Forge{Name: "Example", Timeout: time.Second, Redactor: redact.New(token), ResetHeader: "RateLimit-Reset",
		LimitNameHeader: "RateLimit-Name", Moved: "renamed?", Detail: func(err error) string { return err.Error() }, Now: func() time.Time { return now }}
	req, _ := http.NewRequest("POST", "https://example.com/x", nil)
	answer := func(status int, h http.Header, msg string) error {
		return WithResponse(&http.Response{StatusCode: status, Header: h, Request: req}, errors.New(msg))
	}
	for _, c := range []struct {
		err  error
		code toolserver.Code
		want string
	}{
		{answer(401, nil, "bad "+token), optionsv1.ErrorCode_ERROR_CODE_UNAUTHENTICATED, "op: Example answered 401 Unauthorized: bad [REDACTED] (the configured token is missing, expired or revoked)"},
		{answer(401, nil, "bad "+strings.ToUpper(token[:12])), optionsv1.ErrorCode_ERROR_CODE_UNAUTHENTICATED, "op: Example answered 401 Unauthorized: bad [REDACTED] (the configured token is missing, expired or revoked)"},
		{answer(429, http.Header{"Ratelimit-Reset": {"1767225010"}, "Ratelimit-Name": {"api"}}, "slow down"), optionsv1.ErrorCode_ERROR_CODE_RESOURCE_EXHAUSTED, "op: Example rate limit api: Example answered 429 Too Many Requests: slow down"},
		{answer(308, nil, ""), optionsv1.ErrorCode_ERROR_CODE_FAILED_PRECONDITION, "op: Example answered POST with a 308 redirect, which is not followed on writes; nothing was written (renamed?)"},
		{answer(409, nil, "head moved"), optionsv1.ErrorCode_ERROR_CODE_FAILED_PRECONDITION, "op: Example answered 409 Conflict: head moved"},
		{answer(503, nil, "503 Service Unavailable"), optionsv1.ErrorCode_ERROR_CODE_UNAVAILABLE, "op: Example answered 503 Service Unavailable"},
		{toolserver.Errorf(optionsv1.ErrorCode_ERROR_CODE_NOT_FOUND, "as is"), optionsv1.ErrorCode_ERROR_CODE_NOT_FOUND, "as is"},
		// An operation's own words quoting the forge are cleaned too.
		{toolserver.Errorf(optionsv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT, "the forge said %s", token), optionsv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT, "the forge said [REDACTED]"},
		{&EgressError{Target: "https://evil", Pinned: "https://example.com"}, optionsv1.ErrorCode_ERROR_CODE_FAILED_PRECONDITION, "op: refused a request to https://evil: this forge is pinned to https://example.com"},
	} {
		e := f.Map("op", c.err)
		if e.Code != c.code || e.Message != c.want {
			t.Errorf("Map(%v) = %s %q, want %s %q", c.err, e.Code, e.Message, c.code, c.want)
		}
	}
	if e := f.Map("op", answer(429, nil, "x")); e.RetryAfter != UnspecifiedWait {
		t.Errorf("a limit naming no wait waits %v", e.RetryAfter)
	}
	if Status(answer(404, nil, "x")) != 404 || Status(errors.New("x")) != 0 {
		t.Error("Status")
	}
}
