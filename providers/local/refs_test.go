package local_test

import (
	"context"
	"os/exec"
	"path/filepath"
	"testing"

	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/providers/local"
)

// A branch cannot pose as a commit (issue 19): names git would find
// ambiguous are refused, and one pushed past the gateway does not change
// what a sha, or a tag, names.
func TestBranchCannotPoseAsACommit(t *testing.T) {
	gitBin, err := exec.LookPath("git")
	if err != nil {
		t.Fatalf("this test needs the git command (apt-get install git): %v", err)
	}
	d := sqliteDatabase(t)
	f, _ := newForge(t, d, local.Options{})
	ctx := context.Background()
	main := readFile(t, f, "acme/app", "main", "README.md")
	at, err := f.CreateBranch(ctx, alice, &gatewayv1.CreateBranchRequest{Repo: "acme/app", Branch: "base"})
	if err != nil {
		t.Fatal(err)
	}
	head := at.GetSha()
	for _, name := range []string{head, head[:7], "HEAD", "tags/v1", "refs/heads/x"} {
		_, err := f.CreateBranch(ctx, alice, &gatewayv1.CreateBranchRequest{Repo: "acme/app", Branch: name})
		wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT, "is not a valid branch name")
		_, err = f.WriteFile(ctx, alice, &gatewayv1.WriteFileRequest{Repo: "acme/app", Branch: name, Path: "x", Content: "x", Message: "m"})
		wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT, "is not a valid branch name")
	}

	// A person pushes a tag, then branches named as main's sha and as the
	// tag, both at a forged commit.
	branch(t, f, "acme/app", "forge")
	forged := writeFile(t, f, alice, "acme/app", "forge", "README.md", "forged\n", main.GetSha()).GetCommitSha()
	repo := filepath.Join(d.gitDir, "acme", "app.git")
	for _, args := range [][]string{{"tag", "v1", head}, {"update-ref", "refs/heads/" + head, forged}, {"update-ref", "refs/heads/v1", forged}} {
		if out, err := exec.Command(gitBin, append([]string{"-C", repo}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	for _, ref := range []string{head, "v1"} {
		if got := readFile(t, f, "acme/app", ref, "README.md"); got.GetContent() != main.GetContent() {
			t.Errorf("README.md at %q reads %q, not main's own %q", ref, got.GetContent(), main.GetContent())
		}
	}
	_, err = f.CreateBranch(ctx, alice, &gatewayv1.CreateBranchRequest{Repo: "acme/app", Branch: "v2", FromRef: head})
	if err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, f, "acme/app", "v2", "README.md"); got.GetContent() != main.GetContent() {
		t.Errorf("a branch created from main's sha has %q", got.GetContent())
	}
	// git itself agrees on what the sha and the tag name.
	for _, ref := range []string{head, "v1"} {
		out, err := exec.Command(gitBin, "-C", repo, "rev-parse", ref+"^{commit}").Output()
		if err != nil || string(out) != head+"\n" {
			t.Errorf("git rev-parse %s = %q, %v; want %s", ref, out, err, head)
		}
	}
}

// A tag's name is not free for a branch.
func TestBranchRefusesATagsName(t *testing.T) {
	gitBin, err := exec.LookPath("git")
	if err != nil {
		t.Fatalf("this test needs the git command: %v", err)
	}
	d := sqliteDatabase(t)
	f, _ := newForge(t, d, local.Options{})
	readFile(t, f, "acme/app", "main", "README.md") // the repository exists from its first use
	if out, err := exec.Command(gitBin, "-C", filepath.Join(d.gitDir, "acme", "app.git"), "tag", "release", "main").CombinedOutput(); err != nil {
		t.Fatalf("git tag: %v\n%s", err, out)
	}
	_, err = f.CreateBranch(context.Background(), alice, &gatewayv1.CreateBranchRequest{Repo: "acme/app", Branch: "release"})
	wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT, `"release" is a tag's name`)
}
