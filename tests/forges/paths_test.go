package forges_test

import (
	"encoding/json"
	"strings"
	"testing"
)

// gitRefused are spellings git refuses under core.protectNTFS and
// core.protectHFS (and the path shapes no repository holds).
var gitRefused = []string{".git/config", ".GIT/hooks/pre-commit", "GIT~1/config", ".git./x", ".git /x", ".g\u200cit/config",
	"src/.gitmodules.", "gi7eba~1", "../x", "a//b", "/etc/passwd"}

// Every .git spelling is refused on every forge by the gateway itself
// (issue 19): invalid_argument, and no request reaches the forge; the
// local forge's branch stays writable.
func TestGitRefusedPathsOnEveryForge(t *testing.T) {
	e := start(t)
	requests := func() int {
		return len(e.github.Requests()) + len(e.gitlab.Requests()) + len(e.gitea.Requests()) + len(e.forgejo.Requests())
	}
	e.ok("forge_create_branch", `{"repo":"demo/app","branch":"fix","forge_provider":"local"}`)
	before := requests()
	for _, forge := range []struct{ repo, branch, provider string }{
		{"octocat/Hello-World", "fix-crash", "github"}, {"platform/infra/deploy", "feature", "gitlab"},
		{"acme/gadgets", "feature", "gitea"}, {"acme/gadgets", "feature", "forgejo"}, {"demo/app", "fix", "local"},
	} {
		for i, path := range gitRefused {
			args := map[string]any{"repo": forge.repo, "forge_provider": forge.provider, "path": path}
			calls := []string{"forge_write_file"}
			if i < 3 {
				calls = append(calls, "forge_read_file", "forge_list_dir")
			}
			for _, tool := range calls {
				if tool == "forge_write_file" {
					args["branch"], args["content"], args["message"] = forge.branch, "x\n", "m"
				} else {
					delete(args, "branch")
					delete(args, "content")
					delete(args, "message")
				}
				b, _ := json.Marshal(args)
				got := e.fails(tool, string(b))
				if !strings.HasPrefix(got, tool+" failed: invalid_argument: ") || !strings.Contains(got, "is one git refuses") {
					t.Errorf("%s on %s with path %q: %s", tool, forge.provider, path, got)
				}
			}
		}
	}
	if n := requests() - before; n != 0 {
		t.Errorf("%d requests reached the forges for paths git refuses", n)
	}
	// A review comment's path is checked too.
	got := e.fails("forge_submit_review", `{"repo":"octocat/Hello-World","pull_number":1,"verdict":"comment","body":"b",`+
		`"comments":[{"path":"src/parse.go","line":41,"body":"ok"},{"path":"GIT~1/config","line":1,"body":"x"}]}`)
	if !strings.Contains(got, "invalid_argument: submit_review.comments[1].path") || requests() != before {
		t.Errorf("a review comment on GIT~1/config: %s (%d requests)", got, requests()-before)
	}
	// The local branch took no harm: it is still writable and readable.
	e.ok("forge_write_file", `{"repo":"demo/app","branch":"fix","path":"ok.txt","content":"ok\n","message":"m","forge_provider":"local"}`)
	if got := e.ok("forge_read_file", `{"repo":"demo/app","ref":"fix","path":"ok.txt","forge_provider":"local"}`); !strings.Contains(got, "\nok\n") {
		t.Errorf("reading back the branch after the refusals:\n%s", got)
	}
}
