// Package livetest is the session the opt-in live suites (-tags live) run
// against a real forge's scratch repository: read the repository, open,
// comment on, read and close an issue, push a branch with one commit, open
// a pull request from it, review it, read it back, list CI runs and what
// the credential reaches, and merge only when asked to. Only live tests
// import it.
package livetest

import (
	"context"
	"testing"
	"time"

	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/gen/forgetools/gateway/v1/gatewayv1handler"
	optionsv1 "github.com/forgetools/forgetools/gen/forgetools/options/v1"
	"github.com/forgetools/forgetools/providers/discovery"
	"github.com/forgetools/forgetools/toolserver"
)

// Provider is a forge provider with every capability the session uses.
type Provider interface {
	gatewayv1handler.ForgeIssuesHandler
	gatewayv1handler.ForgePullRequestsHandler
	gatewayv1handler.ForgeReviewsHandler
	gatewayv1handler.ForgeRepositoryHandler
	gatewayv1handler.ForgePushHandler
	gatewayv1handler.ForgeCiHandler
	discovery.Lister
}

// Options says what else the session may do.
type Options struct {
	// Approve submits the review as an approval (a reviewer credential is
	// configured); otherwise it is a comment.
	Approve bool
	// Merge merges the pull request the session opens.
	Merge bool
	// Trigger starts this CI workflow on the new branch ("" = none).
	Trigger string
}

// Run runs the session on repo and logs the pull request it opened.
func Run(t *testing.T, p Provider, repo string, o Options) {
	ctx, c := context.Background(), toolserver.Call{Account: "live", Session: "live"}
	stamp := time.Now().UTC().Format("20060102-150405")

	r, err := p.GetRepo(ctx, c, &gatewayv1.GetRepoRequest{Repo: repo})
	if err != nil {
		t.Fatal(err)
	}
	issue, err := p.CreateIssue(ctx, c, &gatewayv1.CreateIssueRequest{Repo: repo, Title: "forgetools live test " + stamp, Body: "Opened by the live suite; safe to close."})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.CommentOnIssue(ctx, c, &gatewayv1.CommentOnIssueRequest{Repo: repo, IssueNumber: issue.GetNumber(), Body: "comment " + stamp}); err != nil {
		t.Error(err)
	}
	if got, err := p.GetIssue(ctx, c, &gatewayv1.GetIssueRequest{Repo: repo, IssueNumber: issue.GetNumber()}); err != nil || len(got.GetComments()) != 1 {
		t.Errorf("read back %v, %v", got, err)
	}
	if _, err := p.UpdateIssue(ctx, c, &gatewayv1.UpdateIssueRequest{Repo: repo, IssueNumber: issue.GetNumber(), State: gatewayv1.IssueState_ISSUE_STATE_CLOSED}); err != nil {
		t.Error(err)
	}
	if _, err := p.ListDir(ctx, c, &gatewayv1.ListDirRequest{Repo: repo}); err != nil {
		t.Error(err)
	}

	branch := "forgetools-live-" + stamp
	if _, err := p.CreateBranch(ctx, c, &gatewayv1.CreateBranchRequest{Repo: repo, Branch: branch}); err != nil {
		t.Fatal(err)
	}
	path := "forgetools-live/" + stamp + ".md"
	w, err := p.WriteFile(ctx, c, &gatewayv1.WriteFileRequest{Repo: repo, Branch: branch, Path: path, Content: "live " + stamp + "\n", Message: "forgetools live test"})
	if err != nil {
		t.Fatal(err)
	}
	if f, err := p.ReadFile(ctx, c, &gatewayv1.ReadFileRequest{Repo: repo, Path: path, Ref: branch}); err != nil || f.GetSha() != w.GetBlobSha() {
		t.Errorf("read %v (want blob %s), %v", f, w.GetBlobSha(), err)
	}
	pr, err := p.CreatePullRequest(ctx, c, &gatewayv1.CreatePullRequestRequest{Repo: repo, Title: "forgetools live test " + stamp, HeadRef: branch, BaseRef: r.GetDefaultBranch()})
	if err != nil {
		t.Fatal(err)
	}
	verdict := gatewayv1.Verdict_VERDICT_COMMENT
	if o.Approve {
		verdict = gatewayv1.Verdict_VERDICT_APPROVE
	}
	if _, err := p.SubmitReview(ctx, c, &gatewayv1.SubmitReviewRequest{Repo: repo, PullNumber: pr.GetNumber(), Verdict: verdict, Body: "live review",
		Comments: []*gatewayv1.ReviewCommentInput{{Path: path, Line: 1, Body: "inline " + stamp}}}); err != nil {
		t.Error(err)
	}
	got, err := p.GetPullRequest(ctx, c, &gatewayv1.GetPullRequestRequest{Repo: repo, PullNumber: pr.GetNumber()})
	if err != nil || len(got.GetReviews()) == 0 {
		t.Errorf("pull request %v, %v", got, err)
	}
	if o.Trigger != "" {
		if _, err := p.TriggerCi(ctx, c, &gatewayv1.TriggerCIRequest{Repo: repo, Workflow: o.Trigger, Ref: branch}); err != nil {
			t.Error(err)
		}
	}
	if _, err := p.ListCiRuns(ctx, c, &gatewayv1.ListCIRunsRequest{Repo: repo}); err != nil {
		if e, ok := toolserver.AsError(err); ok && e.Code == optionsv1.ErrorCode_ERROR_CODE_UNIMPLEMENTED {
			t.Logf("CI runs: %s", e.Message) // the forge says it cannot; that is an answer
		} else {
			t.Errorf("CI runs: %v", err)
		}
	}
	if o.Merge {
		if _, err := p.MergePullRequest(ctx, c, &gatewayv1.MergePullRequestRequest{Repo: repo, PullNumber: pr.GetNumber(), ExpectedHeadSha: got.GetHeadSha()}); err != nil {
			t.Error(err)
		}
	}
	n := 0
	if err := p.Repositories(ctx, func(discovery.Repository) error { n++; return nil }); err != nil || n == 0 {
		t.Errorf("repositories: %d, %v", n, err)
	}
	t.Logf("opened %s", pr.GetUrl())
}
