package forgemodel

import (
	"maps"
	"slices"
	"strings"
)

// The loose objects of a git data API (GitHub's blobs, trees, commits
// and refs): blobs and trees written before a commit holds them, found
// by their names alongside those of every commit's snapshot. A tree's
// name digests its paths and their objects, so the same files are the
// same tree wherever they come from.

// TreeSHA is the name of a tree holding files (paths relative to it).
func TreeSHA(files map[string]Object) string {
	parts := []string{"tree"}
	for _, p := range slices.Sorted(maps.Keys(files)) {
		parts = append(parts, p, files[p].Kind, files[p].SHA())
	}
	return HashOf(parts...)
}

// Subtree is the files of tree below dir ("" = all of them), with paths
// relative to dir; empty when dir holds none.
func Subtree(tree map[string]Object, dir string) map[string]Object {
	if dir == "" {
		return maps.Clone(tree)
	}
	out := map[string]Object{}
	for p, o := range tree {
		if rest, ok := strings.CutPrefix(p, dir+"/"); ok {
			out[rest] = o
		}
	}
	return out
}

// AddBlob stores content as a loose blob and returns its name.
func (r *Repo) AddBlob(content []byte) string {
	sha := BlobSHA(string(content))
	if r.Blobs == nil {
		r.Blobs = map[string][]byte{}
	}
	r.Blobs[sha] = slices.Clone(content)
	return sha
}

// AddTree stores files as a tree and returns its name.
func (r *Repo) AddTree(files map[string]Object) string {
	sha := TreeSHA(files)
	if r.Trees == nil {
		r.Trees = map[string]map[string]Object{}
	}
	r.Trees[sha] = maps.Clone(files)
	return sha
}

// BlobAt is the content of the blob named sha: a loose one, or a file or
// symlink of some commit.
func (r *Repo) BlobAt(sha string) ([]byte, bool) {
	if b, ok := r.Blobs[sha]; ok {
		return b, true
	}
	for _, c := range r.Commits {
		for _, o := range c.Tree {
			if o.Kind != "submodule" && o.SHA() == sha {
				return o.Content, true
			}
		}
	}
	return nil, false
}

// TreeAt is the tree named sha: a loose one, or the root or a directory
// of some commit's snapshot.
func (r *Repo) TreeAt(sha string) (map[string]Object, bool) {
	if t, ok := r.Trees[sha]; ok {
		return t, true
	}
	for _, c := range r.Commits {
		dirs := map[string]bool{"": true}
		for p := range c.Tree {
			for i := strings.Index(p, "/"); i >= 0; i = next(p, i) {
				dirs[p[:i]] = true
			}
		}
		for d := range dirs {
			if sub := Subtree(c.Tree, d); TreeSHA(sub) == sha {
				return sub, true
			}
		}
	}
	return nil, false
}

// next is the index of the "/" after the one at i in p, or -1.
func next(p string, i int) int {
	j := strings.Index(p[i+1:], "/")
	if j < 0 {
		return -1
	}
	return i + 1 + j
}

// Descends reports whether commit sha is ancestor or has it among its
// ancestors: a ref moving from ancestor to sha is a fast-forward.
func (r *Repo) Descends(sha, ancestor string) bool {
	seen := map[string]bool{}
	todo := []string{sha}
	for len(todo) > 0 {
		c := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		if c == ancestor {
			return true
		}
		if seen[c] || r.Commits[c] == nil {
			continue
		}
		seen[c] = true
		todo = append(todo, r.Commits[c].Parents...)
	}
	return false
}
