package forgemodel

import (
	"slices"
	"testing"
	"time"
)

// Numbers: one sequence for issues and pull requests on a forge that
// shares it (Gitea, GitHub), one per kind otherwise (GitLab's iids).
func TestNumbering(t *testing.T) {
	s := NewState()
	shared := s.AddRepo("a/shared", "main", nil)
	shared.SharedNumbers = true
	split := s.AddRepo("a/split", "main", nil)
	for _, r := range []*Repo{shared, split} {
		s.AddItem(r, "i1", "", "u", "open", nil)
		s.AddItem(r, "p1", "", "u", "open", &Pull{Head: "main", Base: "main"})
		s.AddItem(r, "i2", "", "u", "open", nil)
	}
	numbers := func(r *Repo) []int64 {
		var out []int64
		for _, it := range r.Items {
			out = append(out, it.Number)
		}
		return out
	}
	if got := numbers(shared); !slices.Equal(got, []int64{1, 2, 3}) {
		t.Errorf("shared numbers %v", got)
	}
	if got := numbers(split); !slices.Equal(got, []int64{1, 1, 2}) {
		t.Errorf("per-kind numbers %v", got)
	}
	if it := shared.Issue(2); it == nil || it.Title != "p1" {
		t.Errorf("an issue route on a shared forge serves the pull request: %v", it)
	}
	if it := split.Issue(2); it == nil || it.Title != "i2" {
		t.Errorf("split Issue(2) = %v", it)
	}
	if it := split.Pull(1); it == nil || it.Title != "p1" || split.Pull(2) != nil {
		t.Errorf("split Pull(1) = %v", it)
	}
	if a, b := s.AddItem(split, "x", "", "u", "open", nil), s.AddItem(shared, "y", "", "u", "open", nil); a.ID == b.ID || !b.Created.After(a.Created) {
		t.Errorf("ids %d %d, times %v %v", a.ID, b.ID, a.Created, b.Created)
	}
}

// The git side: commits are stable ids of what they hold, branches start
// at one initial commit, a branch is a copy, a merge reports what it
// changed, and a pull request's head follows its branch until merged.
func TestGit(t *testing.T) {
	s := NewState()
	s.Clock = time.Unix(1700000000, 0)
	r := s.AddRepo("a/b", "main", map[string]string{"README": "r", "src/x.go": "x"}, "feature")
	if r.Branches["main"] != r.Branches["feature"] || len(r.Branches["main"]) != 40 {
		t.Fatalf("heads %v", r.Branches)
	}
	other := NewState()
	other.Clock = s.Clock
	again := other.AddRepo("a/b", "main", map[string]string{"README": "r", "src/x.go": "x"})
	if again.Branches["main"] != r.Branches["main"] {
		t.Errorf("the same state has two ids")
	}
	p := &Pull{Head: "feature", Base: "main"}
	opened := r.PullHead(p)
	r.Files["feature"]["src/y.go"] = "y"
	pushed := s.Commit(r, "feature", Meta{Author: "u", Message: "Add y"}, "src/y.go")
	if pushed == opened || r.PullHead(p) != pushed || r.LastCommit["feature"]["src/y.go"] != pushed {
		t.Fatalf("head %s after a push from %s to %s", r.PullHead(p), opened, pushed)
	}
	if changed := r.MergePull(p); !slices.Equal(changed, []string{"src/y.go"}) || !p.Merged {
		t.Fatalf("merge changed %v", changed)
	}
	r.Files["feature"]["z"] = "z"
	s.Commit(r, "feature", Meta{Author: "u", Message: "Add z"}, "z")
	if r.PullHead(p) != pushed {
		t.Errorf("a merged pull request's head moved to %s", r.PullHead(p))
	}
	r.Branch("copy", "main")
	r.Files["copy"]["only"] = "o"
	if _, leaked := r.Files["main"]["only"]; leaked || r.Branches["copy"] != r.Branches["main"] {
		t.Errorf("a branch shares its files or differs in head")
	}
	var names []string
	for _, e := range r.List("main", "") {
		names = append(names, e.Name+map[bool]string{true: "/"}[e.Dir])
	}
	if !slices.Equal(names, []string{"README", "src/"}) || r.List("main", "nothing") != nil {
		t.Errorf("root listing %v", names)
	}
	if r.BranchAt("main") != "main" || r.BranchAt(r.Branches["feature"][:7]) != "feature" || r.BranchAt("abc") != "" || r.BranchAt(pushed) != "" {
		t.Errorf("BranchAt: a branch, a head's prefix, too short a prefix, a commit no branch is at")
	}
}

// Labels that differ in case only are two labels.
func TestLabelCase(t *testing.T) {
	s := NewState()
	r := s.AddRepo("a/b", "main", nil)
	lower, upper := s.AddLabel(r, "bug"), s.AddLabel(r, "Bug")
	if r.Label("Bug") != upper || r.Label("bug") != lower || r.Label("BUG") != lower || r.Label("none") != nil {
		t.Errorf("Label lookups")
	}
}
