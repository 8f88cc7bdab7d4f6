package forgemodel

import (
	"cmp"
	"maps"
	"slices"
	"strings"
	"time"
)

// The history every fake serves: commits with their parents, message,
// author and time in Git.Commits, each branch's head one of them. A fake
// that keeps files per branch (Repo.Files) commits through State.Commit,
// which snapshots the branch's files as the commit's tree; one that keeps
// git objects makes its commits with NewCommit. Either way the history
// of a ref is its head's ancestors, as git walks it.

// Meta is who makes a commit and why; Merge is a merge commit's second
// parent ("" for a commit with one).
type Meta struct {
	Author, Message string
	Merge           string
}

// Commit records branch's files as a commit on its head (and on m.Merge),
// by m.Author at the next tick, moves the branch to it and marks files as
// last changed there; it returns the commit's sha.
func (s *State) Commit(r *Repo, branch string, m Meta, files ...string) string {
	parents := []string{r.Branches[branch]}
	if m.Merge != "" {
		parents = append(parents, m.Merge)
	}
	sha := s.NewCommit(r, parents, m.Author, m.Message, r.tree(branch)).SHA
	r.Branches[branch] = sha
	for _, f := range files {
		r.LastCommit[branch][f] = sha
	}
	return sha
}

// tree is branch's files as a commit's tree.
func (r *Repo) tree(branch string) map[string]Object {
	out := make(map[string]Object, len(r.Files[branch]))
	for p, content := range r.Files[branch] {
		out[p] = Object{Content: []byte(content)}
	}
	return out
}

// record stores c in r under the sha that digests all of it.
func (s *State) record(r *Repo, c *Commit) *Commit {
	paths := slices.Sorted(maps.Keys(c.Tree))
	parts := append([]string{strings.Join(c.Parents, ","), c.Message, c.When.String()}, paths...)
	for _, p := range paths {
		parts = append(parts, c.Tree[p].SHA())
	}
	c.SHA = HashOf(parts...)
	if r.Commits == nil {
		r.Commits = map[string]*Commit{}
	}
	r.Commits[c.SHA] = c
	return c
}

// root is a repository's first commit, of tree, by its owner at the
// fake's "now"; the owner gets no user id from it, so a fake's ids stay
// those its own seeding gives.
func (s *State) root(r *Repo, tree map[string]Object) *Commit {
	owner, _, _ := strings.Cut(r.Path, "/")
	return s.record(r, &Commit{Message: "Initial commit", Author: owner, When: s.Now(), Tree: tree})
}

// Log is head and every commit it descends from, newest first (by time,
// then sha), as a forge's commit list orders them.
func (r *Repo) Log(head *Commit) []*Commit {
	seen := map[string]bool{head.SHA: true}
	out := []*Commit{head}
	for i := 0; i < len(out); i++ {
		for _, p := range out[i].Parents {
			if pc := r.Commits[p]; pc != nil && !seen[p] {
				seen[p] = true
				out = append(out, pc)
			}
		}
	}
	slices.SortStableFunc(out, func(a, b *Commit) int {
		return cmp.Or(b.When.Compare(a.When), strings.Compare(a.SHA, b.SHA))
	})
	return out
}

// MergeBase is the newest commit both a and b descend from; "" for none.
func (r *Repo) MergeBase(a, b string) string {
	ca, cb := r.Commits[a], r.Commits[b]
	if ca == nil || cb == nil {
		return ""
	}
	inA := map[string]bool{}
	for _, c := range r.Log(ca) {
		inA[c.SHA] = true
	}
	for _, c := range r.Log(cb) {
		if inA[c.SHA] {
			return c.SHA
		}
	}
	return ""
}

// Ahead is the commits head has that base has not, newest first (git log
// base..head).
func (r *Repo) Ahead(base, head *Commit) []*Commit {
	inBase := map[string]bool{}
	for _, c := range r.Log(base) {
		inBase[c.SHA] = true
	}
	var out []*Commit
	for _, c := range r.Log(head) {
		if !inBase[c.SHA] {
			out = append(out, c)
		}
	}
	return out
}

// Since is the commits of log at or after since (zero: all of them) that
// change path (a file or a directory; "" for any).
func (r *Repo) Since(log []*Commit, since time.Time, path string) []*Commit {
	var out []*Commit
	for _, c := range log {
		if !c.When.Before(since) && (path == "" || r.Touches(c, path)) {
			out = append(out, c)
		}
	}
	return out
}

// FileChange is one path a commit changes from its first parent, with
// the status forges name (added, modified, removed) and its lines in and
// out.
type FileChange struct {
	Path, Status         string
	Additions, Deletions int
}

// Changed are the paths c changes from its first parent (from nothing
// for a root commit), sorted.
func (r *Repo) Changed(c *Commit) []FileChange {
	var before map[string]Object
	if len(c.Parents) > 0 && r.Commits[c.Parents[0]] != nil {
		before = r.Commits[c.Parents[0]].Tree
	}
	var out []FileChange
	for _, d := range DiffFiles(Contents(before), Contents(c.Tree)) {
		f := FileChange{Path: d.Path, Status: "modified"}
		switch {
		case d.Added:
			f.Status = "added"
		case d.Deleted:
			f.Status = "removed"
		}
		for _, l := range strings.Split(d.Patch, "\n") {
			switch {
			case strings.HasPrefix(l, "+"):
				f.Additions++
			case strings.HasPrefix(l, "-"):
				f.Deletions++
			}
		}
		out = append(out, f)
	}
	return out
}

// Touches reports whether c changes path (a file, or a directory's
// files) from its first parent.
func (r *Repo) Touches(c *Commit, path string) bool {
	var before map[string]Object
	if len(c.Parents) > 0 && r.Commits[c.Parents[0]] != nil {
		before = r.Commits[c.Parents[0]].Tree
	}
	under := func(p string) bool { return p == path || strings.HasPrefix(p, path+"/") }
	for p, o := range c.Tree {
		b, had := before[p]
		if under(p) && (!had || b.SHA() != o.SHA() || b.Kind != o.Kind) {
			return true
		}
	}
	for p := range before {
		if _, kept := c.Tree[p]; under(p) && !kept {
			return true
		}
	}
	return false
}

// Contents is a tree's files by path (a submodule's content is its URL).
func Contents(tree map[string]Object) map[string]string {
	out := make(map[string]string, len(tree))
	for p, o := range tree {
		out[p] = cmp.Or(string(o.Content), o.Target)
	}
	return out
}
