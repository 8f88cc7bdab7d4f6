package local_test

import (
	"context"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/providers/local"
	"github.com/forgetools/forgetools/toolserver"
)

// pusher is an account the operator let push to default branches.
var pusher = toolserver.Call{Account: "ops", Session: "s-2", AgentHandle: "ops-bot", PushToDefaultBranch: true}

// refs is every ref of repo's git repository and where it points: a write
// that was refused must leave it exactly as it was.
func refs(t *testing.T, f *local.Forge, repo string) map[string]string {
	t.Helper()
	r, err := git.PlainOpen(repoPath(t, f, repo))
	if err != nil {
		t.Fatal(err)
	}
	it, err := r.References()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	_ = it.ForEach(func(ref *plumbing.Reference) error {
		out[ref.Name().String()] = ref.Hash().String() + ref.Target().String()
		return nil
	})
	return out
}

// repoPath is where repo's bare git repository lives.
func repoPath(t *testing.T, f *local.Forge, repo string) string {
	t.Helper()
	path, err := f.RepoPath(context.Background(), repo)
	if err != nil {
		t.Fatal(err)
	}
	return path
}

func writeFile(t *testing.T, f *local.Forge, c toolserver.Call, repo, branch, path, content, expected string) *forgev1.FileCommit {
	t.Helper()
	fc, err := f.WriteFile(context.Background(), c, &gatewayv1.WriteFileRequest{Repo: repo, Branch: branch, Path: path,
		Content: content, Message: "Write " + path, ExpectedSha: expected})
	if err != nil {
		t.Fatalf("write %s on %s: %v", path, branch, err)
	}
	return fc
}

func readFile(t *testing.T, f *local.Forge, repo, ref, path string) *forgev1.FileContent {
	t.Helper()
	fc, err := f.ReadFile(context.Background(), alice, &gatewayv1.ReadFileRequest{Repo: repo, Ref: ref, Path: path})
	if err != nil {
		t.Fatalf("read %s at %q: %v", path, ref, err)
	}
	return fc
}

func TestRepositoryReads(t *testing.T) {
	eachDialect(t, func(t *testing.T, d database) {
		ctx := context.Background()
		f, _ := newForge(t, d, local.Options{})
		repo, err := f.GetRepo(ctx, alice, &gatewayv1.GetRepoRequest{Repo: "acme/app"})
		if err != nil {
			t.Fatal(err)
		}
		if repo.GetDefaultBranch() != "main" || repo.GetUrl() != testBase+"/acme/app" || repo.GetOpenIssues() != 0 || repo.GetPermission() != "write" {
			t.Errorf("repository %v", repo)
		}
		createIssue(t, f, "acme/app", "open one")
		if repo, _ := f.GetRepo(ctx, alice, &gatewayv1.GetRepoRequest{Repo: "acme/app"}); repo.GetOpenIssues() != 1 {
			t.Errorf("open issues %d, want 1", repo.GetOpenIssues())
		}

		// Created on first use with a README on main.
		readme := readFile(t, f, "acme/app", "", "README.md")
		if !strings.HasPrefix(readme.GetContent(), "# acme/app\n") || readme.GetRef() != "main" || len(readme.GetSha()) != 40 ||
			readme.GetUrl() != testBase+"/acme/app/blob/main/README.md" {
			t.Errorf("README %v", readme)
		}
		writeFile(t, f, pusher, "acme/app", "main", "bin/logo.png", "\x89PNG\r\n\x1a\n\x00\x00", "")
		big := writeFile(t, f, pusher, "acme/app", "main", "docs/big file.md", strings.Repeat("ab\n", 40_000), "")
		if png := readFile(t, f, "acme/app", "main", "/bin/logo.png"); !png.GetBinary() || png.GetContent() != "" || png.GetSize() != 10 {
			t.Errorf("binary file %v", png)
		}
		long := readFile(t, f, "acme/app", big.GetCommitSha()[:7], "docs/big file.md")
		// Read whole, past the 100,000 bytes one answer shows: the
		// gateway-side window (kit.Window) cuts the lines asked for.
		if long.GetTruncated() || len(long.GetContent()) != 120_000 || long.GetSize() != 120_000 || long.GetSha() != big.GetBlobSha() ||
			long.GetUrl() != testBase+"/acme/app/blob/"+big.GetCommitSha()[:7]+"/docs/big%20file.md" {
			t.Errorf("large file: truncated %v, %d of %d bytes, url %s", long.GetTruncated(), len(long.GetContent()), long.GetSize(), long.GetUrl())
		}

		root, err := f.ListDir(ctx, alice, &gatewayv1.ListDirRequest{Repo: "acme/app", Path: "/"})
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, e := range root.GetEntries() {
			names = append(names, e.GetName()+":"+e.GetType())
		}
		if strings.Join(names, " ") != "README.md:file bin:dir docs:dir" || root.GetRef() != "main" || root.GetPath() != "" {
			t.Errorf("root listing %v", root)
		}

		for _, tc := range []struct {
			req  *gatewayv1.ReadFileRequest
			code gatewayv1.ErrorCode
			want string
		}{
			{&gatewayv1.ReadFileRequest{Path: "nope.txt"}, gatewayv1.ErrorCode_ERROR_CODE_NOT_FOUND, "no nope.txt at "},
			{&gatewayv1.ReadFileRequest{Path: "README.md", Ref: "no-such-branch"}, gatewayv1.ErrorCode_ERROR_CODE_NOT_FOUND,
				`"no-such-branch" is not a branch, tag or commit of this repository`},
			{&gatewayv1.ReadFileRequest{Path: "docs"}, gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT, "docs is a directory"},
			{&gatewayv1.ReadFileRequest{Path: "../../etc/passwd"}, gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT, `its component ".." is . or ..`},
			{&gatewayv1.ReadFileRequest{Path: "README.md", Ref: "main~1"}, gatewayv1.ErrorCode_ERROR_CODE_NOT_FOUND, "not a branch, tag or commit"},
		} {
			tc.req.Repo = "acme/app"
			_, err := f.ReadFile(ctx, alice, tc.req)
			wantCode(t, err, tc.code, tc.want)
		}
		_, err = f.ListDir(ctx, alice, &gatewayv1.ListDirRequest{Repo: "acme/app", Path: "README.md"})
		wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT, "README.md is not a directory")
	})
}

// An update must name the blob it read; a stale or missing expected_sha,
// or a write to the default branch without leave, writes nothing.
func TestWriteFileRules(t *testing.T) {
	eachDialect(t, func(t *testing.T, d database) {
		ctx := context.Background()
		f, _ := newForge(t, d, local.Options{})
		branch(t, f, "acme/app", "fix")
		created := writeFile(t, f, alice, "acme/app", "fix", "src/a.go", "package a\n", "")
		if created.GetBranch() != "fix" || created.GetUrl() != testBase+"/acme/app/commit/"+created.GetCommitSha() {
			t.Errorf("created %v", created)
		}
		updated := writeFile(t, f, alice, "acme/app", "fix", "src/a.go", "package a // v2\n", created.GetBlobSha())
		if got := readFile(t, f, "acme/app", "fix", "src/a.go"); got.GetContent() != "package a // v2\n" || got.GetSha() != updated.GetBlobSha() {
			t.Errorf("after the update %v", got)
		}
		commit, err := git.PlainOpen(repoPath(t, f, "acme/app"))
		if err != nil {
			t.Fatal(err)
		}
		c, err := commit.CommitObject(plumbing.NewHash(updated.GetCommitSha()))
		if err != nil || c.Author.Name != "alice" || c.Author.Email != "alice@local" || c.Message != "Write src/a.go" {
			t.Errorf("commit %v, %v: want alice's identity and the message", c, err)
		}

		before := refs(t, f, "acme/app")
		for _, tc := range []struct {
			name string
			c    toolserver.Call
			req  *gatewayv1.WriteFileRequest
			code gatewayv1.ErrorCode
			want string
		}{
			{"stale expected_sha", alice, &gatewayv1.WriteFileRequest{Branch: "fix", Path: "src/a.go", ExpectedSha: created.GetBlobSha()},
				gatewayv1.ErrorCode_ERROR_CODE_FAILED_PRECONDITION, "is now blob " + updated.GetBlobSha() + ", not the expected_sha"},
			{"no expected_sha on an update", alice, &gatewayv1.WriteFileRequest{Branch: "fix", Path: "src/a.go"},
				gatewayv1.ErrorCode_ERROR_CODE_FAILED_PRECONDITION, "pass its blob sha as expected_sha"},
			{"expected_sha on a new file", alice, &gatewayv1.WriteFileRequest{Branch: "fix", Path: "src/new.go", ExpectedSha: created.GetBlobSha()},
				gatewayv1.ErrorCode_ERROR_CODE_FAILED_PRECONDITION, "does not exist on fix"},
			{"default branch without leave", alice, &gatewayv1.WriteFileRequest{Branch: "main", Path: "x.txt"},
				gatewayv1.ErrorCode_ERROR_CODE_PERMISSION_DENIED, "main is the default branch of acme/app"},
			{"missing branch", alice, &gatewayv1.WriteFileRequest{Branch: "gone", Path: "x.txt"},
				gatewayv1.ErrorCode_ERROR_CODE_NOT_FOUND, `no branch "gone"`},
			{"bad branch name", alice, &gatewayv1.WriteFileRequest{Branch: "a..b", Path: "x.txt"},
				gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT, "not a valid branch name"},
			{"path under a file", alice, &gatewayv1.WriteFileRequest{Branch: "fix", Path: "src/a.go/b"},
				gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT, "src/a.go is a file"},
			{"a .git path", alice, &gatewayv1.WriteFileRequest{Branch: "fix", Path: ".git/config"},
				gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT, `its component ".git" would be taken for the repository's .git directory`},
		} {
			tc.req.Repo, tc.req.Message, tc.req.Content = "acme/app", "m", "x"
			_, err := f.WriteFile(ctx, tc.c, tc.req)
			wantCode(t, err, tc.code, tc.want)
			if after := refs(t, f, "acme/app"); !maps.Equal(after, before) {
				t.Fatalf("%s: the refused write changed the repository:\n%v\nwas\n%v", tc.name, after, before)
			}
		}

		// The operator's leave opens the default branch to that account.
		onMain := writeFile(t, f, pusher, "acme/app", "main", "NOTICE", "ops\n", "")
		if got := readFile(t, f, "acme/app", "main", "NOTICE"); got.GetSha() != onMain.GetBlobSha() {
			t.Errorf("NOTICE on main %v", got)
		}
		c, _ = commit.CommitObject(plumbing.NewHash(onMain.GetCommitSha()))
		if c == nil || c.Author.Name != "ops-bot" || c.Author.Email != "ops@local" {
			t.Errorf("a commit by an account with an agent handle: %v", c)
		}
	})
}

func TestCreateBranch(t *testing.T) {
	eachDialect(t, func(t *testing.T, d database) {
		ctx := context.Background()
		f, _ := newForge(t, d, local.Options{})
		first := writeFile(t, f, pusher, "acme/app", "main", "a.txt", "1", "")
		writeFile(t, f, pusher, "acme/app", "main", "a.txt", "2", first.GetBlobSha())
		old, err := f.CreateBranch(ctx, alice, &gatewayv1.CreateBranchRequest{Repo: "acme/app", Branch: "from-old", FromRef: first.GetCommitSha()[:8]})
		if err != nil || old.GetSha() != first.GetCommitSha() || old.GetUrl() != testBase+"/acme/app/tree/from-old" {
			t.Fatalf("branch from a commit: %v, %v", old, err)
		}
		if got := readFile(t, f, "acme/app", "from-old", "a.txt"); got.GetContent() != "1" {
			t.Errorf("a.txt on from-old = %q", got.GetContent())
		}
		_, err = f.CreateBranch(ctx, alice, &gatewayv1.CreateBranchRequest{Repo: "acme/app", Branch: "from-old"})
		wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_ALREADY_EXISTS, `branch "from-old" exists`)
		_, err = f.CreateBranch(ctx, alice, &gatewayv1.CreateBranchRequest{Repo: "acme/app", Branch: "x", FromRef: "nope"})
		wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_NOT_FOUND, `"nope" is not a branch`)
		_, err = f.CreateBranch(ctx, alice, &gatewayv1.CreateBranchRequest{Repo: "acme/app", Branch: "-f"})
		wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT, `starts with "-"`)
	})
}

// A person can clone a repository from the git directory, and what they
// push is what the forge reads.
func TestCloneAndPush(t *testing.T) {
	gitBin, err := exec.LookPath("git")
	if err != nil {
		t.Fatalf("this test needs the git command (apt-get install git): %v", err)
	}
	eachDialect(t, func(t *testing.T, d database) {
		f, _ := newForge(t, d, local.Options{})
		branch(t, f, "acme/app", "fix")
		writeFile(t, f, alice, "acme/app", "fix", "fix.txt", "from the agent\n", "")
		home := t.TempDir()
		run := func(dir string, args ...string) string {
			t.Helper()
			cmd := exec.Command(gitBin, args...)
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), "HOME="+home, "GIT_CONFIG_NOSYSTEM=1", "GIT_AUTHOR_NAME=Pat", "GIT_AUTHOR_EMAIL=pat@example.com",
				"GIT_COMMITTER_NAME=Pat", "GIT_COMMITTER_EMAIL=pat@example.com")
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("git %v: %v\n%s", args, err, out)
			}
			return string(out)
		}
		clone := filepath.Join(t.TempDir(), "app")
		run(home, "clone", "--quiet", "--branch", "fix", repoPath(t, f, "acme/app"), clone)
		if data, err := os.ReadFile(filepath.Join(clone, "fix.txt")); err != nil || string(data) != "from the agent\n" {
			t.Fatalf("cloned fix.txt %q, %v", data, err)
		}
		if err := os.WriteFile(filepath.Join(clone, "fix.txt"), []byte("edited by a person\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		run(clone, "commit", "--quiet", "-am", "A person's edit")
		run(clone, "push", "--quiet", "origin", "fix")
		got := readFile(t, f, "acme/app", "fix", "fix.txt")
		if got.GetContent() != "edited by a person\n" {
			t.Fatalf("after the push the forge reads %q", got.GetContent())
		}
		if sha := strings.TrimSpace(run(clone, "rev-parse", "HEAD:fix.txt")); sha != got.GetSha() {
			t.Errorf("blob sha %s, git says %s", got.GetSha(), sha)
		}
	})
}
