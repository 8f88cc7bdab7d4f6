package github

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	gh "github.com/google/go-github/v84/github"

	optionsv1 "github.com/forgetools/forgetools/gen/forgetools/options/v1"
	"github.com/forgetools/forgetools/internal/redact"
	"github.com/forgetools/forgetools/providers/internal/rest"
	"github.com/forgetools/forgetools/providers/kit"
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
	f.Add(401, []byte(`{"message":"Bad credentials `+strings.ToUpper(authorToken)+`","errors":[{"message":"`+authorToken[:20]+`"}]}`), "", "", "")
	f.Add(502, []byte("<html>Unicorn!</html>"), "", "", "")
	f.Add(301, []byte(`{"message":"Moved Permanently"}`), "", "", "")
	f.Add(404, []byte(`{"message":"\xff\xfe","errors":["a","b"]}`), "Wed, 21 Oct 2026 07:28:00 GMT", "", "")
	p := &Provider{timeout: time.Second, redactor: redact.New(authorToken), now: func() time.Time { return time.Unix(1767225000, 0) }}
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
		if _, ok := optionsv1.ErrorCode_name[int32(e.Code.Number())]; !ok || e.Code == optionsv1.ErrorCode_ERROR_CODE_UNSPECIFIED {
			t.Fatalf("code %v", e.Code)
		}
		if !utf8.ValidString(e.Message) || len(e.Message) > rest.MaxMessage+len("…") || strings.Contains(strings.ToLower(e.Message), strings.ToLower(authorToken[4:20])) {
			t.Fatalf("message %q", e.Message)
		}
		if (e.Code == optionsv1.ErrorCode_ERROR_CODE_RESOURCE_EXHAUSTED) != (e.RetryAfter > 0) || e.RetryAfter < 0 {
			t.Fatalf("code %s with RetryAfter %s", e.Code, e.RetryAfter)
		}
	})
}

// A file path comes from the model and goes into URL paths: whatever
// parsePath accepts, escaped, must address exactly that file under
// /contents/ on the API host.
func FuzzParsePath(f *testing.F) {
	for _, s := range []string{"README.md", "/docs/a b#c?.md", "a/../b", "a//b", "%2e%2e/x", "é/ü.txt", "a\x00b", "./x", "x/."} {
		f.Add(s)
	}
	base, _ := url.Parse("https://api.github.com/")
	f.Fuzz(func(t *testing.T, s string) {
		p, err := parsePath(s, false)
		if err != nil {
			return
		}
		u, err := base.Parse("repos/o/n/contents/" + escapePath(p))
		if err != nil {
			t.Fatalf("accepted %q but it does not make a URL: %v", s, err)
		}
		if u.Host != base.Host || u.Path != "/repos/o/n/contents/"+p || u.RawQuery != "" || u.Fragment != "" {
			t.Fatalf("accepted %q, which addresses %s (path %q)", s, u, u.Path)
		}
	})
}

// A job log is untrusted bytes. Whatever it holds, its tail is valid UTF-8
// within the cap, with no control character but tab and newline.
func FuzzTailText(f *testing.F) {
	f.Add([]byte("\ufeff2026-11-29T08:15:10.1234567Z \x1b[31mFAIL\x1b[0m\r\n"), false)
	f.Add([]byte("partial\nline\n\n"), true)
	f.Add([]byte("\xff\xfe\x00\x07\u202e"), false)
	f.Add([]byte(strings.Repeat("é", 2000)), true)
	f.Fuzz(func(t *testing.T, log []byte, cut bool) {
		got := tailText(log, cut)
		if !utf8.ValidString(got) || utf8.RuneCountInString(got) > logTailRunes {
			t.Fatalf("tail of %d runes, valid %v", utf8.RuneCountInString(got), utf8.ValidString(got))
		}
		for _, r := range got {
			if r != '\n' && r != '\t' && (r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0)) {
				t.Fatalf("control character %U in %q", r, got)
			}
		}
	})
}

// Webhook deliveries arrive from the network. Authenticate accepts exactly
// the deliveries signed with the secret; whatever an authenticated body
// holds, Read returns well-formed reports (a kind, a number, changes with
// a type and a key) or an error, and never panics.
func FuzzWebhook(f *testing.F) {
	const secret = "It's a Secret to Everybody"
	f.Add("issue_comment", []byte(`{"action":"created","issue":{"number":1},"comment":{"id":7,"body":"hi","user":{"login":"u"}},"repository":{"full_name":"o/n"}}`), "")
	f.Add("pull_request", []byte(`{"action":"closed","number":2,"pull_request":{"merged":true},"repository":{"full_name":"o/n"}}`), "sha256=00")
	f.Add("check_run", []byte(`{"action":"completed","check_run":{"pull_requests":[{"number":2,"head":{"sha":"abc"}}]},"repository":{"full_name":"o/n"}}`), "sha1=xyz")
	f.Add("ping", []byte(`{"zen":"z","repository":{"full_name":"../.."}}`), "")
	p, err := New(Options{Options: kit.Options{APIURL: "http://127.0.0.1:1/", Token: authorToken, Timeout: 50 * time.Millisecond, Logger: discard()}})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, event string, body []byte, signature string) {
		h := http.Header{}
		h.Set("X-GitHub-Event", event)
		h.Set("X-GitHub-Delivery", "d-1")
		if signature != "" {
			h.Set("X-Hub-Signature-256", signature)
		}
		if _, err := p.Authenticate(h, body, []byte(secret)); err == nil && signature != sign(body, secret) {
			t.Fatalf("accepted signature %q for a body signed %q", signature, sign(body, secret))
		}
		h.Set("X-Hub-Signature-256", sign(body, secret))
		if id, err := p.Authenticate(h, body, []byte(secret)); err != nil || id != "d-1" {
			t.Fatalf("refused a signed delivery: %v", err)
		}
		d, err := p.Read(context.Background(), h, body)
		if err != nil {
			return
		}
		for _, r := range d.Reports {
			if r.Number == 0 && len(r.Changes) > 0 && r.Kind == "" {
				t.Fatalf("report without an artifact: %+v", r)
			}
			for _, c := range r.Changes {
				if c.Key == "" || c.Event.GetType() == 0 {
					t.Fatalf("change without a key or type: %+v", c)
				}
			}
		}
	})
}

func sign(body []byte, secret string) string {
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write(body)
	return "sha256=" + hex.EncodeToString(mac.Sum(nil))
}

func discard() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }
