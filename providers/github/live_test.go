//go:build live

package github

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	gh "github.com/google/go-github/v84/github"

	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/providers/kit"
)

// The live suite runs every arm against real GitHub in a scratch
// repository: go test -tags live ./providers/github/ -run Live -v
//
//	FORGETOOLS_LIVE_GITHUB_TOKEN           author token (issues and pull requests: write)    required
//	FORGETOOLS_LIVE_GITHUB_REPO            scratch repository, owner/name                    required
//	FORGETOOLS_LIVE_GITHUB_HEAD            a pushed branch that differs from the default      enables the pull request arms
//	FORGETOOLS_LIVE_GITHUB_REVIEWER_TOKEN  a second account's token                           reviews approve instead of comment
//	FORGETOOLS_LIVE_GITHUB_HOST            Enterprise host (default github.com)
//	FORGETOOLS_LIVE_GITHUB_API_URL         API root override
//
// It opens one issue (edits and closes it with forge_update_issue) and
// (with HEAD) one pull request, and closes both. The repository, file, pull
// request and CI arms are exercised read-only: nothing is pushed, merged or
// triggered.

func liveEnv(t *testing.T) (Options, string, string) {
	t.Helper()
	token, repo := os.Getenv("FORGETOOLS_LIVE_GITHUB_TOKEN"), os.Getenv("FORGETOOLS_LIVE_GITHUB_REPO")
	if token == "" || repo == "" {
		t.Skip("live GitHub suite skipped: set FORGETOOLS_LIVE_GITHUB_TOKEN and FORGETOOLS_LIVE_GITHUB_REPO (a scratch owner/name) to run it")
	}
	return Options{Options: kit.Options{Host: os.Getenv("FORGETOOLS_LIVE_GITHUB_HOST"), APIURL: os.Getenv("FORGETOOLS_LIVE_GITHUB_API_URL"), Token: token, ReviewerToken: os.Getenv("FORGETOOLS_LIVE_GITHUB_REVIEWER_TOKEN"), UserAgent: "forgetools-live-test"}}, repo, os.Getenv("FORGETOOLS_LIVE_GITHUB_HEAD")
}

// closer closes what the suite opened, with go-github directly (closing
// is not a provider operation).
func closer(t *testing.T, p *Provider, repo string, n int, pull bool) {
	t.Cleanup(func() {
		r, _ := parseRepo(repo)
		c, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		var err error
		if pull {
			_, _, err = p.author.PullRequests.Edit(c, r.owner, r.name, n, &gh.PullRequest{State: gh.Ptr("closed")})
		} else {
			_, _, err = p.author.Issues.Edit(c, r.owner, r.name, n, &gh.IssueRequest{State: gh.Ptr("closed")})
		}
		if err != nil {
			t.Errorf("closing %s#%d: %v", repo, n, err)
		}
	})
}

func TestLiveIssues(t *testing.T) {
	o, repo, _ := liveEnv(t)
	p, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	stamp := time.Now().UTC().Format(time.RFC3339)
	issue, err := p.CreateIssue(ctx, noCall, &gatewayv1.CreateIssueRequest{Repo: repo, Title: "forgetools live test " + stamp, Body: "Opened by the live suite; safe to close."})
	if err != nil {
		t.Fatal(err)
	}
	closer(t, p, repo, int(issue.GetNumber()), false)
	if issue.GetUrl() == "" || issue.GetState() != "open" {
		t.Errorf("created %v", issue)
	}

	ref, err := p.CommentOnIssue(ctx, noCall, &gatewayv1.CommentOnIssueRequest{Repo: repo, IssueNumber: issue.GetNumber(), Body: "comment " + stamp})
	if err != nil {
		t.Fatal(err)
	}
	got, err := p.GetIssue(ctx, noCall, &gatewayv1.GetIssueRequest{Repo: repo, IssueNumber: issue.GetNumber()})
	if err != nil {
		t.Fatal(err)
	}
	if got.GetTitle() != issue.GetTitle() || len(got.GetComments()) != 1 || got.GetComments()[0].GetUrl() != ref.GetUrl() {
		t.Errorf("read back %v, want the title and comment %s", got, ref.GetUrl())
	}

	limit := uint32(5)
	list, err := p.ListIssues(ctx, noCall, &gatewayv1.ListIssuesRequest{Repo: repo, State: gatewayv1.IssueStateFilter_ISSUE_STATE_FILTER_ALL, Limit: &limit})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, i := range list.GetIssues() {
		found = found || i.GetNumber() == issue.GetNumber()
		if strings.Contains(i.GetUrl(), "/pull/") {
			t.Errorf("list holds pull request %s", i.GetUrl())
		}
	}
	if !found {
		t.Errorf("newest issues %v lack #%d", numbers(list), issue.GetNumber())
	}

	title := issue.GetTitle() + " (edited)"
	closed, err := p.UpdateIssue(ctx, noCall, &gatewayv1.UpdateIssueRequest{
		Repo: repo, IssueNumber: issue.GetNumber(), Title: &title,
		State: gatewayv1.IssueState_ISSUE_STATE_CLOSED, StateReason: gatewayv1.StateReason_STATE_REASON_NOT_PLANNED,
	})
	if err != nil {
		t.Fatal(err)
	}
	if closed.GetState() != "closed" || closed.GetStateReason() != "not_planned" || closed.GetTitle() != title || closed.GetClosedAt() == "" {
		t.Errorf("closed %v", closed)
	}

	_, err = p.GetIssue(ctx, noCall, &gatewayv1.GetIssueRequest{Repo: repo, IssueNumber: 2147483000})
	wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_NOT_FOUND)
	_, err = p.GetIssue(ctx, noCall, &gatewayv1.GetIssueRequest{Repo: "forgetools-no-such-owner-" + fmt.Sprint(time.Now().Unix()) + "/x", IssueNumber: 1})
	wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_NOT_FOUND)
}

func TestLivePullRequests(t *testing.T) {
	o, repo, head := liveEnv(t)
	if head == "" {
		t.Skip("live pull request arms skipped: set FORGETOOLS_LIVE_GITHUB_HEAD to a pushed branch of the scratch repository")
	}
	p, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	stamp := time.Now().UTC().Format(time.RFC3339)
	// base omitted: the provider looks up the default branch.
	pr, err := p.CreatePullRequest(ctx, noCall, &gatewayv1.CreatePullRequestRequest{Repo: repo, Title: "forgetools live test " + stamp, HeadRef: head, Body: "Opened by the live suite; safe to close."})
	if err != nil {
		t.Fatal(err)
	}
	closer(t, p, repo, int(pr.GetNumber()), true)
	if pr.GetHeadRef() != head || pr.GetBaseRef() == "" {
		t.Errorf("created %v", pr)
	}

	if _, err := p.CommentOnPullRequest(ctx, noCall, &gatewayv1.CommentOnPullRequestRequest{Repo: repo, PullNumber: pr.GetNumber(), Body: "comment " + stamp}); err != nil {
		t.Fatal(err)
	}
	verdict, want := gatewayv1.Verdict_VERDICT_COMMENT, "comment"
	if o.ReviewerToken != "" {
		verdict, want = gatewayv1.Verdict_VERDICT_APPROVE, "approve"
	}
	review, err := p.SubmitReview(ctx, noCall, &gatewayv1.SubmitReviewRequest{Repo: repo, PullNumber: pr.GetNumber(), Verdict: verdict, Body: "review " + stamp})
	if err != nil {
		t.Fatal(err)
	}
	if review.GetVerdict() != want {
		t.Errorf("review verdict %q, want %q", review.GetVerdict(), want)
	}

	got, err := p.GetPullRequest(ctx, noCall, &gatewayv1.GetPullRequestRequest{Repo: repo, PullNumber: pr.GetNumber()})
	if err != nil {
		t.Fatal(err)
	}
	if len(got.GetReviews()) != 1 || got.GetReviews()[0].GetVerdict() != want || len(got.GetComments()) != 1 {
		t.Errorf("read back reviews %v comments %v", got.GetReviews(), got.GetComments())
	}
	_, err = p.GetIssue(ctx, noCall, &gatewayv1.GetIssueRequest{Repo: repo, IssueNumber: pr.GetNumber()})
	wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_NOT_FOUND, "is a pull request")
	if !shaPattern.MatchString(got.GetHeadSha()) {
		t.Errorf("head sha %q", got.GetHeadSha())
	}
	limit := uint32(5)
	list, err := p.ListPullRequests(ctx, noCall, &gatewayv1.ListPullRequestsRequest{Repo: repo, Head: head, Limit: &limit})
	if err != nil {
		t.Fatal(err)
	}
	if len(list.GetPullRequests()) == 0 || list.GetPullRequests()[0].GetNumber() != pr.GetNumber() {
		t.Errorf("open pull requests from %s: %v", head, list.GetPullRequests())
	}
}

// The read-only arms of the repository and CI: whatever the scratch
// repository holds, what they return agrees with itself.
func TestLiveRepositoryAndCIReads(t *testing.T) {
	o, repo, _ := liveEnv(t)
	p, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	r, err := p.GetRepo(ctx, noCall, &gatewayv1.GetRepoRequest{Repo: repo})
	if err != nil {
		t.Fatal(err)
	}
	if r.GetDefaultBranch() == "" || r.GetPermission() == "" || r.GetVisibility() == "" {
		t.Errorf("repository %v", r)
	}
	root, err := p.ListDir(ctx, noCall, &gatewayv1.ListDirRequest{Repo: repo})
	if err != nil {
		t.Fatalf("the scratch repository needs a commit on its default branch: %v", err)
	}
	if root.GetRef() != r.GetDefaultBranch() {
		t.Errorf("root listed at %q, default branch %q", root.GetRef(), r.GetDefaultBranch())
	}
	for _, e := range root.GetEntries() {
		if e.GetType() != "file" {
			continue
		}
		f, err := p.ReadFile(ctx, noCall, &gatewayv1.ReadFileRequest{Repo: repo, Path: e.GetName(), Ref: root.GetRef()})
		if err != nil {
			t.Fatal(err)
		}
		if f.GetSha() != e.GetSha() || f.GetSize() != e.GetSize() {
			t.Errorf("%s read with sha %s size %d, listed with %s %d", e.GetName(), f.GetSha(), f.GetSize(), e.GetSha(), e.GetSize())
		}
		break
	}
	_, err = p.ReadFile(ctx, noCall, &gatewayv1.ReadFileRequest{Repo: repo, Path: "forgetools-no-such-file-" + fmt.Sprint(time.Now().Unix())})
	wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_NOT_FOUND)

	limit := uint32(3)
	runs, err := p.ListCiRuns(ctx, noCall, &gatewayv1.ListCIRunsRequest{Repo: repo, Limit: &limit})
	if err != nil {
		t.Fatal(err)
	}
	if len(runs.GetRuns()) == 0 {
		t.Log("no Actions runs in the scratch repository: forge_get_ci_run not exercised")
		return
	}
	run, err := p.GetCiRun(ctx, noCall, &gatewayv1.GetCIRunRequest{Repo: repo, RunId: runs.GetRuns()[0].GetRunId()})
	if err != nil {
		t.Fatal(err)
	}
	for _, j := range run.GetJobs() {
		if failed(j.GetConclusion()) && strings.HasPrefix(j.GetLogTail(), "(log not available") {
			t.Errorf("job %s: %s", j.GetName(), j.GetLogTail())
		}
	}
}
