package githubtest

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/forgetools/forgetools/providers/github/githubtest/openapi"
)

// recordingT is a testing.TB whose Errorf and Cleanup a test can read and
// run, so a test can see what NewChecked would fail its test with.
type recordingT struct {
	testing.TB
	errs     []string
	cleanups []func()
}

func (r *recordingT) Helper()                   {}
func (r *recordingT) Cleanup(f func())          { r.cleanups = append(r.cleanups, f) }
func (r *recordingT) Errorf(f string, a ...any) { r.errs = append(r.errs, fmt.Sprintf(f, a...)) }

// finish runs the cleanups, as the end of a test does, and returns the
// failures reported since the last finish (NewChecked's cleanup reports
// each failure once).
func (r *recordingT) finish() []string {
	for i := len(r.cleanups) - 1; i >= 0; i-- {
		r.cleanups[i]()
	}
	errs := r.errs
	r.errs = nil
	return errs
}

// checkedFake is a seeded fake held to the description, reporting to a
// recordingT; it skips only where the descriptions are not installed and
// not required.
func checkedFake(t *testing.T, o Options) (*Server, *recordingT) {
	t.Helper()
	if _, err := openapi.Dotcom(); err == openapi.ErrMissing && os.Getenv(openapi.EnvRequire) != "1" {
		t.Skip(err)
	}
	rt := &recordingT{TB: t}
	s := NewChecked(rt, o)
	t.Cleanup(s.Close)
	s.AddToken(token, "forgetools-bot")
	s.AddRepo("octocat/Hello-World", "main")
	s.AddIssue("octocat/Hello-World", Issue{Title: "Found a bug", Labels: []string{"bug"}})
	return s, rt
}

func wantFailures(t *testing.T, got []string, want ...[]string) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("failures = %d, want %d:\n%s", len(got), len(want), strings.Join(got, "\n"))
	}
	for i, parts := range want {
		for _, p := range parts {
			if !strings.Contains(got[i], p) {
				t.Errorf("failure %d = %s\nwant it to say %q", i, got[i], p)
			}
		}
	}
}

// A wrong answer fails the test, naming the operation and the JSON path
// of each departure; the fake's own answer passes.
func TestCheckedFailsAWrongAnswer(t *testing.T) {
	s, rt := checkedFake(t, Options{})
	status, _, right := raw(t, s, "GET", s.APIURL()+"repos/octocat/Hello-World/issues/1", "", "", bearer(token))
	if status != 200 {
		t.Fatalf("status %d: %s", status, right)
	}
	if errs := rt.finish(); len(errs) != 0 {
		t.Fatalf("the fake's own answer departs: %v", errs)
	}

	var issue map[string]any
	if err := json.Unmarshal([]byte(right), &issue); err != nil {
		t.Fatal(err)
	}
	issue["number"] = "1"
	issue["user"].(map[string]any)["login"] = 7
	issue["created_at"] = "yesterday"
	wrong, _ := json.Marshal(issue)
	s.Inject("GET /repos/octocat/Hello-World/issues/1", Response{Body: string(wrong)})
	raw(t, s, "GET", s.APIURL()+"repos/octocat/Hello-World/issues/1", "", "", bearer(token))
	wantFailures(t, rt.finish(), []string{"api.github.com", "issues/get (GET /repos/{owner}/{repo}/issues/{issue_number})",
		"response 200 body", `at "/number": got string, want integer`, `at "/user/login": got number, want string`,
		`at "/created_at": 'yesterday' is not valid date-time`})
}

// A scripted answer that says why it departs is left unchecked; its
// request is not.
func TestCheckedLeavesOffDescriptionAnswers(t *testing.T) {
	s, rt := checkedFake(t, Options{})
	s.Inject("GET /repos/octocat/Hello-World/issues/1", Response{Body: `{"number":"1"}`, OffDescription: "a hostile forge"})
	raw(t, s, "GET", s.APIURL()+"repos/octocat/Hello-World/issues/1?per_pag=3", "", "", bearer(token))
	wantFailures(t, rt.finish(), []string{"issues/get", `query parameter "per_pag" is not one of the operation's`})
}

// A request is held to its operation: path and query parameters by type,
// the JSON body by the request schema; a path GitHub does not serve
// matches nothing.
func TestCheckedFailsAWrongRequest(t *testing.T) {
	s, rt := checkedFake(t, Options{})
	raw(t, s, "GET", s.APIURL()+"repos/octocat/Hello-World/issues?per_page=many", "", "", bearer(token))
	raw(t, s, "POST", s.APIURL()+"repos/octocat/Hello-World/issues", "", `{"title":"x","labels":"bug"}`, bearer(token))
	raw(t, s, "GET", s.APIURL()+"repos/octocat/Hello-World/issuez", "", "", bearer(token))
	wantFailures(t, rt.finish(),
		[]string{"issues/list-for-repo", `query parameter per_page = "many": not a number`},
		[]string{"issues/create (POST /repos/{owner}/{repo}/issues)", "request body", `at "/labels"`},
		[]string{"GET /repos/octocat/Hello-World/issuez matches no operation of api.github.com"})
}

// An Enterprise fake is held to the Enterprise Server description, and a
// request outside its API root fails.
func TestCheckedEnterprise(t *testing.T) {
	s, rt := checkedFake(t, Options{Host: "ghe.example.com", PathPrefix: "/api/v3"})
	raw(t, s, "GET", s.APIURL()+"repos/octocat/Hello-World/issues/1", "", "", bearer(token))
	raw(t, s, "GET", s.URL+"/repos/octocat/Hello-World/issues/1", "", "", bearer(token))
	wantFailures(t, rt.finish(), []string{"GET /repos/octocat/Hello-World/issues/1 is outside the API root /api/v3"})
	if !strings.Contains(CheckedSummary(), openapi.GHES) {
		t.Errorf("summary %q names no %s operation", CheckedSummary(), openapi.GHES)
	}
}
