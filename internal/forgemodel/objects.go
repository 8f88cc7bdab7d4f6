package forgemodel

import (
	"cmp"
	"maps"
	"slices"
	"strings"
	"time"
)

// Git is a repository as git objects: commits each holding a whole
// snapshot of their tree (test repositories are small), branches and tags
// naming commits, and object names that are real git blob ids for file
// content, so a sha a fake hands out is one its forge would. A fake that
// keeps files per branch (Repo.Files) has its commits here too, each a
// snapshot of the branch's files (history.go), and no loose objects.
type Git struct {
	Tags    map[string]string  // name -> commit
	Commits map[string]*Commit // sha -> commit
	// Blobs and Trees are objects written through a git data API
	// (gitdata.go) that no commit may hold yet.
	Blobs map[string][]byte
	Trees map[string]map[string]Object
}

// Object is one path of a commit's tree: a file's Content, a symlink
// (Kind "symlink", Content and Target its target), or a submodule (Kind
// "submodule", Target its URL).
type Object struct {
	Content []byte
	Kind    string // "" (a file), "symlink" or "submodule"
	Target  string
}

// SHA is the object name: the blob's for a file or symlink, a stable
// fake one of the pinned URL for a submodule.
func (o Object) SHA() string {
	if o.Kind == "submodule" {
		return HashOf("submodule", o.Target)
	}
	return BlobSHA(string(o.Content))
}

// Type is the object's kind as the contents APIs name it: file, symlink
// or submodule.
func (o Object) Type() string { return cmp.Or(o.Kind, "file") }

// Commit is one commit: its parents, message, author, time and tree.
type Commit struct {
	SHA     string
	Parents []string
	Message string
	Author  string
	When    time.Time
	Tree    map[string]Object
}

// HashOf is a stable fake object name of parts.
func HashOf(parts ...string) string { return SHA(strings.Join(parts, "\x00")) }

// NewCommit records a commit of tree on parents by author, at the next
// tick; its sha digests all of it.
func (s *State) NewCommit(r *Repo, parents []string, author, message string, tree map[string]Object) *Commit {
	s.User(author)
	return s.record(r, &Commit{Parents: parents, Message: message, Author: author, When: s.Tick(), Tree: tree})
}

// CommitAt resolves a ref as forges do: a branch or tag name (also as
// heads/NAME, tags/NAME, refs/...), a full commit sha, or an unambiguous
// prefix of at least seven hex digits; nil for none.
func (r *Repo) CommitAt(ref string) *Commit {
	name := strings.TrimPrefix(ref, "refs/")
	if b, ok := strings.CutPrefix(name, "heads/"); ok {
		name = b
	} else if t, ok := strings.CutPrefix(name, "tags/"); ok {
		return r.Commits[r.Tags[t]]
	}
	if sha, ok := r.Branches[name]; ok {
		return r.Commits[sha]
	}
	if sha, ok := r.Tags[name]; ok {
		return r.Commits[sha]
	}
	if len(ref) < 7 {
		return nil
	}
	var found *Commit
	for sha, c := range r.Commits {
		if strings.HasPrefix(sha, strings.ToLower(ref)) {
			if found != nil {
				return nil
			}
			found = c
		}
	}
	return found
}

// TreeEntry is one child of a directory of a commit: an object of the
// tree, or a directory that holds some (Object nil).
type TreeEntry struct {
	Name, Path string
	Object     *Object
	SHA        string
}

// Dir lists the children of path in c ("" = the root), sorted by name,
// and whether path is a directory at all. A directory's sha digests what
// it holds.
func (c *Commit) Dir(path string) ([]TreeEntry, bool) {
	prefix := ""
	if path != "" {
		prefix = path + "/"
	}
	children := map[string]*TreeEntry{}
	for _, p := range slices.Sorted(maps.Keys(c.Tree)) {
		o := c.Tree[p]
		rest, ok := strings.CutPrefix(p, prefix)
		if !ok || rest == "" {
			continue
		}
		name, below, sub := strings.Cut(rest, "/")
		e := children[name]
		if e == nil {
			e = &TreeEntry{Name: name, Path: prefix + name}
			children[name] = e
		}
		if !sub {
			e.Object, e.SHA = &o, o.SHA()
			continue
		}
		e.SHA = HashOf(e.SHA, below, o.SHA())
	}
	out := make([]TreeEntry, 0, len(children))
	for _, name := range slices.Sorted(maps.Keys(children)) {
		out = append(out, *children[name])
	}
	return out, len(out) > 0 || path == ""
}
