package localgit

import (
	"fmt"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
)

// Change is one file written as a commit on a branch.
type Change struct {
	Branch  string
	Path    string
	Content []byte
	// ExpectedBlob is the blob sha (or a 7+ digit prefix) the writer read;
	// "" means the file must not exist yet.
	ExpectedBlob string
	Message      string
	Author       Signature
}

// Written is what a Change made.
type Written struct {
	Commit, Blob plumbing.Hash
	// Unchanged is set when the content was already there: no commit was
	// made and Commit is the branch as it was.
	Unchanged bool
}

// WriteFile commits c on its branch. It refuses, writing nothing, when the
// file exists and ExpectedBlob is not its blob (or is empty), when the file
// does not exist and ExpectedBlob is set, and when the branch moves before
// the commit lands.
func (r *Repo) WriteFile(c Change) (Written, error) {
	if err := CheckPath(c.Path); err != nil {
		return Written{}, err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	tip, ok, err := r.Branch(c.Branch)
	if err != nil {
		return Written{}, err
	}
	if !ok {
		return Written{}, fmt.Errorf("%w: there is no branch %q; create it first", ErrNotFound, c.Branch)
	}
	tree, err := r.treeOf(tip)
	if err != nil {
		return Written{}, err
	}
	files, err := r.flatten(tree)
	if err != nil {
		return Written{}, err
	}
	if err := placeable(files, c.Path); err != nil {
		return Written{}, err
	}
	old, exists := files[c.Path]
	if err := expectBlob(c.Branch, c.Path, c.ExpectedBlob, old.hash, exists); err != nil {
		return Written{}, err
	}
	blob, err := r.blob(c.Content)
	if err != nil {
		return Written{}, err
	}
	if exists && old.hash == blob {
		return Written{Commit: tip, Blob: blob, Unchanged: true}, nil
	}
	mode := filemode.Regular
	if exists && old.mode == filemode.Executable {
		mode = old.mode // an update keeps the executable bit
	}
	files[c.Path] = entry{hash: blob, mode: mode}
	newTree, err := r.buildTree(files)
	if err != nil {
		return Written{}, err
	}
	commit, err := r.commit(newTree, []plumbing.Hash{tip}, c.Message, c.Author, c.Author)
	if err != nil {
		return Written{}, err
	}
	if err := r.move(c.Branch, tip, commit); err != nil {
		return Written{}, err
	}
	return Written{Commit: commit, Blob: blob}, nil
}

// placeable refuses a path under a file ("a.txt/b") or onto a directory.
func placeable(files map[string]entry, p string) error {
	for dir := dirOf(p); dir != ""; dir = dirOf(dir) {
		if _, isFile := files[dir]; isFile {
			return fmt.Errorf("%w: %s is a file, so %s cannot be written under it", ErrInvalid, dir, p)
		}
	}
	for other := range files {
		if strings.HasPrefix(other, p+"/") {
			return fmt.Errorf("%w: %s is a directory, not a file", ErrInvalid, p)
		}
	}
	return nil
}

// expectBlob is the compare half of the write's compare-and-set: the
// writer must name what it read, so nothing it did not see is overwritten.
func expectBlob(branch, path, expected string, have plumbing.Hash, exists bool) error {
	want := strings.ToLower(expected)
	switch {
	case exists && want == "":
		return fmt.Errorf("%w: %s exists on %s (blob %s): pass its blob sha as expected_sha to update it, after reading it",
			ErrStale, path, branch, have)
	case !exists && want != "":
		return fmt.Errorf("%w: %s does not exist on %s, so expected_sha %s matches nothing: it was moved or deleted since you read it; omit expected_sha to create it",
			ErrStale, path, branch, expected)
	case exists && !strings.HasPrefix(have.String(), want):
		return fmt.Errorf("%w: %s on %s is now blob %s, not the expected_sha %s you read: read it again and decide",
			ErrStale, path, branch, have, expected)
	}
	return nil
}
