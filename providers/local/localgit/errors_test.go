package localgit

import (
	"errors"
	"sort"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
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

// A branch pushed past the gateway with a path git refuses (a crafted
// tree: git's own client would not add it) cannot carry that path into
// another branch: a merge is refused as invalid, writing nothing, and the
// base stays writable.
func TestMergeRefusesAPathGitRefuses(t *testing.T) {
	_, r := newRepo(t)
	main := tip(t, r, "main")
	bad, err := r.blob([]byte("[core]\n\tfsmonitor = evil\n"))
	if err != nil {
		t.Fatal(err)
	}
	// The tree is written entry by entry, as a hostile client would.
	sub := rawTree(t, r, object.TreeEntry{Name: "config", Mode: filemode.Regular, Hash: bad})
	root, err := r.rootTree(main)
	if err != nil {
		t.Fatal(err)
	}
	tree := rawTree(t, r, append(root.Entries, object.TreeEntry{Name: "GIT~1", Mode: filemode.Dir, Hash: sub})...)
	poisoned, err := r.commit(tree, []plumbing.Hash{main}, "poison", bob, bob)
	if err != nil {
		t.Fatal(err)
	}
	pushRef(t, r, plumbing.NewBranchReferenceName("poisoned"), poisoned)
	for _, method := range []string{"merge", "squash", "rebase"} {
		_, err := r.Merge(MergeRequest{Base: "main", Head: "poisoned", ExpectedHead: poisoned.String(), Method: method, Message: "m", Committer: alice})
		if !errors.Is(err, ErrInvalid) {
			t.Errorf("%s of a branch holding GIT~1/config: %v, want invalid", method, err)
		}
	}
	if got := tip(t, r, "main"); got != main {
		t.Fatalf("a refused merge moved main to %s", got)
	}
	write(t, r, "main", "ok.txt", "ok\n", "")
	// A write on the poisoned branch would commit the path again: refused.
	if _, err := r.WriteFile(Change{Branch: "poisoned", Path: "x", Content: []byte("x"), Message: "m", Author: alice}); !errors.Is(err, ErrInvalid) {
		t.Errorf("a write on the poisoned branch: %v, want invalid", err)
	}
}

// rawTree stores a tree of entries, unchecked.
func rawTree(t *testing.T, r *Repo, entries ...object.TreeEntry) plumbing.Hash {
	t.Helper()
	sort.Sort(object.TreeEntrySorter(entries))
	obj := r.git.Storer.NewEncodedObject()
	if err := (&object.Tree{Entries: entries}).Encode(obj); err != nil {
		t.Fatal(err)
	}
	h, err := r.git.Storer.SetEncodedObject(obj)
	if err != nil {
		t.Fatal(err)
	}
	return h
}
