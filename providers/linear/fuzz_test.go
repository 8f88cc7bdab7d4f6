package linear

import (
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	optionsv1 "github.com/forgetools/forgetools/gen/forgetools/options/v1"
	"github.com/forgetools/forgetools/providers/kit"
	"github.com/forgetools/forgetools/toolserver"
)

// FuzzInterpret feeds arbitrary answers (status, body, reset header) to the
// code that reads Linear's responses. Whatever comes back, the result is
// either decoded data or a classified error with a defined code, a bounded
// retry hint, and no credential in its message.
func FuzzInterpret(f *testing.F) {
	f.Add(200, []byte(`{"data":{"issue":null}}`), "")
	f.Add(400, []byte(`{"errors":[{"message":"Rate limit exceeded","extensions":{"code":"RATELIMITED"}}]}`), "1767225642000")
	f.Add(401, []byte(`{"errors":[{"message":"`+testKey+`","extensions":{"type":"authentication error"}}]}`), "")
	f.Add(302, []byte(nil), "")
	f.Add(200, []byte(`{"data":{"issue":{"number":1e400}}}`), "-5")
	p, err := New(Options{Options: kit.Options{Token: testKey}})
	if err != nil {
		f.Fatal(err)
	}
	p.now = func() time.Time { return clock }
	f.Fuzz(func(t *testing.T, status int, body []byte, reset string) {
		status = 100 + int(uint(status)%500)
		h := http.Header{}
		h.Set("X-RateLimit-Requests-Remaining", "0")
		h.Set("X-RateLimit-Requests-Reset", reset)
		h.Set("Location", string(body))
		var out issueAnswer
		err := p.interpret("fuzz", status, h, body, &out)
		if err == nil {
			return
		}
		e, ok := toolserver.AsError(err)
		if !ok {
			t.Fatalf("error %T is not a *toolserver.Error", err)
		}
		if _, defined := optionsv1.ErrorCode_name[int32(e.Code.Number())]; !defined || e.Code == optionsv1.ErrorCode_ERROR_CODE_UNSPECIFIED {
			t.Fatalf("undefined code %v", e.Code)
		}
		if strings.Contains(e.Message, testKey) {
			t.Fatalf("message carries the credential: %q", e.Message)
		}
		if e.RetryAfter < 0 || e.RetryAfter > maxRetry {
			t.Fatalf("RetryAfter %s out of bounds", e.RetryAfter)
		}
		if e.Code == optionsv1.ErrorCode_ERROR_CODE_RESOURCE_EXHAUSTED && e.RetryAfter == 0 && !strings.Contains(e.Message, "usage limit") {
			t.Fatalf("rate limited without a retry hint: %q", e.Message)
		}
	})
}

var canonicalKey = regexp.MustCompile(`^[A-Z0-9_]{1,32}$`)

// FuzzParseTeamKey: a repo is accepted only as a key that can prefix an
// identifier, and it is the repo itself, upper-cased.
func FuzzParseTeamKey(f *testing.F) {
	for _, s := range []string{"ENG", "eng", " ENG ", "acme/widgets", "ENG-1", "", "É", "A_1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, repo string) {
		key, err := parseTeamKey(repo)
		if err != nil {
			e, ok := toolserver.AsError(err)
			if !ok || e.Code != optionsv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT {
				t.Fatalf("rejection %v is not invalid_argument", err)
			}
			return
		}
		if !canonicalKey.MatchString(key) || key != strings.ToUpper(strings.TrimSpace(repo)) {
			t.Fatalf("parseTeamKey(%q) = %q", repo, key)
		}
	})
}
