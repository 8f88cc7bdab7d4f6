package localgit

import (
	"bytes"
	"errors"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzCheckPath: a path a model sends is refused with ErrInvalid naming it,
// or it stays inside any directory it is joined to, with no component git
// or a checkout would trip on.
func FuzzCheckPath(f *testing.F) {
	for _, s := range []string{"a", "a/b.go", "../x", "a/../../b", ".git/config", "a//b", "/etc/passwd", "a\\..\\b", "ünï/x", ""} {
		f.Add(s)
	}
	root := filepath.FromSlash("/srv/checkout")
	f.Fuzz(func(t *testing.T, p string) {
		err := CheckPath(p)
		if err != nil {
			if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), strconv.Quote(p)) {
				t.Fatalf("CheckPath(%q) = %v: want ErrInvalid naming the path", p, err)
			}
			return
		}
		joined := filepath.Join(root, filepath.FromSlash(p))
		if !strings.HasPrefix(joined, root+string(filepath.Separator)) || filepath.ToSlash(joined[len(root)+1:]) != p {
			t.Fatalf("accepted %q joins to %q", p, joined)
		}
		for _, part := range strings.Split(p, "/") {
			if part == "" || part == "." || part == ".." || strings.EqualFold(part, ".git") {
				t.Fatalf("accepted %q with component %q", p, part)
			}
		}
	})
}

// FuzzReadFile: whatever bytes a file holds (a person may push anything),
// a read is text that is valid UTF-8 within the cap, or binary with no
// text; truncation is said exactly when text was cut.
func FuzzReadFile(f *testing.F) {
	for _, s := range []string{"plain\n", "é€😀", "\x00binary", "\xff\xfe", strings.Repeat("ab", 40), "é" + strings.Repeat("x", 30)} {
		f.Add([]byte(s), 16)
	}
	_, r := newRepo(f)
	f.Fuzz(func(t *testing.T, content []byte, limit int) {
		limit = 1 + abs(limit)%64
		h, err := r.blob(content)
		if err != nil {
			t.Fatal(err)
		}
		tree, err := r.buildTree(map[string]entry{"f": {hash: h, mode: 0o100644}})
		if err != nil {
			t.Fatal(err)
		}
		commit, err := r.commit(tree, nil, "m", alice, alice)
		if err != nil {
			t.Fatal(err)
		}
		got, err := r.ReadFile(commit, "f", limit)
		if err != nil {
			t.Fatal(err)
		}
		if got.Size != int64(len(content)) || got.Blob != h {
			t.Fatalf("size %d blob %s, want %d %s", got.Size, got.Blob, len(content), h)
		}
		if got.Binary {
			if got.Content != "" || got.Truncated {
				t.Fatalf("binary with content %q truncated %v", got.Content, got.Truncated)
			}
			return
		}
		if !utf8.ValidString(got.Content) || len(got.Content) > limit || !bytes.HasPrefix(content, []byte(got.Content)) {
			t.Fatalf("content %q of %q at limit %d", got.Content, content, limit)
		}
		if got.Truncated != (len(content) > limit) {
			t.Fatalf("truncated %v for %d bytes at limit %d", got.Truncated, len(content), limit)
		}
		if !got.Truncated && got.Content != string(content) {
			t.Fatalf("whole content %q read as %q", content, got.Content)
		}
	})
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
