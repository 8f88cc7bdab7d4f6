package githubtest

import (
	"cmp"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/forgetools/forgetools/internal/forgemodel"
)

// The fake's git model: every commit holds a whole snapshot of its files
// (test repositories are small), branches and tags name commits, and object
// names are real git blob shas for file content, so a sha the fake hands
// out is one GitHub would.

// file is one path of a commit's tree.
type file struct {
	content []byte
	kind    string // "" (a file), "symlink" or "submodule"
	target  string // a symlink's target or a submodule's URL
}

// sha is the object name: the blob's for a file or symlink, the pinned
// commit's for a submodule.
func (f file) sha() string {
	if f.kind == "submodule" {
		return hashOf("submodule", f.target)
	}
	return blobSHA(f.content)
}

func (f file) typ() string { return cmp.Or(f.kind, "file") }

type commit struct {
	sha     string
	parents []string
	message string
	author  string
	when    time.Time
	tree    map[string]file
}

// blobSHA is git's object name for content as a blob.
func blobSHA(content []byte) string { return forgemodel.BlobSHA(string(content)) }

// hashOf is a stable fake object name of parts.
func hashOf(parts ...string) string { return forgemodel.SHA(strings.Join(parts, "\x00")) }

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
	parent, ok := r.branches[branch]
	if !ok {
		parent = r.branches[r.defaultBranch]
	}
	tree := maps.Clone(r.commits[parent].tree)
	for _, f := range files {
		switch {
		case f.Symlink != "":
			tree[f.Path] = file{content: []byte(f.Symlink), kind: "symlink", target: f.Symlink}
		case f.Submodule != "":
			tree[f.Path] = file{kind: "submodule", target: f.Submodule}
		default:
			tree[f.Path] = file{content: []byte(f.Content)}
		}
	}
	c := s.commit(r, []string{parent}, "octocat", message, tree)
	r.branches[branch] = c.sha
	return c.sha
}

// Head is the commit a branch points at ("" when there is no such branch).
func (s *Server) Head(fullName, branch string) string {
	s.Lock()
	defer s.Unlock()
	return s.mustRepo(fullName).branches[branch]
}

// FileAt is a file's content at a ref (branch, tag or commit), and whether
// the file exists there.
func (s *Server) FileAt(fullName, ref, path string) (string, bool) {
	s.Lock()
	defer s.Unlock()
	c := s.mustRepo(fullName).commitAt(ref)
	if c == nil {
		return "", false
	}
	f, ok := c.tree[path]
	return string(f.content), ok
}

// commit records a commit of tree on parents.
func (s *Server) commit(r *repo, parents []string, author, message string, tree map[string]file) *commit {
	c := &commit{parents: parents, message: message, author: author, when: s.Tick(), tree: tree}
	paths := slices.Sorted(maps.Keys(tree))
	parts := append([]string{strings.Join(parents, ","), message, c.when.String()}, paths...)
	for _, p := range paths {
		parts = append(parts, tree[p].sha())
	}
	c.sha = hashOf(parts...)
	r.commits[c.sha] = c
	s.User(author)
	return c
}

// commitAt resolves a ref as GitHub does: a branch or tag name (also as
// heads/NAME, tags/NAME, refs/...), a full commit sha, or an unambiguous
// prefix of at least seven hex digits.
func (r *repo) commitAt(ref string) *commit {
	name := strings.TrimPrefix(ref, "refs/")
	if b, ok := strings.CutPrefix(name, "heads/"); ok {
		name = b
	} else if t, ok := strings.CutPrefix(name, "tags/"); ok {
		return r.commits[r.tags[t]]
	}
	if sha, ok := r.branches[name]; ok {
		return r.commits[sha]
	}
	if sha, ok := r.tags[name]; ok {
		return r.commits[sha]
	}
	if len(ref) < 7 {
		return nil
	}
	var found *commit
	for sha, c := range r.commits {
		if strings.HasPrefix(sha, strings.ToLower(ref)) {
			if found != nil {
				return nil
			}
			found = c
		}
	}
	return found
}

// entry is one child of a directory: a file of the tree, or a directory
// that holds some.
type entry struct {
	name, path string
	file       *file // nil for a directory
	sha        string
}

// dir lists the children of path in c ("" = the root), sorted by name, and
// whether path is a directory at all.
func (c *commit) dir(path string) ([]entry, bool) {
	prefix := ""
	if path != "" {
		prefix = path + "/"
	}
	children := map[string]*entry{}
	for _, p := range slices.Sorted(maps.Keys(c.tree)) {
		f := c.tree[p]
		rest, ok := strings.CutPrefix(p, prefix)
		if !ok || rest == "" {
			continue
		}
		name, below, sub := strings.Cut(rest, "/")
		e := children[name]
		if e == nil {
			e = &entry{name: name, path: prefix + name}
			children[name] = e
		}
		if !sub {
			e.file, e.sha = &f, f.sha()
			continue
		}
		// A directory's sha digests what it holds.
		e.sha = hashOf(e.sha, below, f.sha())
	}
	out := make([]entry, 0, len(children))
	for _, name := range slices.Sorted(maps.Keys(children)) {
		out = append(out, *children[name])
	}
	return out, len(out) > 0 || path == ""
}
