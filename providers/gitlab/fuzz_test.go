package gitlab

import (
	"bytes"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	gl "gitlab.com/gitlab-org/api/client-go"

	optionsv1 "github.com/forgetools/forgetools/gen/forgetools/options/v1"
	"github.com/forgetools/forgetools/internal/redact"
	"github.com/forgetools/forgetools/providers/internal/rest"
)

const fuzzToken = "glpat-fuzzToken000000000000000000000"

// The repo argument comes from the model and becomes one URL-encoded path
// segment: whatever parseRepo accepts must address exactly that project,
// nested groups and all, and nothing else.
func FuzzParseRepo(f *testing.F) {
	for _, s := range []string{"group/project", "a/b/c/d", "a", "../x", "a/../b", "a//b", "a/b?x", "a/b.git", "a/%2e", "_a/b-c.d", "a/b/"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := parseRepo(s)
		if err != nil {
			if !strings.Contains(err.Error(), "namespace/project") {
				t.Fatalf("refusal %v does not say what a project path is", err)
			}
			return
		}
		segs := strings.Split(string(p), "/")
		if len(segs) < 2 || len(segs) > maxDepth {
			t.Fatalf("accepted %q with %d segments", s, len(segs))
		}
		for _, seg := range segs {
			if seg == "" || seg == "." || seg == ".." {
				t.Fatalf("accepted %q with segment %q", s, seg)
			}
		}
		escaped := url.PathEscape(string(p))
		if strings.ContainsAny(escaped, "/?#") {
			t.Fatalf("accepted %q, which escapes to %q", s, escaped)
		}
		if back, err := url.PathUnescape(escaped); err != nil || back != s {
			t.Fatalf("accepted %q, which does not round-trip: %q", s, back)
		}
	})
}

// Error answers are untrusted bytes. Whatever GitLab (or a proxy in its
// place) answers, the mapped error has a defined code, a bounded UTF-8
// message without the credential or a piece of it in any case, and a
// wait exactly when rate limited.
func FuzzErrorAnswer(f *testing.F) {
	f.Add(400, []byte(`{"message":{"title":["can't be blank"]}}`), "", "")
	f.Add(429, []byte("Retry later\n"), "30", "")
	f.Add(429, []byte("Retry later\n"), "", "1767225600")
	f.Add(401, []byte(`{"message":"401 Unauthorized `+fuzzToken+`"}`), "", "")
	f.Add(401, []byte(`{"message":["`+strings.ToUpper(fuzzToken)+`","`+fuzzToken[2:20]+`"]}`), "", "")
	f.Add(502, []byte("<html>Whoops</html>"), "", "")
	f.Add(404, []byte(`{"message":"404 Project Not Found"}`), "", "")
	f.Add(403, []byte(`{"error":"insufficient_scope","error_description":"\xff"}`), "Wed, 21 Oct 2026 07:28:00 GMT", "")
	f.Add(409, []byte(`{"message":["Another open merge request already exists for this source branch: !1"]}`), "", "")
	p := &Provider{timeout: time.Second, redactor: redact.New(fuzzToken), now: func() time.Time { return time.Unix(1767225000, 0) }}
	p.errs = p.errorWords()
	f.Fuzz(func(t *testing.T, status int, body []byte, retryAfter, reset string) {
		if status < 100 || status > 999 {
			return
		}
		req, _ := http.NewRequest("POST", "https://gitlab.com/api/v4/projects/a%2Fb/issues", nil)
		h := http.Header{"Content-Type": {"application/json"}}
		if retryAfter != "" {
			h.Set("Retry-After", retryAfter)
		}
		if reset != "" {
			h.Set("RateLimit-Reset", reset)
		}
		resp := &http.Response{StatusCode: status, Header: h, Body: io.NopCloser(bytes.NewReader(body)), Request: req}
		err := gl.CheckResponse(resp)
		if err == nil {
			return
		}
		e := p.mapError("create issue in a/b", fail(&gl.Response{Response: resp}, err))
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
