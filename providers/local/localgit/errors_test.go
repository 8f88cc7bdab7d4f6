package localgit

import (
	"errors"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
)

// A path through a file or a symlink is the caller's mistake: every read
// and write says so (invalid or not found), never an error the forge
// would report as internal (issue 19, item 8).
func TestPathsThroughAFileAreTheCallersMistake(t *testing.T) {
	_, r := newRepo(t)
	main := tip(t, r, "main")
	tree, err := r.treeOf(main)
	if err != nil {
		t.Fatal(err)
	}
	files, err := r.flatten(tree)
	if err != nil {
		t.Fatal(err)
	}
	target, err := r.blob([]byte("README.md"))
	if err != nil {
		t.Fatal(err)
	}
	content, err := r.blob([]byte("x\n"))
	if err != nil {
		t.Fatal(err)
	}
	files["link"] = entry{hash: target, mode: filemode.Symlink}
	files["file"] = entry{hash: content, mode: filemode.Regular}
	files["dir/inner"] = entry{hash: content, mode: filemode.Regular}
	newTree, err := r.buildTree(files)
	if err != nil {
		t.Fatal(err)
	}
	commit, err := r.commit(newTree, []plumbing.Hash{main}, "links", alice, alice)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.move("main", main, commit); err != nil {
		t.Fatal(err)
	}
	callers := func(what string, err error) {
		t.Helper()
		if err == nil || !errors.Is(err, ErrInvalid) && !errors.Is(err, ErrNotFound) {
			t.Errorf("%s: %v, want invalid or not found", what, err)
		}
	}
	for _, p := range []string{"link/x", "file/x", "file/x/y", "link/x/y", "dir/inner/x", "dir"} {
		_, err := r.ReadFile(commit, p, 100)
		callers("read "+p, err)
		_, err = r.WriteFile(Change{Branch: "main", Path: p, Content: []byte("y"), Message: "m", Author: alice})
		callers("write "+p, err)
	}
	for _, p := range []string{"link", "file", "link/x", "file/x", "dir/inner"} {
		_, err := r.ListDir(commit, p)
		callers("list "+p, err)
	}
	if got := tip(t, r, "main"); got != commit {
		t.Fatalf("a refused write moved main to %s", got)
	}
	write(t, r, "main", "dir/more", "still writable\n", "")
}
