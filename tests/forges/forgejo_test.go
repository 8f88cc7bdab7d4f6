package forges_test

import (
	"strings"
	"testing"
)

// onForgejo addresses acme/gadgets on the Forgejo instance (served below
// /git, as a Forgejo behind a path prefix is).
const onForgejo = `"repo":"acme/gadgets","forge_provider":"forgejo"`

// Forgejo serves Gitea's v1 API: the same provider, reporting Forgejo as
// the forge. Where it diverges (its Actions API), the CI read and re-run
// arms say so without asking it; workflow dispatch is the same.
func TestForgejoSession(t *testing.T) {
	e := start(t)
	f := e.forgejo

	want(t, "create issue", e.ok("forge_create_issue", `{`+onForgejo+`,"title":"Gadget squeaks","labels":["bug"]}`),
		"Created issue #2 in acme/gadgets: https://codeberg.example.com/acme/gadgets/issues/2")
	want(t, "create branch", e.ok("forge_create_branch", `{`+onForgejo+`,"branch":"fix","from_ref":"feature"}`),
		"Created branch fix in acme/gadgets at "+f.Head(gadgets, "feature"))
	want(t, "write file", e.ok("forge_write_file", `{`+onForgejo+`,"branch":"fix","path":"docs/NOTES.md","content":"notes\n","message":"Add notes"}`),
		"Committed docs/NOTES.md to fix in acme/gadgets: "+f.Head(gadgets, "fix"))
	want(t, "open pull request", e.ok("forge_create_pull_request", `{`+onForgejo+`,"title":"Notes","head_ref":"fix","draft":true}`),
		"Opened PR #3 in acme/gadgets: https://codeberg.example.com/acme/gadgets/pulls/3")
	got := e.ok("forge_get_pull_request", `{`+onForgejo+`,"pull_number":3}`)
	if !strings.Contains(got, "WIP: Notes") {
		t.Errorf("a Forgejo draft is a WIP: title:\n%s", got)
	}

	before := len(f.Requests())
	for _, c := range []struct{ tool, args string }{
		{"forge_list_ci_runs", `{` + onForgejo + `}`},
		{"forge_get_ci_run", `{` + onForgejo + `,"run_id":"1"}`},
		{"forge_rerun_ci", `{` + onForgejo + `,"run_id":"1","failed_only":true}`},
	} {
		want(t, c.tool, e.fails(c.tool, c.args),
			c.tool+" failed: unimplemented: "+c.tool+" cannot run on Forgejo: forgetools reads and re-runs CI through Gitea's Actions run API, and Forgejo's Actions API has different endpoints and shapes; forge_trigger_ci works (workflow dispatch), and runs can be seen in the repository's Actions tab")
	}
	if n := len(f.Requests()) - before; n != 0 {
		t.Errorf("the CI arms Forgejo cannot serve sent it %d requests", n)
	}
	want(t, "trigger", e.ok("forge_trigger_ci", `{`+onForgejo+`,"workflow":"ci.yml","ref":"main"}`), "Triggered ci.yml on main in acme/gadgets")
	wantSent(t, "dispatch", giteaSent(t, f, len(f.Requests())-1),
		`POST /repos/acme/gadgets/actions/workflows/ci.yml/dispatches author {"ref":"main"}`)
	for _, r := range f.Requests() {
		if strings.HasPrefix(r.Path, "/version") {
			t.Errorf("the provider probed the version: %s", r.Path)
		}
	}
	if n := len(e.gitea.Requests()); n != 0 {
		t.Errorf("Gitea received %d requests meant for Forgejo", n)
	}
}
