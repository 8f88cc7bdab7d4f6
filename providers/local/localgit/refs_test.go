package localgit

import (
	"errors"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
)

// pushRef sets a ref as a person's push could, past every check the
// gateway makes.
func pushRef(t *testing.T, r *Repo, name plumbing.ReferenceName, at plumbing.Hash) {
	t.Helper()
	if err := r.git.Storer.SetReference(plumbing.NewHashReference(name, at)); err != nil {
		t.Fatal(err)
	}
}

// Resolve follows gitrevisions(7): a full sha is that object whatever a
// ref is called; then HEAD and refs/<name>, refs/tags/<name>,
// refs/heads/<name>; a short sha only when no ref has the name.
func TestResolveFollowsGitsPrecedence(t *testing.T) {
	_, r := newRepo(t)
	main := tip(t, r, "main")
	if err := r.CreateBranch("other", main); err != nil {
		t.Fatal(err)
	}
	other := write(t, r, "other", "forged.txt", "forged\n", "").Commit
	if _, err := r.git.CreateTag("v1", main, nil); err != nil {
		t.Fatal(err)
	}
	// Branches posing as main's sha, as the tag, as a ref path.
	pushRef(t, r, plumbing.NewBranchReferenceName(main.String()), other)
	pushRef(t, r, plumbing.NewBranchReferenceName("v1"), other)
	pushRef(t, r, plumbing.NewBranchReferenceName("tags/v1"), other)
	for ref, want := range map[string]plumbing.Hash{
		main.String():     main,  // the object, not the branch of that name
		"v1":              main,  // refs/tags/v1 before refs/heads/v1
		"tags/v1":         main,  // refs/tags/v1 (refs/<name>) before refs/heads/tags/v1
		"refs/heads/v1":   other, // a full ref name is that ref
		"refs/tags/v1":    main,
		"heads/v1":        other,
		"HEAD":            main,
		"other":           other,
		main.String()[:7]: main,
	} {
		if h, err := r.Resolve(ref); err != nil || h != want {
			t.Errorf("Resolve(%q) = %v, %v; want %v", ref, h, err, want)
		}
	}
	// A read at main's sha is main's own tree.
	if _, err := r.ReadFile(main, "forged.txt", 100); !errors.Is(err, ErrNotFound) {
		t.Errorf("main's tree has the forged file: %v", err)
	}
	// A full sha that names no object is no ref either.
	pushRef(t, r, plumbing.NewBranchReferenceName("1234567890123456789012345678901234567890"), other)
	if _, err := r.Resolve("1234567890123456789012345678901234567890"); !errors.Is(err, ErrNotFound) {
		t.Errorf("a 40-hex branch name answered for a missing object: %v", err)
	}
	for _, ref := range []string{"../../HEAD", "refs/../HEAD", "refs/heads/../../config", ".git/HEAD", "refs//heads/main", "/refs/heads/main"} {
		if _, err := r.Resolve(ref); !errors.Is(err, ErrNotFound) {
			t.Errorf("Resolve(%q): %v, want not found", ref, err)
		}
	}
}

// A branch may not share a tag's name: git would resolve the tag.
func TestCreateBranchRefusesATagsName(t *testing.T) {
	_, r := newRepo(t)
	main := tip(t, r, "main")
	if _, err := r.git.CreateTag("v1", main, nil); err != nil {
		t.Fatal(err)
	}
	if err := r.CreateBranch("v1", main); !errors.Is(err, ErrInvalid) {
		t.Fatalf("CreateBranch(v1) with a tag v1: %v, want invalid", err)
	}
	if _, ok, _ := r.Branch("v1"); ok {
		t.Fatal("the refused branch exists")
	}
}
