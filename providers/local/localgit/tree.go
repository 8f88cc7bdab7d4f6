package localgit

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"path"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/forgetools/forgetools/internal/gitpath"
)

// entry is one non-tree entry of a flattened tree: a file, a symlink or a
// submodule, by its full path.
type entry struct {
	hash plumbing.Hash
	mode filemode.FileMode
}

// flatten lists every non-tree entry under the tree, by full path. Writes
// and merges work on this flat view and build the nested trees again:
// simpler than editing trees in place, and the sandbox's repositories are
// small.
func (r *Repo) flatten(tree plumbing.Hash) (map[string]entry, error) {
	out := map[string]entry{}
	if tree.IsZero() {
		return out, nil
	}
	t, err := r.git.TreeObject(tree)
	if err != nil {
		return nil, err
	}
	w := object.NewTreeWalker(t, true, nil)
	defer w.Close()
	// The names are held to CheckPath below, so a tree someone pushed
	// with a path git refuses is said to be that (invalid), not a failure.
	w.SkipPathValidation()
	for {
		name, e, err := w.Next()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		if why := gitpath.Problem(name); why != "" {
			return nil, fmt.Errorf("%w: the tree holds %q, a path git refuses (%s): no write or merge may carry it on", ErrInvalid, name, why)
		}
		if e.Mode != filemode.Dir {
			out[name] = entry{hash: e.Hash, mode: e.Mode}
		}
	}
}

// treeOf is the tree of commit.
func (r *Repo) treeOf(commit plumbing.Hash) (plumbing.Hash, error) {
	c, err := r.git.CommitObject(commit)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	return c.TreeHash, nil
}

// buildTree writes the nested trees of a flat view and returns the root. A
// path that is both a file and a directory ("a" and "a/b") is a conflict.
func (r *Repo) buildTree(files map[string]entry) (plumbing.Hash, error) {
	type dir struct {
		entries []object.TreeEntry
		subdirs map[string]bool
	}
	dirs := map[string]*dir{"": {subdirs: map[string]bool{}}}
	var ensure func(p string) *dir
	ensure = func(p string) *dir {
		if d, ok := dirs[p]; ok {
			return d
		}
		d := &dir{subdirs: map[string]bool{}}
		dirs[p] = d
		parent := ensure(dirOf(p))
		parent.subdirs[path.Base(p)] = true
		return d
	}
	for p, e := range files {
		d := ensure(dirOf(p))
		d.entries = append(d.entries, object.TreeEntry{Name: path.Base(p), Mode: e.mode, Hash: e.hash})
	}
	// Deepest directories first, so each subtree's hash exists before its
	// parent is written.
	paths := make([]string, 0, len(dirs))
	for p := range dirs {
		paths = append(paths, p)
	}
	sort.Slice(paths, func(i, j int) bool { return depth(paths[i]) > depth(paths[j]) })
	hashes := map[string]plumbing.Hash{}
	for _, p := range paths {
		d := dirs[p]
		for name := range d.subdirs {
			sub := join(p, name)
			if _, isFile := files[sub]; isFile {
				return plumbing.ZeroHash, fmt.Errorf("%w: %s is a file in one version and a directory in another", ErrConflict, sub)
			}
			d.entries = append(d.entries, object.TreeEntry{Name: name, Mode: filemode.Dir, Hash: hashes[sub]})
		}
		sort.Sort(object.TreeEntrySorter(d.entries))
		obj := r.git.Storer.NewEncodedObject()
		if err := (&object.Tree{Entries: d.entries}).Encode(obj); err != nil {
			return plumbing.ZeroHash, err
		}
		h, err := r.git.Storer.SetEncodedObject(obj)
		if err != nil {
			return plumbing.ZeroHash, err
		}
		hashes[p] = h
	}
	return hashes[""], nil
}

// depth orders directories for building: the root is shallowest.
func depth(dir string) int {
	if dir == "" {
		return -1
	}
	return strings.Count(dir, "/")
}

func dirOf(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[:i]
	}
	return ""
}

func join(dir, name string) string {
	if dir == "" {
		return name
	}
	return dir + "/" + name
}

// blob stores content and returns its hash.
func (r *Repo) blob(content []byte) (plumbing.Hash, error) {
	obj := r.git.Storer.NewEncodedObject()
	obj.SetType(plumbing.BlobObject)
	w, err := obj.Writer()
	if err != nil {
		return plumbing.ZeroHash, err
	}
	if _, err := w.Write(content); err != nil {
		w.Close()
		return plumbing.ZeroHash, err
	}
	if err := w.Close(); err != nil {
		return plumbing.ZeroHash, err
	}
	return r.git.Storer.SetEncodedObject(obj)
}

// commit stores a commit of tree and returns its hash.
func (r *Repo) commit(tree plumbing.Hash, parents []plumbing.Hash, message string, author, committer Signature) (plumbing.Hash, error) {
	c := &object.Commit{
		Author: author.git(), Committer: committer.git(), Message: message, TreeHash: tree, ParentHashes: parents,
	}
	obj := r.git.Storer.NewEncodedObject()
	if err := c.Encode(obj); err != nil {
		return plumbing.ZeroHash, err
	}
	return r.git.Storer.SetEncodedObject(obj)
}

// CheckPath refuses a path git would not store or that could leave a
// checkout, by git's own rules (gitpath, which the gateway applies to
// every forge's paths too).
func CheckPath(p string) error {
	if why := gitpath.Problem(p); why != "" {
		return fmt.Errorf("%w: path %q: %s", ErrInvalid, p, why)
	}
	return nil
}

// File is one file read at a commit.
type File struct {
	Blob plumbing.Hash
	Size int64
	// Binary files have no Content.
	Binary bool
	// Content is the text, cut at the reader's cap on a character boundary
	// (then Truncated is set). A symlink's content is its target.
	Content   string
	Truncated bool
}

// binarySniff is how much of a file is looked at for a NUL byte, as git
// does to call a file binary.
const binarySniff = 8000

// ReadFile reads the file at p in commit, keeping at most maxBytes of its
// text.
func (r *Repo) ReadFile(commit plumbing.Hash, p string, maxBytes int) (File, error) {
	e, err := r.find(commit, p)
	if err != nil {
		return File{}, err
	}
	switch e.Mode {
	case filemode.Dir:
		return File{}, fmt.Errorf("%w: %s is a directory; list it instead", ErrInvalid, p)
	case filemode.Submodule:
		return File{}, fmt.Errorf("%w: %s is a submodule (commit %s), not a file", ErrInvalid, p, e.Hash)
	}
	b, err := r.git.BlobObject(e.Hash)
	if err != nil {
		return File{}, err
	}
	rd, err := b.Reader()
	if err != nil {
		return File{}, err
	}
	defer rd.Close()
	// One byte past the cap says whether the text was cut.
	data, err := io.ReadAll(io.LimitReader(rd, int64(maxBytes)+1))
	if err != nil {
		return File{}, err
	}
	f := File{Blob: e.Hash, Size: b.Size}
	if bytes.IndexByte(data[:min(len(data), binarySniff)], 0) >= 0 {
		f.Binary = true
		return f, nil
	}
	if len(data) > maxBytes {
		data, f.Truncated = data[:maxBytes], true
		// Never end inside a character: drop the bytes of one cut short.
		for cut := 0; cut < utf8.UTFMax-1 && len(data) > 0; cut++ {
			if r, size := utf8.DecodeLastRune(data); r != utf8.RuneError || size > 1 {
				break
			}
			data = data[:len(data)-1]
		}
	}
	if !utf8.Valid(data) {
		f.Binary, f.Truncated = true, false // no text, so none was cut
		return f, nil
	}
	f.Content = string(data)
	return f, nil
}

// rootTree is commit's tree.
func (r *Repo) rootTree(commit plumbing.Hash) (*object.Tree, error) {
	c, err := r.git.CommitObject(commit)
	if err != nil {
		return nil, err
	}
	return c.Tree()
}

// find is the tree entry at p in commit. It walks p a component at a
// time, so a path under a file or a symlink ("README.md/x") is the
// caller's mistake, said as such, not a failure to read a tree.
func (r *Repo) find(commit plumbing.Hash, p string) (*object.TreeEntry, error) {
	if err := CheckPath(p); err != nil {
		return nil, err
	}
	t, err := r.rootTree(commit)
	if err != nil {
		return nil, err
	}
	parts := strings.Split(p, "/")
	for i, name := range parts {
		e, err := t.FindEntry(name)
		if errors.Is(err, object.ErrEntryNotFound) || errors.Is(err, object.ErrDirectoryNotFound) {
			return nil, fmt.Errorf("%w: no %s at %s", ErrNotFound, p, commit.String()[:7])
		}
		if err != nil {
			return nil, err
		}
		if i == len(parts)-1 {
			return e, nil
		}
		if e.Mode != filemode.Dir {
			under := strings.Join(parts[:i+1], "/")
			return nil, fmt.Errorf("%w: %s is a %s, not a directory, so there is no %s under it", ErrInvalid, under, typeOf(e.Mode), p)
		}
		if t, err = r.git.TreeObject(e.Hash); err != nil {
			return nil, err
		}
	}
	return nil, fmt.Errorf("%w: no %s at %s", ErrNotFound, p, commit.String()[:7]) // unreachable: p has a component
}

// Entry is one entry of a directory listing.
type Entry struct {
	Name string
	// Type is file, dir, symlink or submodule.
	Type string
	// Size is a file's or symlink's size in bytes; 0 for the others.
	Size int64
	Hash plumbing.Hash
}

// ListDir lists the directory at p in commit ("" is the root), in git's
// order.
func (r *Repo) ListDir(commit plumbing.Hash, p string) ([]Entry, error) {
	t, err := r.rootTree(commit)
	if err != nil {
		return nil, err
	}
	if p != "" {
		e, err := r.find(commit, p)
		if err != nil {
			return nil, err
		}
		if e.Mode != filemode.Dir {
			return nil, fmt.Errorf("%w: %s is not a directory; read it as a file", ErrInvalid, p)
		}
		if t, err = r.git.TreeObject(e.Hash); err != nil {
			return nil, err
		}
	}
	out := make([]Entry, 0, len(t.Entries))
	for _, e := range t.Entries {
		out = append(out, Entry{Name: e.Name, Type: typeOf(e.Mode), Hash: e.Hash})
		if e.Mode.IsFile() {
			if size, err := r.git.Storer.EncodedObjectSize(e.Hash); err == nil {
				out[len(out)-1].Size = size
			}
		}
	}
	return out, nil
}

func typeOf(m filemode.FileMode) string {
	switch m {
	case filemode.Dir:
		return "dir"
	case filemode.Symlink:
		return "symlink"
	case filemode.Submodule:
		return "submodule"
	}
	return "file"
}
