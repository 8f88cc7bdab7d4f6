package github

import (
	"strings"
	"testing"

	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/providers/github/githubtest"
)

// TestPullRequestFilesFromTheHistory: a pull request seeded with no
// patches lists what its head's commits change from the merge base (git
// diff base...head), as GitHub's pulls/{n}/files does: once the base
// moves on with an unrelated change, the diff shows the head's change
// alone, not the base's reversed, and an inline comment anchors on the
// lines that diff shows and on no file it leaves out.
func TestPullRequestFilesFromTheHistory(t *testing.T) {
	srv, p := stateful(t)
	srv.Commit(hello, "feature", "Parse", githubtest.File{Path: "src/parse.go", Content: "package src\n\nfunc Parse() {}\n"})
	srv.Commit(hello, "main", "Docs", githubtest.File{Path: "README.md", Content: "# Hello-World\nMore.\n"},
		githubtest.File{Path: "main.txt", Content: "m\n"})
	n := srv.AddPull(hello, githubtest.Pull{Title: "Parse", Head: "feature"})

	d, err := p.GetPullRequestDiff(ctx, noCall, &gatewayv1.GetPullRequestDiffRequest{Repo: hello, PullNumber: uint64(n)})
	if err != nil {
		t.Fatal(err)
	}
	if len(d.GetFiles()) != 1 || d.GetFilesChanged() != 1 {
		t.Fatalf("diff = %v, want src/parse.go alone (not main's README.md and main.txt reversed)", d)
	}
	f := d.GetFiles()[0]
	if f.GetPath() != "src/parse.go" || f.GetStatus() != "added" || f.GetAdditions() != 3 ||
		!strings.Contains(f.GetHunks(), "R1 +package src\nR2 +\nR3 +func Parse() {}\n") {
		t.Errorf("src/parse.go = %v", f)
	}

	review := func(path string) error {
		_, err := p.SubmitReview(ctx, noCall, &gatewayv1.SubmitReviewRequest{Repo: hello, PullNumber: uint64(n), Verdict: gatewayv1.Verdict_VERDICT_COMMENT,
			Body: "See inline.", Comments: []*gatewayv1.ReviewCommentInput{{Path: path, Line: 3, Body: "Name it?"}}})
		return err
	}
	if err := review("src/parse.go"); err != nil {
		t.Errorf("a comment on a line the diff shows: %v", err)
	}
	if err := review("main.txt"); err == nil {
		t.Error("a comment on the base's own file was accepted")
	}

	// Merged with a merge commit, it keeps the diff it was merged with
	// (the base now holds its head, so a diff from the base's head would
	// be empty).
	if _, err := p.MergePullRequest(ctx, noCall, &gatewayv1.MergePullRequestRequest{Repo: hello, PullNumber: uint64(n),
		Method: gatewayv1.MergeMethod_MERGE_METHOD_MERGE, ExpectedHeadSha: srv.Head(hello, "feature")}); err != nil {
		t.Fatal(err)
	}
	d, err = p.GetPullRequestDiff(ctx, noCall, &gatewayv1.GetPullRequestDiffRequest{Repo: hello, PullNumber: uint64(n)})
	if err != nil || len(d.GetFiles()) != 1 || d.GetFiles()[0].GetHunks() != f.GetHunks() {
		t.Errorf("after the merge: diff = %v, %v", d, err)
	}
}
