package local_test

import (
	"context"
	"maps"
	"testing"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"

	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/providers/local"
)

func TestCommitFiles(t *testing.T) {
	eachDialect(t, func(t *testing.T, d database) {
		ctx := context.Background()
		f, _ := newForge(t, d, local.Options{})
		branch(t, f, "acme/app", "fix")
		a := writeFile(t, f, alice, "acme/app", "fix", "src/a.go", "package a\n", "")
		b := writeFile(t, f, alice, "acme/app", "fix", "src/b.go", "package b\n", "")
		head := b.GetCommitSha()

		before := refs(t, f, "acme/app")
		stale := &gatewayv1.CommitFilesRequest{Repo: "acme/app", Branch: "fix", Message: "m", Files: []*gatewayv1.FileChange{
			{Path: "src/a.go", Content: "package a // v2\n", ExpectedSha: a.GetBlobSha()},
			{Path: "src/c.go", Content: "package c\n"},
			{Path: "src/b.go", Delete: true, ExpectedSha: a.GetBlobSha()}, // b's sha is not a's
		}}
		_, err := f.CommitFiles(ctx, alice, stale)
		wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_FAILED_PRECONDITION, "src/b.go on fix is now blob "+b.GetBlobSha())
		_, err = f.CommitFiles(ctx, alice, &gatewayv1.CommitFilesRequest{Repo: "acme/app", Branch: "main", Message: "m", Files: stale.Files[1:2]})
		wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_PERMISSION_DENIED, "main is the default branch")
		if after := refs(t, f, "acme/app"); !maps.Equal(after, before) {
			t.Fatalf("a refused change set moved a ref:\n%v\nwas\n%v", after, before)
		}

		stale.Files[2].ExpectedSha = b.GetBlobSha()
		stale.ExpectedHeadSha = head
		done, err := f.CommitFiles(ctx, alice, stale)
		if err != nil {
			t.Fatal(err)
		}
		if done.GetParentSha() != head || done.GetBranch() != "fix" || done.GetUrl() != testBase+"/acme/app/commit/"+done.GetCommitSha() {
			t.Errorf("committed %v", done)
		}
		repo, err := git.PlainOpen(repoPath(t, f, "acme/app"))
		if err != nil {
			t.Fatal(err)
		}
		c, err := repo.CommitObject(plumbing.NewHash(done.GetCommitSha()))
		if err != nil || len(c.ParentHashes) != 1 || c.ParentHashes[0].String() != head || c.Author.Name != "alice" {
			t.Fatalf("commit %v, %v: want one parent, the expected head", c, err)
		}
		want := []struct{ path, status, content string }{{"src/a.go", "updated", "package a // v2\n"}, {"src/c.go", "created", "package c\n"}, {"src/b.go", "deleted", ""}}
		for i, w := range want {
			got := done.GetFiles()[i]
			if got.GetPath() != w.path || got.GetStatus() != w.status {
				t.Errorf("file %d: %v, want %s %s", i, got, w.path, w.status)
			}
			if w.status == "deleted" {
				if got.GetBlobSha() != "" {
					t.Errorf("a deleted file has blob %q", got.GetBlobSha())
				}
				continue
			}
			if r := readFile(t, f, "acme/app", "fix", w.path); r.GetContent() != w.content || r.GetSha() != got.GetBlobSha() {
				t.Errorf("%s after the set: %v, result blob %s", w.path, r, got.GetBlobSha())
			}
		}
		_, err = f.ReadFile(ctx, alice, &gatewayv1.ReadFileRequest{Repo: "acme/app", Ref: "fix", Path: "src/b.go"})
		wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_NOT_FOUND, "no src/b.go")

		// The head it was written on is no longer the head.
		again := &gatewayv1.CommitFilesRequest{Repo: "acme/app", Branch: "fix", Message: "m", ExpectedHeadSha: head, Files: []*gatewayv1.FileChange{
			{Path: "src/d.go", Content: "package d\n"},
		}}
		_, err = f.CommitFiles(ctx, alice, again)
		wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_FAILED_PRECONDITION, "not the expected_head_sha")
	})
}
