package giteatest

import (
	"encoding/json"
	"testing"
)

// TestCompareFromHistory: GET .../compare/{base}...{head} lists the
// commits head has that base has not, newest first as git log does,
// each with its message and parents; nothing the other way when base has
// not moved.
func TestCompareFromHistory(t *testing.T) {
	s := seeded(t)
	for _, f := range []string{"a.txt", "b.txt"} {
		if code, _, body := get(t, s, "POST", "/repos/acme/gadgets/contents/"+f,
			`{"branch":"feature","content":"eAo=","message":"Add `+f+`"}`, token); code != 201 {
			t.Fatalf("write %s: %d %s", f, code, body)
		}
	}
	var cmp struct {
		Total   int `json:"total_commits"`
		Commits []struct {
			SHA     string
			Commit  struct{ Message string }
			Parents []struct{ SHA string }
		}
	}
	_, _, body := get(t, s, "GET", "/repos/acme/gadgets/compare/main...feature", "", token)
	if err := json.Unmarshal(body, &cmp); err != nil || cmp.Total != 2 || len(cmp.Commits) != 2 {
		t.Fatalf("compare %s", body)
	}
	newest, oldest := cmp.Commits[0], cmp.Commits[1]
	if newest.SHA != s.Head("acme/gadgets", "feature") || newest.Commit.Message != "Add b.txt\n" || oldest.Commit.Message != "Add a.txt\n" ||
		len(newest.Parents) != 1 || newest.Parents[0].SHA != oldest.SHA || len(oldest.Parents) != 1 || oldest.Parents[0].SHA != s.Head("acme/gadgets", "main") {
		t.Errorf("compare commits %+v", cmp.Commits)
	}
	_, _, body = get(t, s, "GET", "/repos/acme/gadgets/compare/feature...main", "", token)
	if json.Unmarshal(body, &cmp); cmp.Total != 0 {
		t.Errorf("the compare the other way: %s", body)
	}
}
