package github

import (
	"testing"

	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/providers/github/githubtest"
)

// A review thread is outdated, as GitHub's isOutdated says, once a push
// to the head changes its line: then it shows the line it was written
// on. A push elsewhere leaves it current, and lines added above it move
// it down, as GitHub's line does.
func TestReviewThreadsOutdated(t *testing.T) {
	srv, p := stateful(t)
	srv.Commit(hello, "feature", "Notes", githubtest.File{Path: "notes.txt", Content: "a\nb\nc\n"})
	n := srv.AddPull(hello, githubtest.Pull{Title: "Notes", Head: "feature",
		Files: []githubtest.Change{{Path: "notes.txt", Patch: "@@ -0,0 +1,3 @@\n+a\n+b\n+c"}}})
	srv.Review(hello, n, "forgetools-reviewer", "COMMENTED", "See inline.",
		githubtest.Inline{Path: "notes.txt", Line: 2, Body: "b?"}, githubtest.Inline{Path: "notes.txt", Line: 3, Body: "c?"})
	threads := func(want ...any) {
		t.Helper()
		got, err := p.ListReviewThreads(ctx, noCall, &gatewayv1.ListReviewThreadsRequest{Repo: hello, PullNumber: uint64(n)})
		if err != nil {
			t.Fatal(err)
		}
		if len(got.GetThreads()) != 2 {
			t.Fatalf("threads = %v", got)
		}
		for i, th := range got.GetThreads() {
			if th.GetLine() != uint64(want[2*i].(int)) || th.GetOutdated() != want[2*i+1].(bool) {
				t.Errorf("thread %d at line %d outdated %v, want %v %v", i, th.GetLine(), th.GetOutdated(), want[2*i], want[2*i+1])
			}
		}
	}
	threads(2, false, 3, false)
	srv.Commit(hello, "feature", "Elsewhere", githubtest.File{Path: "other.txt", Content: "o\n"})
	threads(2, false, 3, false)
	srv.Commit(hello, "feature", "Above", githubtest.File{Path: "notes.txt", Content: "top\na\nb\nc\n"})
	threads(3, false, 4, false)
	srv.Commit(hello, "feature", "Change b", githubtest.File{Path: "notes.txt", Content: "top\na\nB\nc\n"})
	threads(2, true, 4, false)

	// forge_get_pull_request reads the comments over GraphQL: the
	// outdated one at its original line.
	pr, err := p.GetPullRequest(ctx, noCall, &gatewayv1.GetPullRequestRequest{Repo: hello, PullNumber: uint64(n)})
	if err != nil {
		t.Fatal(err)
	}
	if cs := pr.GetReviews()[0].GetComments(); len(cs) != 2 || cs[0].GetLine() != 2 || cs[1].GetLine() != 4 {
		t.Errorf("review comments %v, want lines 2 (outdated) and 4", cs)
	}
}

// GitHub's REST review comments say the same: an outdated comment has no
// line, its original_line where it was written and original_commit_id the
// head it was written on; a current one follows its line to the head.
func TestReviewCommentsOutdatedOverREST(t *testing.T) {
	srv, p := stateful(t)
	first := srv.Commit(hello, "feature", "Notes", githubtest.File{Path: "notes.txt", Content: "a\nb\n"})
	n := srv.AddPull(hello, githubtest.Pull{Title: "Notes", Head: "feature",
		Files: []githubtest.Change{{Path: "notes.txt", Patch: "@@ -0,0 +1,2 @@\n+a\n+b"}}})
	srv.Review(hello, n, "forgetools-reviewer", "COMMENTED", "",
		githubtest.Inline{Path: "notes.txt", Line: 1, Body: "a?"}, githubtest.Inline{Path: "notes.txt", Line: 2, Body: "b?"})
	head := srv.Commit(hello, "feature", "Change a", githubtest.File{Path: "notes.txt", Content: "new\nA\nb\n"})
	cs, _, err := p.author.PullRequests.ListComments(ctx, "octocat", "Hello-World", n, nil)
	if err != nil || len(cs) != 2 {
		t.Fatalf("comments = %v, %v", cs, err)
	}
	if c := cs[0]; c.Line != nil || c.GetOriginalLine() != 1 || c.GetOriginalCommitID() != first || c.GetCommitID() != first {
		t.Errorf("outdated comment: line %v original %d commit %s original commit %s", c.Line, c.GetOriginalLine(), c.GetCommitID(), c.GetOriginalCommitID())
	}
	if c := cs[1]; c.GetLine() != 3 || c.GetOriginalLine() != 2 || c.GetCommitID() != head || c.GetOriginalCommitID() != first {
		t.Errorf("current comment: line %d original %d commit %s original commit %s", c.GetLine(), c.GetOriginalLine(), c.GetCommitID(), c.GetOriginalCommitID())
	}
}
