package gitlabtest

import (
	"strings"
	"testing"
)

// A commit of actions is checked whole before any is applied: an update
// whose last_commit_id is not the file's last commit is GitLab's 400 and
// the branch, with the create before it, is as it was.
func TestCreateCommitAllOrNothing(t *testing.T) {
	s := seeded(t)
	const deploy = "platform/infra/deploy"
	head := s.Head(deploy, "main")
	status, _, body := do(t, s, "POST", deployPath+"/repository/commits",
		`{"branch":"main","commit_message":"m","actions":[{"action":"create","file_path":"n.txt","content":"n"},`+
			`{"action":"update","file_path":"charts/app/values.yaml","content":"x","last_commit_id":"0000000000000000000000000000000000000000"}]}`, token)
	if status != 400 || !strings.Contains(string(body), "has changed since you started editing it") {
		t.Fatalf("a stale last_commit_id: %d %s", status, body)
	}
	if _, found := s.File(deploy, "main", "n.txt"); found || s.Head(deploy, "main") != head {
		t.Fatal("a refused commit changed the branch")
	}
	status, _, body = do(t, s, "POST", deployPath+"/repository/commits",
		`{"branch":"main","commit_message":"m","actions":[{"action":"delete","file_path":"gone.txt"}]}`, token)
	if status != 400 || !strings.Contains(string(body), "doesn't exist") {
		t.Fatalf("a delete of nothing: %d %s", status, body)
	}
}
