//go:build live

package gitea_test

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/handler"
	"github.com/forgetools/forgetools/providers/discovery"
	"github.com/forgetools/forgetools/providers/gitea"
)

// The live suite runs the arms against a real Gitea or Forgejo in a
// scratch repository: go test -tags live ./providers/gitea/ -run Live -v
//
//	FORGETOOLS_LIVE_GITEA_TOKEN           author access token (repository, issue: write)   required
//	FORGETOOLS_LIVE_GITEA_REPO            scratch repository, owner/name, not empty         required
//	FORGETOOLS_LIVE_GITEA_HOST            instance host (default gitea.com; codeberg.org for forgejo)
//	FORGETOOLS_LIVE_GITEA_API_URL         API root override (https://HOST/api/v1/)
//	FORGETOOLS_LIVE_GITEA_FLAVOR          gitea (default) or forgejo
//	FORGETOOLS_LIVE_GITEA_REVIEWER_TOKEN  a second account's token: the review approves
//	FORGETOOLS_LIVE_GITEA_MERGE=1         also merge the pull request it opens
//
// It opens an issue, a branch with one commit and a pull request from it,
// and closes the issue and (unless it merged) leaves the pull request for
// the operator to close.
func TestLiveGitea(t *testing.T) {
	token, repo := os.Getenv("FORGETOOLS_LIVE_GITEA_TOKEN"), os.Getenv("FORGETOOLS_LIVE_GITEA_REPO")
	if token == "" || repo == "" {
		t.Skip("live Gitea suite skipped: set FORGETOOLS_LIVE_GITEA_TOKEN and FORGETOOLS_LIVE_GITEA_REPO (a scratch owner/name) to run it")
	}
	p, err := gitea.New(gitea.Options{
		Flavor: gitea.Flavor(os.Getenv("FORGETOOLS_LIVE_GITEA_FLAVOR")), Host: os.Getenv("FORGETOOLS_LIVE_GITEA_HOST"),
		APIURL: os.Getenv("FORGETOOLS_LIVE_GITEA_API_URL"), Token: token,
		ReviewerToken: os.Getenv("FORGETOOLS_LIVE_GITEA_REVIEWER_TOKEN"), UserAgent: "forgetools-live-test",
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx, c := context.Background(), handler.Call{Account: "live", Session: "live"}
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
	f, err := p.ReadFile(ctx, c, &gatewayv1.ReadFileRequest{Repo: repo, Path: path, Ref: branch})
	if err != nil || f.GetSha() != w.GetBlobSha() {
		t.Errorf("read %v (want blob %s), %v", f, w.GetBlobSha(), err)
	}
	pr, err := p.CreatePullRequest(ctx, c, &gatewayv1.CreatePullRequestRequest{Repo: repo, Title: "forgetools live test " + stamp, HeadRef: branch, BaseRef: r.GetDefaultBranch()})
	if err != nil {
		t.Fatal(err)
	}
	verdict := gatewayv1.Verdict_VERDICT_COMMENT
	if os.Getenv("FORGETOOLS_LIVE_GITEA_REVIEWER_TOKEN") != "" {
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
	if os.Getenv("FORGETOOLS_LIVE_GITEA_MERGE") == "1" {
		if _, err := p.MergePullRequest(ctx, c, &gatewayv1.MergePullRequestRequest{Repo: repo, PullNumber: pr.GetNumber(), ExpectedHeadSha: got.GetHeadSha()}); err != nil {
			t.Error(err)
		}
	}
	if _, err := p.ListCiRuns(ctx, c, &gatewayv1.ListCIRunsRequest{Repo: repo, Limit: ptr(uint32(5))}); err != nil {
		if e, ok := handler.AsError(err); !ok || e.Code != gatewayv1.ErrorCode_ERROR_CODE_UNIMPLEMENTED {
			t.Errorf("CI runs: %v", err)
		} else {
			t.Logf("CI runs: %s", e.Message)
		}
	}
	n := 0
	if err := p.Repositories(ctx, func(discovery.Repository) error { n++; return nil }); err != nil || n == 0 {
		t.Errorf("repositories: %d, %v", n, err)
	}
	fmt.Println("live Gitea: pull request", pr.GetUrl())
}

func ptr[T any](v T) *T { return &v }
