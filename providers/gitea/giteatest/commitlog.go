package giteatest

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/forgetools/forgetools/internal/forgemodel"
)

// The fake's commit history: a log per branch, recorded by the writes
// that make commits (file writes, change sets, merges) and copied when a
// branch is made from another, so GET .../commits can walk it as Gitea
// walks git.

// logCommit is one commit of a branch's history as the fake keeps it.
type logCommit struct {
	sha, parent, message, author string
	when                         time.Time
	files                        []fileChange
}

// fileChange is one path a commit changed, with Gitea's file status
// (added, modified, removed) and whole-file line counts (the fake keeps
// no diffs: a modified file counts as all its old lines out and all its
// new lines in).
type fileChange struct {
	path, status         string
	additions, deletions int
}

func logKey(r *forgemodel.Repo, branch string) string { return r.Path + "\x00" + branch }

// history is a branch's commits, oldest first; a branch no write has
// touched has one, its head when first asked, adding every file it holds.
func (s *Server) history(r *forgemodel.Repo, branch string) []*logCommit {
	if s.log == nil {
		s.log = map[string][]*logCommit{}
	}
	k := logKey(r, branch)
	if _, found := s.log[k]; !found {
		if head, ok := r.Branches[branch]; ok {
			s.log[k] = []*logCommit{{sha: head, message: "Initial commit\n", author: "gitea-admin", when: s.Now(),
				files: changes(nil, r.Files[branch])}}
		}
	}
	return s.log[k]
}

// snapshot seeds a branch's history at its current head and returns a
// copy of its files: call it before a write changes them, and hand the
// copy to recordCommit after.
func (s *Server) snapshot(r *forgemodel.Repo, branch string) map[string]string {
	s.history(r, branch)
	return maps.Clone(r.Files[branch])
}

// recordCommit adds the commit a write made to its branch's history (its
// head now), with the paths that changed since before.
func (s *Server) recordCommit(r *forgemodel.Repo, branch, message, author string, before map[string]string) {
	h := s.history(r, branch)
	parent := ""
	if len(h) > 0 {
		parent = h[len(h)-1].sha
	}
	s.log[logKey(r, branch)] = append(h, &logCommit{sha: r.Branches[branch], parent: parent, message: message, author: author,
		when: s.Tick(), files: changes(before, r.Files[branch])})
}

// copyHistory gives a new branch its source's history.
func (s *Server) copyHistory(r *forgemodel.Repo, to, from string) {
	h := s.history(r, from)
	if s.log == nil {
		s.log = map[string][]*logCommit{}
	}
	s.log[logKey(r, to)] = slices.Clone(h)
}

// upTo is the history ending at ref: a branch's, or a branch's up to the
// commit ref names (a full id, or a prefix of seven or more digits); nil
// when ref is neither.
func (s *Server) upTo(r *forgemodel.Repo, ref string) []*logCommit {
	if _, ok := r.Branches[ref]; ok {
		return s.history(r, ref)
	}
	if len(ref) < 7 {
		return nil
	}
	ref = strings.ToLower(ref)
	for _, b := range slices.Sorted(maps.Keys(r.Branches)) {
		h := s.history(r, b)
		for i, c := range h {
			if strings.HasPrefix(c.sha, ref) {
				return h[:i+1]
			}
		}
	}
	return nil
}

// changes are the paths that differ from before to after, sorted.
func changes(before, after map[string]string) []fileChange {
	var out []fileChange
	for _, p := range slices.Sorted(maps.Keys(after)) {
		old, had := before[p]
		switch {
		case !had:
			out = append(out, fileChange{path: p, status: "added", additions: lines(after[p])})
		case old != after[p]:
			out = append(out, fileChange{path: p, status: "modified", additions: lines(after[p]), deletions: lines(old)})
		}
	}
	for _, p := range slices.Sorted(maps.Keys(before)) {
		if _, kept := after[p]; !kept {
			out = append(out, fileChange{path: p, status: "removed", deletions: lines(before[p])})
		}
	}
	return out
}

func lines(s string) int {
	if s == "" {
		return 0
	}
	return strings.Count(strings.TrimSuffix(s, "\n"), "\n") + 1
}

// touches says whether the commit changed path (a file, or a directory
// and everything below it).
func (c *logCommit) touches(path string) bool {
	return slices.ContainsFunc(c.files, func(f fileChange) bool { return f.path == path || strings.HasPrefix(f.path, path+"/") })
}

// mergeMessage is the message of the commit Gitea's merge makes.
func mergeMessage(it *forgemodel.Item) string {
	return fmt.Sprintf("Merge pull request '%s' (#%d) from %s into %s\n", it.Title, it.Number, it.Pull.Head, it.Pull.Base)
}
