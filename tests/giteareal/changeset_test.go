package giteareal_test

import (
	"strings"
	"testing"
)

// Change sets (issue 21): on the real server, a set of an update, a
// create and a delete is one commit whose only parent is the head it was
// written on; a stale sha on one file (caught by the provider's compare)
// and a create over an existing file (refused by Gitea itself, its 422
// read as failed_precondition) each write nothing: the branch head does
// not move and the files are as they were.
func TestRealGiteaCommitFiles(t *testing.T) {
	e := start(t, asBot)
	e.ok("forge_create_branch", `,"branch":"set"`)
	head := e.head("set")
	gadget := field(t, e.ok("forge_read_file", `,"path":"src/gadget.go","ref":"set"`), "sha")
	readme := field(t, e.ok("forge_read_file", `,"path":"README.md","ref":"set"`), "sha")
	set := func(gadgetExpected string) string {
		return `,"branch":"set","message":"Three files","files":[` +
			`{"path":"src/gadget.go","content":"package gadget // v2\n","expected_sha":"` + gadgetExpected + `"},` +
			`{"path":"docs/new.md","content":"new\n"},` +
			`{"path":"README.md","delete":true,"expected_sha":"` + readme + `"}]`
	}
	unmoved := func(what string) {
		t.Helper()
		if got := e.head("set"); got != head {
			t.Fatalf("%s: the branch moved from %s to %s", what, head, got)
		}
		if e.file("set", "src/gadget.go") != "package gadget\n\nfunc Squeak() string {\n\treturn \"squeak\"\n}\n" {
			t.Fatalf("%s: src/gadget.go changed", what)
		}
	}
	wantPrefix(t, "stale sha", e.fails("forge_commit_files", set(readme)),
		"forge_commit_files failed: failed_precondition: src/gadget.go on set in "+e.repo+" is now blob "+gadget)
	unmoved("a stale sha")
	got := e.fails("forge_commit_files", `,"branch":"set","message":"m","files":[{"path":"docs/other.md","content":"x\n"},{"path":"README.md","content":"x\n"}]`)
	wantPrefix(t, "create over a file", got, "forge_commit_files failed: failed_precondition: a file of the set changed on set in "+e.repo+" since you read it, nothing was written (")
	if !strings.Contains(got, "already exists") {
		t.Errorf("Gitea's reason is lost: %s", got)
	}
	unmoved("a create over an existing file")
	if err := e.api(e.u.bot.Token, "GET", "/repos/"+e.repo+"/contents/docs/other.md?ref=set", nil, nil); err == nil {
		t.Fatal("a refused set created docs/other.md")
	}

	ack := e.ok("forge_commit_files", set(gadget[:10])+`,"expected_head_sha":"`+head+`"`)
	commit := e.head("set")
	want(t, "commit", ack, "Committed to set in "+e.repo+": "+commit)
	var c struct {
		Parents []struct{ SHA string }
		Files   []struct{ Filename, Status string }
	}
	e.get("/git/commits/"+commit, &c)
	if len(c.Parents) != 1 || c.Parents[0].SHA != head {
		t.Errorf("the commit's parents %+v, want only %s", c.Parents, head)
	}
	changed := map[string]string{}
	for _, f := range c.Files {
		changed[f.Filename] = f.Status
	}
	if len(changed) != 3 || changed["src/gadget.go"] != "modified" || changed["docs/new.md"] != "added" || changed["README.md"] != "removed" {
		t.Errorf("the commit changed %v", changed)
	}
	if got := e.file("set", "src/gadget.go"); got != "package gadget // v2\n" {
		t.Errorf("src/gadget.go is %q", got)
	}
	if got := e.file("set", "docs/new.md"); got != "new\n" {
		t.Errorf("docs/new.md is %q", got)
	}
	if err := e.api(e.u.bot.Token, "GET", "/repos/"+e.repo+"/contents/README.md?ref=set", nil, nil); err == nil {
		t.Error("README.md is still on set")
	}
	// The blob the result names is the next write's expected_sha.
	next := field(t, e.ok("forge_read_file", `,"path":"src/gadget.go","ref":"set"`), "sha")
	e.ok("forge_commit_files", `,"branch":"set","message":"Again","files":[{"path":"src/gadget.go","content":"package gadget // v3\n","expected_sha":"`+next+`"}]`)
	if got := e.file("set", "src/gadget.go"); got != "package gadget // v3\n" {
		t.Errorf("after the second set src/gadget.go is %q", got)
	}
}
