package forgemodel

import "testing"

// A comment's line follows the pull request's head while pushes leave it
// as it was (lines added above shift it), and is outdated once a push
// changes it; a push to another file leaves it in place.
func TestCommentAt(t *testing.T) {
	s := NewState()
	r := s.AddRepo("a/b", "main", map[string]string{"f.go": "one\ntwo\nthree\n", "g.go": "g\n"}, "feature")
	p := &Pull{Head: "feature", Base: "main"}
	push := func(path, content string) {
		r.Files["feature"][path] = content
		s.Commit(r, "feature", Meta{Author: "dev", Message: "Push"}, path)
	}
	v := &Review{Commit: r.PullHead(p), Comments: []*ReviewComment{{Path: "f.go", NewLine: 2}, {Path: "f.go", NewLine: 3}, {Path: "f.go", OldLine: 1}}}
	at := func(i int) (int64, bool) { return r.CommentAt(p, v, v.Comments[i]) }
	if line, out := at(0); line != 2 || out {
		t.Fatalf("at the review's head: line %d outdated %v", line, out)
	}
	push("g.go", "g2\n")
	if line, out := at(0); line != 2 || out {
		t.Errorf("after a push to another file: line %d outdated %v", line, out)
	}
	push("f.go", "zero\none\ntwo\nthree\n")
	if line, out := at(0); line != 3 || out {
		t.Errorf("after a line added above: line %d outdated %v, want 3, current", line, out)
	}
	push("f.go", "zero\none\nTWO\nthree\n")
	if line, out := at(0); line != 2 || !out {
		t.Errorf("after the line changed: line %d outdated %v, want outdated at 2", line, out)
	}
	if line, out := at(1); line != 4 || out {
		t.Errorf("the line below: line %d outdated %v, want 4, current", line, out)
	}
	if line, out := at(2); line != 1 || out {
		t.Errorf("an old-side line, the base unmoved: line %d outdated %v", line, out)
	}
	delete(r.Files["feature"], "f.go")
	s.Commit(r, "feature", Meta{Author: "dev", Message: "Remove"}, "f.go")
	if _, out := at(1); !out {
		t.Errorf("a comment on a removed file is not outdated")
	}
	if _, out := r.CommentAt(p, &Review{}, v.Comments[0]); out {
		t.Errorf("a review with no commit is outdated")
	}
}
