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
// It opens one issue and (with HEAD) one pull request, and closes both.

func liveEnv(t *testing.T) (Options, string, string) {
	t.Helper()
	token, repo := os.Getenv("FORGETOOLS_LIVE_GITHUB_TOKEN"), os.Getenv("FORGETOOLS_LIVE_GITHUB_REPO")
	if token == "" || repo == "" {
		t.Skip("live GitHub suite skipped: set FORGETOOLS_LIVE_GITHUB_TOKEN and FORGETOOLS_LIVE_GITHUB_REPO (a scratch owner/name) to run it")
	}
	return Options{
		Host:          os.Getenv("FORGETOOLS_LIVE_GITHUB_HOST"),
		APIURL:        os.Getenv("FORGETOOLS_LIVE_GITHUB_API_URL"),
		Token:         token,
		ReviewerToken: os.Getenv("FORGETOOLS_LIVE_GITHUB_REVIEWER_TOKEN"),
		UserAgent:     "forgetools-live-test",
	}, repo, os.Getenv("FORGETOOLS_LIVE_GITHUB_HEAD")
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

	_, err = p.GetIssue(ctx, noCall, &gatewayv1.GetIssueRequest{Repo: repo, IssueNumber: 2147483000})
	wantCode(t, err, codeNotFound)
	_, err = p.GetIssue(ctx, noCall, &gatewayv1.GetIssueRequest{Repo: "forgetools-no-such-owner-" + fmt.Sprint(time.Now().Unix()) + "/x", IssueNumber: 1})
	wantCode(t, err, codeNotFound)
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
	wantCode(t, err, codeNotFound, "is a pull request")
}
