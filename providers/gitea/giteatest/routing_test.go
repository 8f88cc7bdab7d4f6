package giteatest

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// A push to a pull request's head branch moves its head, as on Gitea: the
// pull request shows the new head, and a merge naming the old one is out
// of date.
func TestPullHeadFollowsPush(t *testing.T) {
	s := seeded(t)
	old := s.Head("acme/gadgets", "feature")
	if status, _, b := get(t, s, "POST", "/repos/acme/gadgets/contents/NEW.md", `{"content":"eA==","message":"m","branch":"feature"}`, token); status != 201 {
		t.Fatalf("push: %d %s", status, b)
	}
	now := s.Head("acme/gadgets", "feature")
	_, _, b := get(t, s, "GET", "/repos/acme/gadgets/pulls/2", "", token)
	var pr struct {
		Head struct{ Sha string } `json:"head"`
	}
	if json.Unmarshal(b, &pr); now == old || pr.Head.Sha != now {
		t.Fatalf("head %q after a push from %q to %q", pr.Head.Sha, old, now)
	}
	if status, _, b := get(t, s, "POST", "/repos/acme/gadgets/pulls/2/merge", `{"Do":"merge","head_commit_id":"`+old+`"}`, token); status != 409 {
		t.Fatalf("merge at the old head: %d %s", status, b)
	}
	if status, _, b := get(t, s, "POST", "/repos/acme/gadgets/pulls/2/merge", `{"Do":"merge","head_commit_id":"`+now+`"}`, token); status != 200 {
		t.Fatalf("merge at the new head: %d %s", status, b)
	}
	if _, _, b := get(t, s, "GET", "/repos/acme/gadgets/pulls/2", "", token); !strings.Contains(string(b), now) {
		t.Fatalf("a merged pull request lost its head %s: %s", now, b)
	}
}

// The routes answer as Gitea does where a ServeMux alone would not: the
// root listing with or without a trailing slash (no redirect), an escaped
// file path, and 404 (never 405) for a method a path lacks; outside the
// path prefix is 404 too.
func TestRoutingEdges(t *testing.T) {
	s := New(Options{PathPrefix: "/git"})
	t.Cleanup(s.Close)
	s.AddToken(token, "forgetools-bot")
	s.AddRepo("acme/gadgets", "main", map[string]string{"src/a b.go": "package a\n", "README": "r"})
	for _, path := range []string{"/repos/acme/gadgets/contents", "/repos/acme/gadgets/contents/", "/repos/acme/gadgets/contents/src"} {
		if status, _, b := get(t, s, "GET", path, "", token); status != 200 || !strings.HasPrefix(string(b), "[") {
			t.Errorf("GET %s: %d %s", path, status, b)
		}
	}
	if status, _, b := get(t, s, "GET", "/repos/acme/gadgets/raw/src/a%20b.go", "", token); status != 200 || string(b) != "package a\n" {
		t.Errorf("raw escaped path: %d %q", status, b)
	}
	if status, _, b := get(t, s, "DELETE", "/repos/acme/gadgets/issues/1", "", token); status != 404 || !strings.Contains(string(b), "couldn't be found") {
		t.Errorf("DELETE issue: %d %s", status, b)
	}
	resp, err := http.Get(s.URL + "/api/v1/version")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 404 {
		t.Errorf("outside the prefix: %d", resp.StatusCode)
	}
}
