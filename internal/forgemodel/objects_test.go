package forgemodel

import (
	"maps"
	"testing"
)

// The object store: a commit's sha digests its parents, message, time
// and tree; refs resolve as forges resolve them (names, heads/ and
// tags/ forms, a full sha, an unambiguous prefix of seven or more
// digits); a directory lists its children with a digest of each.
func TestObjects(t *testing.T) {
	s := NewState()
	r := s.AddRepo("o/r", "main", nil)
	root := s.NewCommit(r, nil, "octocat", "first", map[string]Object{
		"README.md":  {Content: []byte("hi\n")},
		"src/a.go":   {Content: []byte("package a\n")},
		"link":       {Content: []byte("README.md"), Kind: "symlink", Target: "README.md"},
		"vendor/sub": {Kind: "submodule", Target: "https://example.com/sub.git"},
	})
	r.Branches["main"] = root.SHA
	r.Tags = map[string]string{"v1": root.SHA}
	tree := maps.Clone(root.Tree)
	tree["src/b.go"] = Object{Content: []byte("package a\n")}
	next := s.NewCommit(r, []string{root.SHA}, "octocat", "second", tree)
	r.Branches["topic"] = next.SHA

	if root.SHA == next.SHA || len(root.SHA) != 40 || !s.KnownUser("octocat") {
		t.Fatalf("shas %s %s", root.SHA, next.SHA)
	}
	for ref, want := range map[string]*Commit{
		"main": root, "heads/topic": next, "refs/heads/topic": next, "v1": root, "tags/v1": root,
		root.SHA: root, next.SHA[:7]: next, "nope": nil, next.SHA[:6]: nil,
	} {
		if got := r.CommitAt(ref); got != want {
			t.Errorf("CommitAt(%q) = %v, want %v", ref, got, want)
		}
	}
	if got := root.Tree["README.md"].SHA(); got != BlobSHA("hi\n") {
		t.Errorf("a file's sha is its blob's: %s", got)
	}
	if o := root.Tree["vendor/sub"]; o.Type() != "submodule" || o.SHA() == BlobSHA("") {
		t.Errorf("submodule %s %s", o.Type(), o.SHA())
	}
	entries, ok := root.Dir("")
	if !ok || len(entries) != 4 || entries[0].Name != "README.md" || entries[2].Name != "src" || entries[2].Object != nil {
		t.Fatalf("root listing %+v", entries)
	}
	before := entries[2].SHA
	after, _ := next.Dir("")
	if after[2].SHA == before {
		t.Error("a directory's sha did not change with what it holds")
	}
	if _, ok := root.Dir("nothing"); ok {
		t.Error("a missing directory listed")
	}
}
