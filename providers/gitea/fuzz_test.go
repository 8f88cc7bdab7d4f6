package gitea

import (
	"errors"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	optionsv1 "github.com/forgetools/forgetools/gen/forgetools/options/v1"
	"github.com/forgetools/forgetools/internal/redact"
	"github.com/forgetools/forgetools/providers/internal/rest"
)

const fuzzToken = "gitea_fuzzToken000000000000000000000"

// The repo argument comes from the model and goes into URL paths: whatever
// parseRepo accepts must address exactly /repos/owner/name.
func FuzzParseRepo(f *testing.F) {
	for _, s := range []string{"acme/gadgets", "o/n", "../x", "o/..", "o/n?x", "a/b/c", "o/%2e", "o/n#x", ".profile/.profile"} {
		f.Add(s)
	}
	p := &Provider{flavor: Gitea}
	base, _ := url.Parse("https://gitea.example.com/api/v1/")
	f.Fuzz(func(t *testing.T, s string) {
		r, err := p.parseRepo(s)
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
		if u.Host != base.Host || u.Path != "/api/v1/repos/"+s+"/issues" || u.RawQuery != "" || u.Fragment != "" || u.RawPath != "" {
			t.Fatalf("accepted %q, which addresses %s", s, u)
		}
	})
}

// Error answers are untrusted: whatever status, message and headers come
// back (the SDK keeps the body's message, or quotes a body that is not
// JSON), the mapped error has a defined code, a bounded UTF-8 message
// without the credential or a piece of it in any case, and a wait exactly
// when rate limited.
func FuzzErrorAnswer(f *testing.F) {
	f.Add(422, "[Title]: Required", "", "")
	f.Add(429, "rate limit exceeded", "7", "")
	f.Add(403, "Forbidden", "", "1767225600")
	f.Add(403, "token does not have at least one of required scope(s): [write:issue]", "", "")
	f.Add(401, "invalid username, password or token "+fuzzToken, "", "")
	f.Add(401, "token "+strings.ToUpper(fuzzToken)+" or "+fuzzToken[2:20]+" is invalid", "", "")
	f.Add(502, "unknown API error: 502\nRequest: '/api/v1/repos/o/n' with 'GET' method and '<html>\xff</html>' body", "", "")
	f.Add(409, "head out of date", "Wed, 21 Oct 2026 07:28:00 GMT", "")
	p := &Provider{flavor: Forgejo, timeout: time.Second, redactor: redact.New(fuzzToken), now: func() time.Time { return time.Unix(1767225000, 0) }}
	p.errs = p.errorWords()
	f.Fuzz(func(t *testing.T, status int, message, retryAfter, reset string) {
		if status < 300 || status > 999 {
			return
		}
		h := http.Header{}
		if retryAfter != "" {
			h.Set("Retry-After", retryAfter)
		}
		if reset != "" {
			h.Set("X-RateLimit-Reset", reset)
		}
		e := p.mapError("create issue in o/n", &rest.StatusError{Status: status, Header: h, Method: "POST", Err: errors.New(message)})
		if _, ok := optionsv1.ErrorCode_name[int32(e.Code.Number())]; !ok || e.Code == optionsv1.ErrorCode_ERROR_CODE_UNSPECIFIED {
			t.Fatalf("code %v", e.Code)
		}
		if !utf8.ValidString(e.Message) || len(e.Message) > rest.MaxMessage+len("…") || strings.Contains(strings.ToLower(e.Message), strings.ToLower(fuzzToken[4:20])) {
			t.Fatalf("message %q", e.Message)
		}
		limited := e.Code == optionsv1.ErrorCode_ERROR_CODE_RESOURCE_EXHAUSTED
		if limited != (e.RetryAfter > 0) || e.RetryAfter > rest.MaxWait {
			t.Fatalf("code %s with RetryAfter %s", e.Code, e.RetryAfter)
		}
		if status == http.StatusTooManyRequests && !limited {
			t.Fatalf("429 mapped to %s", e.Code)
		}
	})
}
