package forgemodel

import (
	"strings"
	"testing"
)

// A pull request's diff is from the merge base (three-dot): a change the
// base branch made after head left it is not in it, reversed or at all,
// and a file both changed shows head's change on the merge base's text.
func TestDiffFromMergeBase(t *testing.T) {
	s := NewState()
	r := s.AddRepo("a/b", "main", map[string]string{"README": "one\ntwo\nthree\n", "keep": "k\n"}, "feature")
	r.Files["feature"]["src/y.go"] = "y\n"
	r.Files["feature"]["README"] = "one\ntwo\nthree\nfour\n"
	s.Commit(r, "feature", Meta{Author: "dev", Message: "Add y"}, "src/y.go", "README")
	r.Files["main"]["other"] = "o\n"
	r.Files["main"]["README"] = "zero\none\ntwo\nthree\n"
	delete(r.Files["main"], "keep")
	s.Commit(r, "main", Meta{Author: "dev", Message: "Unrelated"}, "other", "README", "keep")

	got := r.Diff("main", "feature")
	var paths []string
	for _, d := range got {
		paths = append(paths, d.Path)
	}
	if strings.Join(paths, ",") != "README,src/y.go" {
		t.Fatalf("diff main...feature touches %v, want README and src/y.go only (not main's other, keep)", paths)
	}
	if p := got[0].Patch; strings.Contains(p, "zero") || !strings.Contains(p, "+four") {
		t.Errorf("README patch %q: want head's +four on the merge base's text, no trace of main's zero", p)
	}
	if !got[1].Added || got[1].Deleted {
		t.Errorf("src/y.go = %+v, want added", got[1])
	}
	// Unrelated branches (no common commit) diff from base's files.
	r.Branches["orphan"] = s.NewCommit(r, nil, "dev", "Orphan", map[string]Object{"x": {Content: []byte("x\n")}}).SHA
	r.Files["orphan"] = map[string]string{"x": "x\n"}
	if d := r.Diff("main", "orphan"); len(d) != 3 {
		t.Errorf("diff main...orphan = %d files, want main's README and other removed and x added", len(d))
	}
}

// A pull request is diffed from the merge base with its base; once
// merged, from the base's head before the merge commit, so it keeps the
// diff it was merged with.
func TestPullDiff(t *testing.T) {
	s := NewState()
	r := s.AddRepo("a/b", "main", map[string]string{"README": "r\n"}, "feature")
	r.Files["feature"]["y"] = "y\n"
	s.Commit(r, "feature", Meta{Author: "dev", Message: "Add y"}, "y")
	r.Files["main"]["other"] = "o\n"
	s.Commit(r, "main", Meta{Author: "dev", Message: "Other"}, "other")
	p := &Pull{Head: "feature", Base: "main"}
	if d := r.PullDiff(p); len(d) != 1 || d[0].Path != "y" || !d[0].Added {
		t.Fatalf("open: %+v, want y added alone", d)
	}
	head := r.PullHead(p)
	r.MergePull(p)
	p.MergeSHA = s.Commit(r, "main", Meta{Author: "maintainer", Message: "Merge", Merge: head}, "y")
	if d := r.PullDiff(p); len(d) != 1 || d[0].Path != "y" {
		t.Errorf("merged: %+v, want y still", d)
	}
	if d := r.Diff("main", "feature"); len(d) != 0 {
		t.Errorf("the branches after the merge differ by %+v", d)
	}
}
