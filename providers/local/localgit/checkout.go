package localgit

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// Checkout writes the files of commit into dir (which must exist), as a
// CI run's working copy: regular and executable files and symlinks;
// submodules are left out. Writes go through an os.Root, so no entry of
// the tree can place a file outside dir, and a ".git" entry is skipped so
// the copy is never taken for a repository of its own.
func (r *Repo) Checkout(commit plumbing.Hash, dir string) error {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return err
	}
	defer root.Close()
	t, err := r.rootTree(commit)
	if err != nil {
		return err
	}
	w := object.NewTreeWalker(t, true, nil)
	defer w.Close()
	w.SkipPathValidation() // CheckPath below says what is wrong
	for {
		name, e, err := w.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		if CheckPath(name) != nil {
			return fmt.Errorf("%w: the tree has an entry %q no checkout may write", ErrInvalid, name)
		}
		if err := r.place(root, name, e); err != nil {
			return fmt.Errorf("checkout %s: %w", name, err)
		}
	}
}

func (r *Repo) place(root *os.Root, name string, e object.TreeEntry) error {
	switch e.Mode {
	case filemode.Dir:
		return root.MkdirAll(name, 0o755)
	case filemode.Submodule:
		return nil
	}
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		if err := root.MkdirAll(name[:i], 0o755); err != nil {
			return err
		}
	}
	b, err := r.git.BlobObject(e.Hash)
	if err != nil {
		return err
	}
	rd, err := b.Reader()
	if err != nil {
		return err
	}
	defer rd.Close()
	if e.Mode == filemode.Symlink {
		target, err := io.ReadAll(rd)
		if err != nil {
			return err
		}
		return root.Symlink(string(target), name)
	}
	perm := os.FileMode(0o644)
	if e.Mode == filemode.Executable {
		perm = 0o755
	}
	f, err := root.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return err
	}
	if _, err := io.Copy(f, rd); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
