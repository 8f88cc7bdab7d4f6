package github

import (
	"fmt"
	"strings"
	"testing"

	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/providers/github/githubtest"
)

// stateful is githubtest's fake with its state (not a script) behind a
// provider: octocat/Hello-World with branches main and feature, and the
// author and reviewer tokens.
func stateful(t *testing.T) (*githubtest.Server, *Provider) {
	t.Helper()
	srv := githubtest.New(githubtest.Options{})
	t.Cleanup(srv.Close)
	srv.AddToken(authorToken, "forgetools-bot")
	srv.AddToken(reviewerToken, "forgetools-reviewer")
	srv.AddRepo("octocat/Hello-World", "main", "feature")
	p, err := New(Options{APIURL: srv.APIURL(), Token: authorToken, ReviewerToken: reviewerToken})
	if err != nil {
		t.Fatal(err)
	}
	p.now = srv.Clock
	return srv, p
}

// The checks roll-up reads every check run of the head commit, past the
// first page of 100: one failure among 250 runs fails the pull request.
func TestChecksStateReadsEveryPage(t *testing.T) {
	srv, p := stateful(t)
	n := srv.AddPull("octocat/Hello-World", githubtest.Pull{Title: "Busy", Head: "feature"})
	var runs []githubtest.CheckRun
	for i := range 250 {
		runs = append(runs, githubtest.CheckRun{Name: fmt.Sprint("job ", i)})
	}
	runs[230].Conclusion = "failure"
	srv.AddCheckRuns("octocat/Hello-World", n, runs...)
	got, err := p.GetPullRequest(ctx, noCall, &gatewayv1.GetPullRequestRequest{Repo: "octocat/Hello-World", PullNumber: uint64(n)})
	if err != nil {
		t.Fatal(err)
	}
	if got.GetChecksState() != "failure" {
		t.Errorf("checks state = %q, want failure (run 231 of 250 failed)", got.GetChecksState())
	}
	pages := 0
	for _, r := range srv.Requests() {
		if strings.HasSuffix(r.Path, "/check-runs") {
			pages++
		}
	}
	if pages != 3 {
		t.Errorf("%d pages of check runs read, want 3 (100 a page)", pages)
	}
}
