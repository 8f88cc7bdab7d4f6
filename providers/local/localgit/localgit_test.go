package localgit

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
)

var (
	alice = Signature{Name: "alice-agent", Email: "alice@local", When: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
	bob   = Signature{Name: "bob", Email: "bob@local", When: time.Date(2026, 1, 3, 3, 4, 5, 0, time.UTC)}
)

func newRepo(t testing.TB) (*Store, *Repo) {
	t.Helper()
	s, err := New(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	r, err := s.Open("acme/app", "main", alice)
	if err != nil {
		t.Fatal(err)
	}
	return s, r
}

func tip(t *testing.T, r *Repo, branch string) plumbing.Hash {
	t.Helper()
	h, ok, err := r.Branch(branch)
	if err != nil || !ok {
		t.Fatalf("branch %s: %v, %v", branch, ok, err)
	}
	return h
}

func write(t *testing.T, r *Repo, branch, path, content, expected string) Written {
	t.Helper()
	w, err := r.WriteFile(Change{Branch: branch, Path: path, Content: []byte(content), ExpectedBlob: expected, Message: "write " + path, Author: alice})
	if err != nil {
		t.Fatalf("write %s on %s: %v", path, branch, err)
	}
	return w
}

func read(t *testing.T, r *Repo, ref, path string) File {
	t.Helper()
	h, err := r.Resolve(ref)
	if err != nil {
		t.Fatal(err)
	}
	f, err := r.ReadFile(h, path, 1<<20)
	if err != nil {
		t.Fatalf("read %s at %s: %v", path, ref, err)
	}
	return f
}

func TestCreatedWithAnInitialCommit(t *testing.T) {
	s, r := newRepo(t)
	if b, err := r.DefaultBranch(); err != nil || b != "main" {
		t.Fatalf("default branch %q, %v", b, err)
	}
	c, err := r.git.CommitObject(tip(t, r, "main"))
	if err != nil || c.NumParents() != 0 || c.Author.Name != "alice-agent" {
		t.Fatalf("initial commit %v, %v", c, err)
	}
	if f := read(t, r, "main", "README.md"); !strings.HasPrefix(f.Content, "# acme/app\n") {
		t.Errorf("README %q", f.Content)
	}
	if _, err := os.Stat(filepath.Join(s.Dir(), "acme", "app.git", "HEAD")); err != nil {
		t.Errorf("no bare repository at <dir>/acme/app.git: %v", err)
	}
	// Opening again finds it, whatever branch is asked for.
	again, err := s.Open("acme/app", "trunk", bob)
	if err != nil || tip(t, again, "main") != tip(t, r, "main") {
		t.Fatalf("reopen: %v", err)
	}
}

// Processes that create one repository at once end with one repository and
// one history, not a mix.
func TestConcurrentCreation(t *testing.T) {
	dir := t.TempDir()
	var wg sync.WaitGroup
	heads := make([]plumbing.Hash, 8)
	for i := range heads {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s, err := New(dir) // a store per "process"
			if err != nil {
				t.Error(err)
				return
			}
			r, err := s.Open("acme/app", "main", Signature{Name: "p", Email: "p@local", When: alice.When.Add(time.Duration(i) * time.Hour)})
			if err != nil {
				t.Error(err)
				return
			}
			heads[i], _, _ = r.Branch("main")
		}()
	}
	wg.Wait()
	for _, h := range heads[1:] {
		if h != heads[0] || h.IsZero() {
			t.Fatalf("heads differ: %v", heads)
		}
	}
	leftovers, _ := filepath.Glob(filepath.Join(dir, "acme", ".new-*"))
	if len(leftovers) != 0 {
		t.Errorf("temporary directories left behind: %v", leftovers)
	}
}

func TestResolve(t *testing.T) {
	_, r := newRepo(t)
	main := tip(t, r, "main")
	if err := r.CreateBranch("feature/x", main); err != nil {
		t.Fatal(err)
	}
	if _, err := r.git.CreateTag("v1", main, nil); err != nil {
		t.Fatal(err)
	}
	for _, ref := range []string{"main", "feature/x", "v1", main.String(), main.String()[:7], strings.ToUpper(main.String()[:10])} {
		if h, err := r.Resolve(ref); err != nil || h != main {
			t.Errorf("Resolve(%q) = %v, %v", ref, h, err)
		}
	}
	for _, ref := range []string{"nope", "HEAD~1", "main^", "abc", "0000000"} {
		if _, err := r.Resolve(ref); !errors.Is(err, ErrNotFound) {
			t.Errorf("Resolve(%q): err %v, want not found", ref, err)
		}
	}
	if err := r.CreateBranch("feature/x", main); !errors.Is(err, ErrExists) {
		t.Errorf("second CreateBranch: %v", err)
	}
}

func TestReadAndList(t *testing.T) {
	_, r := newRepo(t)
	write(t, r, "main", "src/a.go", "package a\n", "")
	write(t, r, "main", "bin/blob", "\x00\x01\x02", "")
	write(t, r, "main", "big.txt", strings.Repeat("é", 10), "") // 20 bytes
	main := tip(t, r, "main")

	f := read(t, r, "main", "src/a.go")
	if f.Content != "package a\n" || f.Size != 10 || f.Binary || f.Truncated || f.Blob.IsZero() {
		t.Errorf("text file %+v", f)
	}
	if f := read(t, r, "main", "bin/blob"); !f.Binary || f.Content != "" || f.Size != 3 {
		t.Errorf("binary file %+v", f)
	}
	// Cut at 5 bytes: two whole characters, never half of one.
	if f, err := r.ReadFile(main, "big.txt", 5); err != nil || f.Content != "éé" || !f.Truncated || f.Size != 20 {
		t.Errorf("capped file %+v, %v", f, err)
	}
	for p, want := range map[string]error{"src": ErrInvalid, "nope.go": ErrNotFound, "src/nope.go": ErrNotFound,
		"../etc/passwd": ErrInvalid, "/src/a.go": ErrInvalid, ".git/config": ErrInvalid, "src//a.go": ErrInvalid} {
		if _, err := r.ReadFile(main, p, 100); !errors.Is(err, want) {
			t.Errorf("ReadFile(%q): %v, want %v", p, err, want)
		}
	}

	root, err := r.ListDir(main, "")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range root {
		got = append(got, e.Name+":"+e.Type)
	}
	if strings.Join(got, " ") != "README.md:file big.txt:file bin:dir src:dir" {
		t.Errorf("root %v", got)
	}
	src, err := r.ListDir(main, "src")
	if err != nil || len(src) != 1 || src[0].Name != "a.go" || src[0].Size != 10 || src[0].Hash != f.Blob {
		t.Errorf("src %+v, %v", src, err)
	}
	if _, err := r.ListDir(main, "src/a.go"); !errors.Is(err, ErrInvalid) {
		t.Errorf("listing a file: %v", err)
	}
}

// A write names what it read; anything else is refused and the branch is
// left where it was.
func TestWriteFileCompareAndSet(t *testing.T) {
	_, r := newRepo(t)
	created := write(t, r, "main", "a.txt", "one\n", "")
	updated := write(t, r, "main", "a.txt", "two\n", created.Blob.String()[:7])
	if f := read(t, r, "main", "a.txt"); f.Content != "two\n" || f.Blob != updated.Blob {
		t.Fatalf("after update %+v", f)
	}
	c, _ := r.git.CommitObject(updated.Commit)
	if c.Author.Name != "alice-agent" || c.Message != "write a.txt" || c.ParentHashes[0] != created.Commit {
		t.Errorf("commit %v", c)
	}
	before := tip(t, r, "main")
	for name, ch := range map[string]Change{
		"update without expected_sha": {Path: "a.txt", Content: []byte("x")},
		"stale expected_sha":          {Path: "a.txt", Content: []byte("x"), ExpectedBlob: created.Blob.String()},
		"expected_sha on a new file":  {Path: "b.txt", Content: []byte("x"), ExpectedBlob: created.Blob.String()},
	} {
		ch.Branch, ch.Message, ch.Author = "main", "m", alice
		if _, err := r.WriteFile(ch); !errors.Is(err, ErrStale) {
			t.Errorf("%s: %v, want stale", name, err)
		}
	}
	write(t, r, "main", "dir/inner", "i", "")
	before = tip(t, r, "main")
	for name, ch := range map[string]Change{
		"under a file":     {Path: "a.txt/b", Content: []byte("x")},
		"onto a directory": {Path: "dir", Content: []byte("x")},
		"bad path":         {Path: "../x", Content: []byte("x")},
	} {
		ch.Branch, ch.Message, ch.Author = "main", "m", alice
		if _, err := r.WriteFile(ch); !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: %v, want invalid", name, err)
		}
	}
	if _, err := r.WriteFile(Change{Branch: "gone", Path: "x", Message: "m", Author: alice}); !errors.Is(err, ErrNotFound) {
		t.Errorf("missing branch: %v", err)
	}
	if now := tip(t, r, "main"); now != before {
		t.Errorf("a refused write moved main from %s to %s", before, now)
	}
	// Writing what is already there makes no commit.
	same := write(t, r, "main", "a.txt", "two\n", updated.Blob.String())
	if !same.Unchanged || same.Commit != tip(t, r, "main") {
		t.Errorf("an unchanged write %+v", same)
	}
}

// Another writer moving the branch between the read and the ref update
// (here: a ref moved behind the store's back) fails the write.
func TestWriteFileLosesNoConcurrentUpdate(t *testing.T) {
	_, r := newRepo(t)
	old := tip(t, r, "main")
	w := write(t, r, "main", "a.txt", "mine", "")
	// A write computed from old must not replace w.
	if err := r.move("main", old, w.Commit); !errors.Is(err, ErrStale) {
		t.Fatalf("moving a branch that moved: %v", err)
	}
	if tip(t, r, "main") != w.Commit {
		t.Fatal("the branch was moved back")
	}
}

func TestMergeMethods(t *testing.T) {
	for _, method := range []string{MethodMerge, MethodSquash, MethodRebase} {
		t.Run(method, func(t *testing.T) {
			_, r := newRepo(t)
			if err := r.CreateBranch("fix", tip(t, r, "main")); err != nil {
				t.Fatal(err)
			}
			write(t, r, "fix", "fix.txt", "fixed\n", "")
			second := write(t, r, "fix", "fix2.txt", "more\n", "")
			write(t, r, "main", "other.txt", "meanwhile\n", "") // main moved on: a real merge
			base := tip(t, r, "main")

			m, err := r.Merge(MergeRequest{Base: "main", Head: "fix", ExpectedHead: second.Commit.String()[:12], Method: method,
				Message: "Merge fix", Committer: bob})
			if err != nil {
				t.Fatal(err)
			}
			if tip(t, r, "main") != m.Commit || m.Head != second.Commit {
				t.Fatalf("main at %s, merged %+v", tip(t, r, "main"), m)
			}
			for p, want := range map[string]string{"fix.txt": "fixed\n", "fix2.txt": "more\n", "other.txt": "meanwhile\n"} {
				if f := read(t, r, "main", p); f.Content != want {
					t.Errorf("%s on main = %q", p, f.Content)
				}
			}
			c, _ := r.git.CommitObject(m.Commit)
			switch method {
			case MethodMerge:
				if c.NumParents() != 2 || c.ParentHashes[0] != base || c.ParentHashes[1] != second.Commit || c.Message != "Merge fix" {
					t.Errorf("merge commit %v", c)
				}
			case MethodSquash:
				if c.NumParents() != 1 || c.ParentHashes[0] != base || c.Committer.Name != "bob" {
					t.Errorf("squash commit %v", c)
				}
			case MethodRebase:
				parent, _ := c.Parent(0)
				grand, _ := parent.Parent(0)
				if c.Message != "write fix2.txt" || c.Author.Name != "alice-agent" || c.Committer.Name != "bob" ||
					parent.Message != "write fix.txt" || grand.Hash != base {
					t.Errorf("rebased line %v <- %v <- %v", c, parent, grand)
				}
			}
			// Merging again finds nothing to merge.
			if _, err := r.Merge(MergeRequest{Base: "main", Head: "fix", ExpectedHead: second.Commit.String(), Method: method, Committer: bob}); !errors.Is(err, ErrConflict) {
				t.Errorf("second merge: %v", err)
			}
		})
	}
}

func TestMergeRefusalsWriteNothing(t *testing.T) {
	_, r := newRepo(t)
	base := write(t, r, "main", "a.txt", "base\n", "")
	if err := r.CreateBranch("fix", tip(t, r, "main")); err != nil {
		t.Fatal(err)
	}
	reviewed := write(t, r, "fix", "a.txt", "fix\n", base.Blob.String())
	moved := write(t, r, "fix", "b.txt", "pushed after the review\n", "")
	mainBefore := tip(t, r, "main")

	_, err := r.Merge(MergeRequest{Base: "main", Head: "fix", ExpectedHead: reviewed.Commit.String(), Method: MethodMerge, Committer: bob})
	if !errors.Is(err, ErrStale) || !strings.Contains(err.Error(), moved.Commit.String()) {
		t.Errorf("moved head: %v", err)
	}
	if ok, err := r.Mergeable(mainBefore, moved.Commit); !ok || err != nil {
		t.Errorf("mergeable before the conflict: %v, %v", ok, err)
	}
	write(t, r, "main", "a.txt", "main changed it too\n", base.Blob.String())
	mainBefore = tip(t, r, "main")
	_, err = r.Merge(MergeRequest{Base: "main", Head: "fix", ExpectedHead: moved.Commit.String(), Method: MethodMerge, Committer: bob})
	if !errors.Is(err, ErrConflict) || !strings.Contains(err.Error(), "a.txt") {
		t.Errorf("conflict: %v", err)
	}
	if ok, err := r.Mergeable(mainBefore, moved.Commit); ok || err != nil {
		t.Errorf("mergeable with a conflict: %v, %v", ok, err)
	}
	if tip(t, r, "main") != mainBefore {
		t.Error("a refused merge moved main")
	}
}

func TestCheckout(t *testing.T) {
	_, r := newRepo(t)
	write(t, r, "main", "sub/dir/x.sh", "#!/bin/sh\necho hi\n", "")
	dir := t.TempDir()
	if err := r.Checkout(tip(t, r, "main"), dir); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, "sub", "dir", "x.sh"))
	if err != nil || string(data) != "#!/bin/sh\necho hi\n" {
		t.Fatalf("checked out %q, %v", data, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "README.md")); err != nil {
		t.Error(err)
	}
	if _, err := os.Stat(filepath.Join(dir, ".git")); !os.IsNotExist(err) {
		t.Errorf("a checkout is not a repository: %v", err)
	}
}

func TestCheckPath(t *testing.T) {
	for _, p := range []string{"a", "a/b.go", "ünï/cödé.txt", ".github/workflows/ci.yml", "a..b"} {
		if err := CheckPath(p); err != nil {
			t.Errorf("%q: %v", p, err)
		}
	}
	for _, p := range []string{"", "/a", "a/", "a//b", "./a", "a/../b", "..", ".git", "a/.GIT/config", "a\\b", "a\nb", "a\x00b"} {
		if err := CheckPath(p); !errors.Is(err, ErrInvalid) {
			t.Errorf("%q accepted", p)
		}
	}
}

// git itself must find nothing wrong with what go-git wrote here: a strict
// fsck of the objects, a clone, and the history a person sees.
func TestGitAgrees(t *testing.T) {
	gitBin, err := exec.LookPath("git")
	if err != nil {
		t.Fatalf("this test needs the git command (apt-get install git): %v", err)
	}
	s, r := newRepo(t)
	if err := r.CreateBranch("fix", tip(t, r, "main")); err != nil {
		t.Fatal(err)
	}
	w := write(t, r, "fix", "deep/er/file.txt", "fixed\n", "")
	write(t, r, "main", "a-b.txt", "x\n", "") // sorts between "a" entries and "deep"
	if _, err := r.Merge(MergeRequest{Base: "main", Head: "fix", ExpectedHead: w.Commit.String(), Method: MethodMerge, Message: "Merge fix\n", Committer: bob}); err != nil {
		t.Fatal(err)
	}
	run := func(dir string, args ...string) string {
		t.Helper()
		cmd := exec.Command(gitBin, args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+t.TempDir())
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	run(s.Path("acme/app"), "fsck", "--strict", "--no-dangling")
	clone := filepath.Join(t.TempDir(), "app")
	run(t.TempDir(), "clone", "--quiet", s.Path("acme/app"), clone)
	if data, err := os.ReadFile(filepath.Join(clone, "deep", "er", "file.txt")); err != nil || string(data) != "fixed\n" {
		t.Fatalf("cloned file %q, %v", data, err)
	}
	if log := run(clone, "log", "--format=%an|%s", "main"); log != "bob|Merge fix\nalice-agent|write a-b.txt\nalice-agent|write deep/er/file.txt\nalice-agent|Initial commit\n" {
		t.Errorf("history as git sees it:\n%s", log)
	}
}
