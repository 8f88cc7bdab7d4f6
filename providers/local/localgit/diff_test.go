package localgit

import (
	"context"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/forgetools/forgetools/providers/internal/unidiff"
)

// A diff shows an edit with numbered lines, a rename with its old path, a
// binary file as binary, and a file over MaxDiffBlob as too large (read
// whole instead); it starts at the merge base, so what the base branch
// gained since is not in it, and Compare counts that as behind.
func TestDiffAndCompare(t *testing.T) {
	_, r := newRepo(t)
	write(t, r, "main", "a.txt", "one\ntwo\nthree\n", "")
	write(t, r, "main", "keep.txt", "same\n", "")
	big := strings.Repeat("x", MaxDiffBlob) + "\n"
	write(t, r, "main", "big.txt", big, "")
	write(t, r, "main", "img.bin", "\x00\x01", "")
	if err := r.CreateBranch("fix", tip(t, r, "main")); err != nil {
		t.Fatal(err)
	}
	write(t, r, "fix", "a.txt", "one\n2\nthree\n", read(t, r, "fix", "a.txt").Blob.String())
	write(t, r, "fix", "big.txt", big+"y\n", read(t, r, "fix", "big.txt").Blob.String())
	write(t, r, "fix", "img.bin", "\x00\x02", read(t, r, "fix", "img.bin").Blob.String())
	// A rename: keep.txt moves to kept.txt, content unchanged.
	was := tip(t, r, "fix")
	tree, err := r.treeOf(was)
	if err != nil {
		t.Fatal(err)
	}
	files, err := r.flatten(tree)
	if err != nil {
		t.Fatal(err)
	}
	files["kept.txt"] = files["keep.txt"]
	delete(files, "keep.txt")
	moved, err := r.buildTree(files)
	if err != nil {
		t.Fatal(err)
	}
	renamed, err := r.commit(moved, []plumbing.Hash{was}, "Rename keep.txt", alice, alice)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.move("fix", was, renamed); err != nil {
		t.Fatal(err)
	}
	// The base moves on after the branch left it.
	write(t, r, "main", "later.txt", "later\n", "")

	d, err := r.Diff(context.Background(), tip(t, r, "main"), tip(t, r, "fix"))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]unidiff.File{}
	for _, f := range d.Files {
		got[f.Path] = f
	}
	if len(d.Files) != 4 || got["later.txt"].Path != "" {
		t.Fatalf("files %+v, want a.txt, big.txt, img.bin and kept.txt (not main's later.txt)", d.Files)
	}
	if a := got["a.txt"]; a.Status != unidiff.Modified || a.Additions != 1 || a.Deletions != 1 || len(a.Hunks) != 1 ||
		a.Hunks[0].Lines[1].Op != '-' || a.Hunks[0].Lines[1].Number() != 2 || a.Hunks[0].Lines[2].Text != "2" || a.Hunks[0].Lines[2].Number() != 2 {
		t.Errorf("a.txt: %+v", a)
	}
	if k := got["kept.txt"]; k.Status != unidiff.Renamed || k.OldPath != "keep.txt" || len(k.Hunks) != 0 {
		t.Errorf("kept.txt: %+v", k)
	}
	if b := got["img.bin"]; !b.Binary || len(b.Hunks) != 0 {
		t.Errorf("img.bin: %+v", b)
	}
	if b := got["big.txt"]; !b.TooLarge || len(b.Hunks) != 0 {
		t.Errorf("big.txt: %+v", b)
	}
	cmp, err := r.Compare(tip(t, r, "main"), tip(t, r, "fix"))
	if err != nil {
		t.Fatal(err)
	}
	if len(cmp.Ahead) != 4 || cmp.Behind != 1 || cmp.Ahead[3].Title != "Rename keep.txt" || cmp.Ahead[0].Title != "write a.txt" || cmp.Ahead[2].Title != "write img.bin" {
		t.Errorf("comparison: %+v", cmp)
	}
}
