package github

import (
	"bytes"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	gh "github.com/google/go-github/v84/github"

	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/providers/internal/rest"
)

// The repo argument comes from the model and goes into URL paths: whatever
// parseRepo accepts must address exactly /repos/owner/name on the API host.
func FuzzParseRepo(f *testing.F) {
	for _, s := range []string{"octocat/Hello-World", "o/n", "../x", "o/..", "o/n?x", "a/b/c", "o/%2e", "o/n#x", ".github/.github"} {
		f.Add(s)
	}
	base, _ := url.Parse("https://api.github.com/")
	f.Fuzz(func(t *testing.T, s string) {
		r, err := parseRepo(s)
		if err != nil {
			if !strings.Contains(err.Error(), "owner/name") {
				t.Fatalf("refusal %v does not say what a repo is", err)
			}
			return
		}
		u, err := base.Parse("repos/" + r.owner + "/" + r.name + "/issues")
		if err != nil {
			t.Fatalf("accepted %q but it does not make a URL: %v", s, err)
		}
		if u.Host != base.Host || u.Path != "/repos/"+s+"/issues" || u.RawQuery != "" || u.Fragment != "" || u.RawPath != "" {
			t.Fatalf("accepted %q, which addresses %s", s, u)
		}
	})
}

// Error answers are untrusted bytes. Whatever GitHub (or something in its
// place) answers, the mapped error has a defined code, a bounded UTF-8
// message without the credential, and a sane wait.
func FuzzErrorAnswer(f *testing.F) {
	f.Add(422, []byte(`{"message":"Validation Failed","errors":[{"resource":"Issue","field":"title","code":"missing_field"}]}`), "", "4999", "")
	f.Add(403, []byte(`{"message":"x","documentation_url":"https://docs.github.com/rest#secondary-rate-limits"}`), "30", "4999", "")
	f.Add(429, []byte(`{"message":"API rate limit exceeded"}`), "", "0", "1767225600")
	f.Add(401, []byte(`{"message":"Bad credentials `+authorToken+`"}`), "", "", "")
	f.Add(502, []byte("<html>Unicorn!</html>"), "", "", "")
	f.Add(301, []byte(`{"message":"Moved Permanently"}`), "", "", "")
	f.Add(404, []byte(`{"message":"\xff\xfe","errors":["a","b"]}`), "Wed, 21 Oct 2026 07:28:00 GMT", "", "")
	p := &Provider{timeout: time.Second, secrets: []string{authorToken}, now: func() time.Time { return time.Unix(1767225000, 0) }}
	f.Fuzz(func(t *testing.T, status int, body []byte, retryAfter, remaining, reset string) {
		if status < 100 || status > 999 {
			return
		}
		req, _ := http.NewRequest("POST", "https://api.github.com/repos/o/n/issues", nil)
		h := http.Header{"Content-Type": {"application/json"}}
		for k, v := range map[string]string{"Retry-After": retryAfter, gh.HeaderRateRemaining: remaining, gh.HeaderRateReset: reset} {
			if v != "" {
				h.Set(k, v)
			}
		}
		resp := &http.Response{StatusCode: status, Header: h, Body: io.NopCloser(bytes.NewReader(body)), Request: req}
		err := gh.CheckResponse(resp)
		if err == nil {
			return
		}
		e := p.mapError("create issue in o/n", err)
		if _, ok := gatewayv1.ErrorCode_name[int32(e.Code)]; !ok || e.Code == gatewayv1.ErrorCode_ERROR_CODE_UNSPECIFIED {
			t.Fatalf("code %v", e.Code)
		}
		if !utf8.ValidString(e.Message) || len(e.Message) > rest.MaxMessage+len("…") || strings.Contains(e.Message, authorToken) {
			t.Fatalf("message %q", e.Message)
		}
		if (e.Code == codeExhausted) != (e.RetryAfter > 0) || e.RetryAfter < 0 {
			t.Fatalf("code %s with RetryAfter %s", e.Code, e.RetryAfter)
		}
	})
}
