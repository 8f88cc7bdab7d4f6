package forgemodel

import (
	"slices"
	"testing"
)

// History: a commit on a branch has the old head as its parent, a merge
// commit has both heads, a ref's log is its head's ancestors newest
// first, and what a commit changed is read from its first parent.
func TestHistory(t *testing.T) {
	s := NewState()
	r := s.AddRepo("a/b", "main", map[string]string{"README": "r\n"}, "feature")
	root := r.Branches["main"]
	r.Files["feature"]["src/y.go"] = "y\n"
	r.Files["feature"]["README"] = "r\nmore\n"
	feat := s.Commit(r, "feature", Meta{Author: "dev", Message: "Add y"}, "src/y.go", "README")
	r.Files["main"]["other"] = "o\n"
	mainline := s.Commit(r, "main", Meta{Author: "dev", Message: "Other"}, "other")
	r.Merge("feature", "main")
	merge := s.Commit(r, "main", Meta{Author: "maintainer", Message: "Merge feature", Merge: feat}, "src/y.go", "README")

	c := r.Commits[merge]
	if c == nil || !slices.Equal(c.Parents, []string{mainline, feat}) || c.Author != "maintainer" || c.Message != "Merge feature" {
		t.Fatalf("merge commit = %+v", c)
	}
	var log []string
	for _, c := range r.Log(r.CommitAt("main")) {
		log = append(log, c.SHA)
	}
	if !slices.Equal(log, []string{merge, mainline, feat, root}) {
		t.Errorf("log of main = %v, want merge, other, feature, root", log)
	}
	if got := r.Since(r.Log(r.Commits[merge]), r.Commits[feat].When, "src"); len(got) != 2 || got[0].SHA != merge || got[1].SHA != feat {
		t.Errorf("since the feature commit, under src = %v", got)
	}
	want := []FileChange{{Path: "README", Status: "modified", Additions: 1}, {Path: "src/y.go", Status: "added", Additions: 1}}
	if got := r.Changed(r.Commits[feat]); !slices.Equal(got, want) {
		t.Errorf("feature commit changed %+v, want %+v", got, want)
	}
	if got := r.Changed(r.Commits[root]); len(got) != 1 || got[0].Status != "added" {
		t.Errorf("root commit changed %+v", got)
	}
	if r.Touches(r.Commits[mainline], "src") || !r.Touches(r.Commits[mainline], "other") {
		t.Errorf("Touches: the mainline commit changes other only")
	}
}
