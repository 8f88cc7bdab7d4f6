package localgit

import (
	"errors"
	"testing"
)

// seeded is a repository with a branch "work" holding a.txt and b.txt.
func seeded(t *testing.T) (*Repo, Written, Written) {
	t.Helper()
	_, r := newRepo(t)
	if err := r.CreateBranch("work", tip(t, r, "main")); err != nil {
		t.Fatal(err)
	}
	a := write(t, r, "work", "a.txt", "a\n", "")
	b := write(t, r, "work", "dir/b.txt", "b\n", "")
	return r, a, b
}

func TestCommitFilesIsOneCommitOnTheHead(t *testing.T) {
	r, a, b := seeded(t)
	head := tip(t, r, "work")
	c, err := r.CommitFiles(ChangeSet{Branch: "work", ExpectedHead: head.String()[:10], Message: "three files", Author: alice, Edits: []Edit{
		{Path: "a.txt", Content: []byte("a2\n"), ExpectedBlob: a.Blob.String()},
		{Path: "new/c.txt", Content: []byte("c\n")},
		{Path: "dir/b.txt", Delete: true, ExpectedBlob: b.Blob.String()[:7]},
	}})
	if err != nil {
		t.Fatal(err)
	}
	if c.Parent != head || tip(t, r, "work") != c.Commit || c.Unchanged {
		t.Fatalf("committed %+v on head %s; branch now %s", c, head, tip(t, r, "work"))
	}
	commit, err := r.git.CommitObject(c.Commit)
	if err != nil || len(commit.ParentHashes) != 1 || commit.ParentHashes[0] != head || commit.Message != "three files" {
		t.Fatalf("commit %+v, %v", commit, err)
	}
	if f := read(t, r, "work", "a.txt"); f.Content != "a2\n" || f.Blob != c.Blobs[0] {
		t.Errorf("a.txt %+v, blobs %v", f, c.Blobs)
	}
	if f := read(t, r, "work", "new/c.txt"); f.Content != "c\n" || f.Blob != c.Blobs[1] {
		t.Errorf("new/c.txt %+v", f)
	}
	if _, err := r.find(c.Commit, "dir/b.txt"); !errors.Is(err, ErrNotFound) {
		t.Errorf("dir/b.txt after its delete: %v", err)
	}
	if !c.Blobs[2].IsZero() {
		t.Errorf("blobs %v: a delete has none", c.Blobs)
	}
}

func TestCommitFilesAllOrNothing(t *testing.T) {
	r, a, b := seeded(t)
	head := tip(t, r, "work")
	good := Edit{Path: "a.txt", Content: []byte("a2\n"), ExpectedBlob: a.Blob.String()}
	for name, tc := range map[string]struct {
		set  ChangeSet
		kind error
	}{
		"stale blob on the last file": {ChangeSet{Edits: []Edit{good, {Path: "dir/b.txt", Content: []byte("x"), ExpectedBlob: a.Blob.String()}}}, ErrStale},
		"stale delete":                {ChangeSet{Edits: []Edit{good, {Path: "dir/b.txt", Delete: true, ExpectedBlob: "0000000"}}}, ErrStale},
		"create over an existing one": {ChangeSet{Edits: []Edit{good, {Path: "dir/b.txt", Content: []byte("x")}}}, ErrStale},
		"update of a missing file":    {ChangeSet{Edits: []Edit{good, {Path: "gone.txt", Content: []byte("x"), ExpectedBlob: b.Blob.String()}}}, ErrStale},
		"stale head":                  {ChangeSet{ExpectedHead: a.Commit.String(), Edits: []Edit{good}}, ErrStale},
		"a path twice":                {ChangeSet{Edits: []Edit{good, good}}, ErrInvalid},
		"a delete without its sha":    {ChangeSet{Edits: []Edit{good, {Path: "dir/b.txt", Delete: true}}}, ErrInvalid},
		"a path git refuses":          {ChangeSet{Edits: []Edit{good, {Path: "x/../.git/config", Content: []byte("x")}}}, ErrInvalid},
		"a file under a file":         {ChangeSet{Edits: []Edit{good, {Path: "a.txt/x", Content: []byte("x")}}}, ErrInvalid},
		"no files":                    {ChangeSet{}, ErrInvalid},
	} {
		tc.set.Branch, tc.set.Message, tc.set.Author = "work", "m", alice
		if _, err := r.CommitFiles(tc.set); !errors.Is(err, tc.kind) {
			t.Errorf("%s: %v, want %v", name, err, tc.kind)
		}
		if got := tip(t, r, "work"); got != head {
			t.Fatalf("%s: the branch moved to %s", name, got)
		}
	}
	if f := read(t, r, "work", "a.txt"); f.Content != "a\n" {
		t.Errorf("a.txt was written by a refused set: %q", f.Content)
	}
}

func TestCommitFilesReplacesADirectoryItDeletes(t *testing.T) {
	r, _, b := seeded(t)
	c, err := r.CommitFiles(ChangeSet{Branch: "work", Message: "dir becomes a file", Author: alice, Edits: []Edit{
		{Path: "dir", Content: []byte("now a file\n")},
		{Path: "dir/b.txt", Delete: true, ExpectedBlob: b.Blob.String()},
	}})
	if err != nil {
		t.Fatal(err)
	}
	if f := read(t, r, c.Commit.String(), "dir"); f.Content != "now a file\n" {
		t.Errorf("dir %+v", f)
	}
}

func TestCommitFilesWithNothingNewMakesNoCommit(t *testing.T) {
	r, a, _ := seeded(t)
	head := tip(t, r, "work")
	c, err := r.CommitFiles(ChangeSet{Branch: "work", Message: "same", Author: alice, Edits: []Edit{
		{Path: "a.txt", Content: []byte("a\n"), ExpectedBlob: a.Blob.String()},
	}})
	if err != nil || !c.Unchanged || c.Commit != head || c.Blobs[0] != a.Blob {
		t.Fatalf("%+v, %v", c, err)
	}
}
