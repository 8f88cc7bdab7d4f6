package forges_test

import (
	"strings"
	"testing"

	"github.com/forgetools/forgetools/providers/github/githubtest"
)

// TestCommitFilesOnEveryForge (issue 21, change sets): over the gateway's
// session socket, on the GitLab, Gitea and Forgejo fakes and the local
// forge, a set of an update, a create and a delete with one stale sha is
// failed_precondition and nothing of it lands (the update's file keeps
// its blob, the create's file does not exist, the delete's is still
// there); with the right shas it is one commit, acknowledged with its
// sha, and the forge's own reads show every file as the set left it.
func TestCommitFilesOnEveryForge(t *testing.T) {
	for _, f := range []struct {
		name, on, branch, update, remove string
	}{
		{"github", hello, "fix-crash", "src/app.txt", "README.md"},
		{"gitlab", onGitLab, "feature", "charts/app/values.yaml", "README.md"},
		{"gitea", onGitea, "feature", "src/gadget.go", "README.md"},
		{"forgejo", onForgejo, "feature", "src/gadget.go", "README.md"},
		{"local", `"repo":"demo/app","forge_provider":"local"`, "fix", "app.txt", "README.md"},
	} {
		t.Run(f.name, func(t *testing.T) {
			// A gateway of its own: the flow rules would hold a write to
			// a public repository after a private one was read.
			e := start(t)
			if f.name == "github" {
				e.github.Commit(helloRepo, "fix-crash", "Add app.txt", githubtest.File{Path: "src/app.txt", Content: "v1\n"})
			}
			if f.name == "local" {
				e.ok("forge_create_branch", `{"repo":"demo/app","branch":"fix","forge_provider":"local"}`)
				e.ok("forge_write_file", `{"repo":"demo/app","branch":"fix","path":"app.txt","content":"v1\n","message":"m","forge_provider":"local"}`)
			}
			read := func(path string) (string, bool) {
				t.Helper()
				return e.call("forge_read_file", `{`+f.on+`,"path":"`+path+`","ref":"`+f.branch+`"}`)
			}
			blob := func(path string) string {
				t.Helper()
				text, failed := read(path)
				if failed {
					t.Fatalf("read %s: %s", path, text)
				}
				return field(t, text, "sha")
			}
			updateBlob, removeBlob := blob(f.update), blob(f.remove)
			set := func(updateExpected string) string {
				return `{` + f.on + `,"branch":"` + f.branch + `","message":"Three files","files":[` +
					`{"path":"` + f.update + `","content":"changed\n","expected_sha":"` + updateExpected + `"},` +
					`{"path":"added/new.txt","content":"new\n"},` +
					`{"path":"` + f.remove + `","delete":true,"expected_sha":"` + removeBlob + `"}]}`
			}
			if got := e.fails("forge_commit_files", set(removeBlob)); !strings.HasPrefix(got, "forge_commit_files failed: failed_precondition: ") ||
				!strings.Contains(got, "nothing was written") {
				t.Fatalf("the stale set: %s", got)
			}
			if blob(f.update) != updateBlob || blob(f.remove) != removeBlob {
				t.Fatal("a refused set changed a file")
			}
			if text, failed := read("added/new.txt"); !failed || !strings.Contains(text, "not_found") {
				t.Fatalf("a refused set created added/new.txt: %s", text)
			}

			ack := e.ok("forge_commit_files", set(updateBlob))
			if !strings.HasPrefix(ack, "Committed to "+f.branch+" in ") {
				t.Errorf("ack %q", ack)
			}
			if text, _ := read(f.update); !strings.Contains(text, "\nchanged\n") {
				t.Errorf("%s after the set:\n%s", f.update, text)
			}
			if text, _ := read("added/new.txt"); !strings.Contains(text, "\nnew\n") {
				t.Errorf("added/new.txt after the set:\n%s", text)
			}
			if text, failed := read(f.remove); !failed || !strings.Contains(text, "not_found") {
				t.Errorf("%s after its delete: %s", f.remove, text)
			}
		})
	}
}

// Every path of a set is held to git's rules by the gateway, on every
// forge, and a set naming one path twice is refused as well: no request
// reaches a forge.
func TestCommitFilesPathsOnEveryForge(t *testing.T) {
	e := start(t)
	requests := func() int {
		return len(e.github.Requests()) + len(e.gitlab.Requests()) + len(e.gitea.Requests()) + len(e.forgejo.Requests())
	}
	before := requests()
	for _, on := range []string{hello, onGitLab, onGitea, onForgejo, `"repo":"demo/app","forge_provider":"local"`} {
		for _, path := range gitRefused {
			got := e.fails("forge_commit_files", `{`+on+`,"branch":"feature","message":"m","files":[{"path":"ok.txt","content":"x"},{"path":"`+
				jsonText(path)+`","content":"x"}]}`)
			if !strings.HasPrefix(got, "forge_commit_files failed: invalid_argument: commit_files.files[1].path: ") || !strings.Contains(got, "is one git refuses") {
				t.Errorf("%s with %q: %s", on, path, got)
			}
		}
		got := e.fails("forge_commit_files", `{`+on+`,"branch":"feature","message":"m","files":[{"path":"a.txt","content":"1"},{"path":"a.txt","content":"2"}]}`)
		if !strings.HasPrefix(got, "forge_commit_files failed: invalid_argument: ") || !strings.Contains(got, "no path twice") {
			t.Errorf("%s with a path twice: %s", on, got)
		}
	}
	if n := requests() - before; n != 0 {
		t.Errorf("%d requests reached the forges for refused change sets", n)
	}
}
