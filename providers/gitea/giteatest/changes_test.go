package giteatest

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/forgetools/forgetools/internal/forgemodel"
)

// POST .../contents is checked whole before any operation applies: a sha
// that does not match is Gitea's 422 and nothing lands; a set that holds
// answers 201 with files[] in request order, null for the deleted one.
func TestChangeFilesAllOrNothing(t *testing.T) {
	s := seeded(t)
	head := s.Head("acme/gadgets", "feature")
	status, _, body := get(t, s, "POST", "/repos/acme/gadgets/contents",
		`{"branch":"feature","message":"m","files":[{"operation":"create","path":"n.txt","content":"bg=="},`+
			`{"operation":"update","path":"src/gadget.go","content":"eA==","sha":"0000000000000000000000000000000000000000"}]}`, token)
	if status != 422 || !strings.Contains(string(body), "sha does not match") {
		t.Fatalf("a stale sha: %d %s", status, body)
	}
	if _, found := s.File("acme/gadgets", "feature", "n.txt"); found || s.Head("acme/gadgets", "feature") != head {
		t.Fatal("a refused set changed the branch")
	}
	status, _, body = get(t, s, "POST", "/repos/acme/gadgets/contents",
		`{"branch":"feature","message":"m","files":[{"operation":"create","path":"n.txt","content":"bg=="},`+
			`{"operation":"delete","path":"src/gadget.go","sha":"`+forgemodel.BlobSHA("package gadget\n")+`"}]}`, token)
	var out struct {
		Files  []*struct{ Path, SHA string }
		Commit struct {
			SHA     string
			Parents []struct{ SHA string }
		}
	}
	if status != 201 || json.Unmarshal(body, &out) != nil {
		t.Fatalf("the set: %d %s", status, body)
	}
	if len(out.Files) != 2 || out.Files[0] == nil || out.Files[0].Path != "n.txt" || out.Files[1] != nil ||
		out.Commit.SHA != s.Head("acme/gadgets", "feature") || len(out.Commit.Parents) != 1 || out.Commit.Parents[0].SHA != head {
		t.Errorf("the answer %s", body)
	}
}
