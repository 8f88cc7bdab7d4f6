package githubtest

import (
	"maps"

	"github.com/forgetools/forgetools/internal/forgemodel"
)

// The fake's git model is the shared one (forgemodel.Git): every
// commit holds a whole snapshot of its files, branches and tags name
// commits, and object names are real git blob shas for file content, so
// a sha the fake hands out is one GitHub would.

type (
	file   = forgemodel.Object
	commit = forgemodel.Commit
	entry  = forgemodel.TreeEntry
)

// hashOf is a stable fake object name of parts.
func hashOf(parts ...string) string { return forgemodel.HashOf(parts...) }

// File is a path to commit when seeding a repository: its Content, or a
// Symlink to a target, or a Submodule pointing at a URL.
type File struct {
	Path      string
	Content   string
	Symlink   string
	Submodule string
}

// Commit commits files to branch (created at the default branch's head if
// it does not exist) as octocat, and returns the new commit's sha.
func (s *Server) Commit(fullName, branch, message string, files ...File) string {
	s.Lock()
	defer s.Unlock()
	r := s.mustRepo(fullName)
	parent, ok := r.Branches[branch]
	if !ok {
		parent = r.Branches[r.DefaultBranch]
	}
	tree := maps.Clone(r.Commits[parent].Tree)
	for _, f := range files {
		switch {
		case f.Symlink != "":
			tree[f.Path] = file{Content: []byte(f.Symlink), Kind: "symlink", Target: f.Symlink}
		case f.Submodule != "":
			tree[f.Path] = file{Kind: "submodule", Target: f.Submodule}
		default:
			tree[f.Path] = file{Content: []byte(f.Content)}
		}
	}
	c := s.NewCommit(r, []string{parent}, "octocat", message, tree)
	r.Branches[branch] = c.SHA
	return c.SHA
}

// Head is the commit a branch points at ("" when there is no such branch).
func (s *Server) Head(fullName, branch string) string {
	s.Lock()
	defer s.Unlock()
	return s.mustRepo(fullName).Branches[branch]
}

// FileAt is a file's content at a ref (branch, tag or commit), and whether
// the file exists there.
func (s *Server) FileAt(fullName, ref, path string) (string, bool) {
	s.Lock()
	defer s.Unlock()
	c := s.mustRepo(fullName).CommitAt(ref)
	if c == nil {
		return "", false
	}
	f, ok := c.Tree[path]
	return string(f.Content), ok
}
