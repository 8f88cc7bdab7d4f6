package local_test

import (
	"context"
	"testing"

	"google.golang.org/protobuf/proto"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/providers/local"
	"github.com/forgetools/forgetools/toolserver"
)

func TestPullRequestCreateCommentReview(t *testing.T) {
	eachDialect(t, func(t *testing.T, d database) {
		ctx := context.Background()
		f, _ := newForge(t, d, local.Options{})
		repo := "acme/app"
		createIssue(t, f, repo, "an issue first") // #1: pull requests share the numbers
		branch(t, f, repo, "fix/crash")
		head, err := f.WriteFile(ctx, alice, &gatewayv1.WriteFileRequest{Repo: repo, Branch: "fix/crash", Path: "main.go",
			Content: "package main\n", Message: "Fix the crash"})
		if err != nil {
			t.Fatal(err)
		}

		pr, err := f.CreatePullRequest(ctx, alice, &gatewayv1.CreatePullRequestRequest{
			Repo: repo, Title: "Fix crash", Body: "Fixes #1", HeadRef: "fix/crash", Draft: true,
		})
		if err != nil {
			t.Fatal(err)
		}
		want := &forgev1.PullRequest{
			Forge: f.Ref(), Repo: repo, Number: 2, State: "open", Url: testBase + "/acme/app/pull/2",
			HeadRef: "fix/crash", BaseRef: "main", Draft: true, Author: "alice", Title: "Fix crash", Body: "Fixes #1",
			HeadSha: head.GetCommitSha(),
		}
		if !proto.Equal(pr, want) {
			t.Fatalf("created = %v\nwant %v", pr, want)
		}

		cm, err := f.CommentOnPullRequest(ctx, alice, &gatewayv1.CommentOnPullRequestRequest{Repo: repo, PullNumber: 2, Body: "ping"})
		if err != nil {
			t.Fatal(err)
		}
		if cm.GetUrl() != testBase+"/acme/app/pull/2#issuecomment-"+cm.GetCommentId() || cm.GetNumber() != 2 {
			t.Fatalf("comment ref = %v, want a pull URL with an issuecomment fragment", cm)
		}

		bob := toolserver.Call{Account: "bob"}
		approve, err := f.SubmitReview(ctx, bob, &gatewayv1.SubmitReviewRequest{
			Repo: repo, PullNumber: 2, Verdict: gatewayv1.Verdict_VERDICT_APPROVE,
		})
		if err != nil {
			t.Fatal(err)
		}
		wantRef := &forgev1.ReviewRef{Forge: f.Ref(), Repo: repo, Number: 2, ReviewId: approve.GetReviewId(),
			Verdict: "approve", Url: testBase + "/acme/app/pull/2#pullrequestreview-" + approve.GetReviewId()}
		if approve.GetReviewId() == "" || !proto.Equal(approve, wantRef) {
			t.Fatalf("review ref = %v\nwant %v", approve, wantRef)
		}
		changes, err := f.SubmitReview(ctx, alice, &gatewayv1.SubmitReviewRequest{
			Repo: repo, PullNumber: 2, Verdict: gatewayv1.Verdict_VERDICT_REQUEST_CHANGES, Body: "Two nits",
			Comments: []*gatewayv1.ReviewCommentInput{
				{Path: "main.go", Line: 12, Body: "rename"},
				{Path: "old.go", Line: 3, Side: gatewayv1.Side_SIDE_LEFT, Body: "why removed?"},
			},
		})
		if err != nil {
			t.Fatal(err)
		}
		if changes.GetVerdict() != "request_changes" || changes.GetReviewId() == approve.GetReviewId() {
			t.Fatalf("second review = %v: want verdict request_changes and a new id", changes)
		}
		if _, err := f.SubmitReview(ctx, bob, &gatewayv1.SubmitReviewRequest{
			Repo: repo, PullNumber: 2, Verdict: gatewayv1.Verdict_VERDICT_COMMENT, Body: "FYI",
		}); err != nil {
			t.Fatal(err)
		}

		got, err := f.GetPullRequest(ctx, alice, &gatewayv1.GetPullRequestRequest{Repo: repo, PullNumber: 2})
		if err != nil {
			t.Fatal(err)
		}
		want.Comments = []*forgev1.Comment{{Author: "alice", Url: cm.GetUrl(), Body: "ping"}}
		want.Reviews = []*forgev1.Review{
			{Author: "bob", Verdict: "approve", Url: approve.GetUrl()},
			{Author: "alice", Verdict: "request_changes", Url: changes.GetUrl(), Body: "Two nits",
				Comments: []*forgev1.ReviewComment{
					{Path: "main.go", Line: 12, Side: "RIGHT", Author: "alice", Body: "rename", ThreadId: threadOf(got, 1, 0)},
					{Path: "old.go", Line: 3, Side: "LEFT", Author: "alice", Body: "why removed?", ThreadId: threadOf(got, 1, 1)},
				}},
			{Author: "bob", Verdict: "comment", Url: got.GetReviews()[2].GetUrl(), Body: "FYI"},
		}
		want.Mergeable = "true" // a read says whether it merges; the create did not look
		if !proto.Equal(got, want) {
			t.Fatalf("get = %v\nwant %v", got, want)
		}
	})
}

func TestPullRequestBaseBranch(t *testing.T) {
	eachDialect(t, func(t *testing.T, d database) {
		ctx := context.Background()
		f, _ := newForge(t, d, local.Options{
			DefaultBranch: "develop",
			Repos:         []local.Repo{{Name: "acme/trunky", DefaultBranch: "trunk"}, {Name: "acme/plain"}},
		})
		for repo, wantBase := range map[string]string{
			"acme/trunky": "trunk",   // configured
			"acme/plain":  "develop", // configured without a branch: the forge default
			"acme/fresh":  "develop", // created on first use
		} {
			branch(t, f, repo, "feat")
			if got, err := f.GetRepo(ctx, alice, &gatewayv1.GetRepoRequest{Repo: repo}); err != nil || got.GetDefaultBranch() != wantBase {
				t.Errorf("%s: default branch %q (%v), want %q", repo, got.GetDefaultBranch(), err, wantBase)
			}
			pr, err := f.CreatePullRequest(ctx, alice, &gatewayv1.CreatePullRequestRequest{Repo: repo, Title: "t", HeadRef: "feat"})
			if err != nil {
				t.Fatal(err)
			}
			if pr.GetBaseRef() != wantBase || pr.GetNumber() != 1 {
				t.Errorf("%s: PR #%d base %q, want #1 into %q", repo, pr.GetNumber(), pr.GetBaseRef(), wantBase)
			}
		}
		branch(t, f, "acme/trunky", "release/1.x")
		explicit, err := f.CreatePullRequest(ctx, alice, &gatewayv1.CreatePullRequestRequest{
			Repo: "acme/trunky", Title: "t", HeadRef: "feat", BaseRef: "release/1.x",
		})
		if err != nil {
			t.Fatal(err)
		}
		if explicit.GetBaseRef() != "release/1.x" || explicit.GetDraft() {
			t.Fatalf("explicit base: %v", explicit)
		}
	})
}

func TestReopeningAndStates(t *testing.T) {
	eachDialect(t, func(t *testing.T, d database) {
		ctx := context.Background()
		f, _ := newForge(t, d, local.Options{})
		repo := "acme/app"
		first := createPull(t, f, repo, "feat")
		if err := f.SetState(ctx, repo, first, "closed"); err != nil {
			t.Fatal(err)
		}
		// Closed frees head/base for a new pull request...
		second := createPull(t, f, repo, "feat")
		// ...so the old one cannot reopen beside it.
		wantCode(t, f.SetState(ctx, repo, first, "open"), gatewayv1.ErrorCode_ERROR_CODE_ALREADY_EXISTS, `"feat"`, "#2")
		if err := f.SetState(ctx, repo, second, "merged"); err != nil {
			t.Fatal(err)
		}
		if err := f.SetState(ctx, repo, first, "open"); err != nil {
			t.Fatalf("reopen after the other merged: %v", err)
		}
		pr, err := f.GetPullRequest(ctx, alice, &gatewayv1.GetPullRequestRequest{Repo: repo, PullNumber: second})
		if err != nil || pr.GetState() != "merged" {
			t.Fatalf("second = %v, %v; want merged", pr, err)
		}

		issue := createIssue(t, f, repo, "x")
		wantCode(t, f.SetState(ctx, repo, issue, "merged"), gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT, `"merged"`)
		wantCode(t, f.SetState(ctx, repo, 99, "closed"), gatewayv1.ErrorCode_ERROR_CODE_NOT_FOUND,
			"issue or pull request #99 not found in acme/app")
		if err := f.SetState(ctx, repo, issue, "closed"); err != nil {
			t.Fatal(err)
		}
		got, err := f.GetIssue(ctx, alice, &gatewayv1.GetIssueRequest{Repo: repo, IssueNumber: issue})
		if err != nil || got.GetState() != "closed" {
			t.Fatalf("issue = %v, %v; want closed", got, err)
		}
	})
}

// threadOf is the thread id a pull request's read gives review r's inline
// comment c ("" when there is none): each names its own thread.
func threadOf(pr *forgev1.PullRequest, r, c int) string {
	if rs := pr.GetReviews(); r < len(rs) && c < len(rs[r].GetComments()) {
		return rs[r].GetComments()[c].GetThreadId()
	}
	return ""
}
