package forges_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/forgetools/forgetools/internal/testkit"
	"github.com/forgetools/forgetools/providers/github/githubtest"
	"github.com/forgetools/forgetools/providers/linear/lineartest"
)

// A hostile forge echoes the credential the gateway sent it, in every form
// testkit.Echoes lists: in GitHub's error message and errors[] entries, in
// Linear's error message and userPresentableMessage, and in an issue body
// a read returns. None of it reaches the model or the gateway's log: the
// checks below, and the cleanup's, look for any piece of the credential
// eight bytes long, in any case and encoding.
func TestEchoedCredentialsAreRedacted(t *testing.T) {
	e := start(t)
	// A read first, so an issue body can quote every form at once.
	var quoted []string
	for name, echo := range testkit.Echoes(authorToken) {
		quoted = append(quoted, name+": "+echo)
	}
	slices.Sort(quoted)
	n := e.github.AddIssue("octocat/Hello-World", githubtest.Issue{Title: "Token pasted here", Body: strings.Join(quoted, "\n")})
	got := e.ok("forge_get_issue", fmt.Sprintf(`{`+hello+`,"issue_number":%d}`, n))
	places, redacted := 0, 0
	count := func(text string, secret string, forms int) {
		places += forms
		if testkit.Leak(secret, text) == "" {
			redacted += forms
		}
	}
	count(got, authorToken, len(quoted))
	if strings.Count(got, "[REDACTED]") < len(quoted) {
		t.Errorf("the issue body's credentials were not all replaced:\n%s", got)
	}

	names := slices.Sorted(func(yield func(string) bool) {
		for name := range testkit.Echoes(authorToken) {
			if !yield(name) {
				return
			}
		}
	})
	for _, name := range names {
		gh := testkit.Echoes(authorToken)[name]
		body, _ := json.Marshal(map[string]any{
			"message":           "Bad credentials: " + gh,
			"errors":            []map[string]string{{"resource": "Token", "code": "invalid", "message": "token " + gh + " is revoked"}},
			"documentation_url": "https://docs.github.com/rest",
		})
		e.github.Inject(issue1, githubtest.Response{Status: 401, Body: string(body)})
		text := e.fails("forge_get_issue", `{`+hello+`,"issue_number":1}`)
		if !strings.HasPrefix(text, "forge_get_issue failed: unauthenticated: ") || !strings.Contains(text, "[REDACTED]") {
			t.Errorf("GitHub echo %s: %s", name, text)
		}
		count(text, authorToken, 2)

		lin := linearKey
		le := testkit.Echoes(lin)[name]
		lbody, _ := json.Marshal(map[string]any{"data": nil, "errors": []any{map[string]any{
			"message": "Authentication required: " + le,
			"extensions": map[string]any{"type": "authentication error", "code": "AUTHENTICATION_ERROR",
				"userPresentableMessage": "Your key " + le + " is not valid"},
		}}})
		e.linear.Inject("issues", lineartest.Response{Status: 400, Body: string(lbody)})
		text = e.fails("forge_list_issues", `{`+eng+`}`)
		if !strings.HasPrefix(text, "forge_list_issues failed: unauthenticated: ") || !strings.Contains(text, "[REDACTED]") {
			t.Errorf("Linear echo %s: %s", name, text)
		}
		count(text, lin, 2)
	}
	t.Logf("credential encodings redacted: %d of %d (%d forms, in a GitHub body, GitHub and Linear errors)", redacted, places, len(names))
	if redacted != places {
		t.Errorf("%d of %d echoes leaked", places-redacted, places)
	}
}
