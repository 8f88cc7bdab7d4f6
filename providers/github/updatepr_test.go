package github

import (
	"slices"
	"strings"
	"testing"

	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/providers/github/githubtest"
)

// A draft is asked for review, marked ready (GraphQL: REST cannot) and
// retitled in one call; then closed, reopened and rebased. What the
// provider answers is what GitHub then reads back.
func TestUpdatePullRequestOnTheFake(t *testing.T) {
	srv, p := stateful(t)
	srv.AddBranch(hello, "develop")
	n := srv.AddPull(hello, githubtest.Pull{Title: "Parse", Head: "feature", Draft: true})
	from := len(srv.Requests())
	title, body := "Parse nil input", "Handles nil."
	got, err := p.UpdatePullRequest(ctx, noCall, &gatewayv1.UpdatePullRequestRequest{Repo: hello, PullNumber: uint64(n),
		Title: &title, Body: &body, Ready: true, Reviewers: []string{"forgetools-reviewer"}})
	if err != nil {
		t.Fatal(err)
	}
	if got.GetDraft() || got.GetTitle() != title || got.GetBody() != body || got.GetState() != "open" {
		t.Errorf("updated = %v", got)
	}
	want := []string{"GET /repos/octocat/Hello-World/pulls/1", "POST /repos/octocat/Hello-World/pulls/1/requested_reviewers",
		"mutation MarkPullRequestReady", "PATCH /repos/octocat/Hello-World/pulls/1"}
	if sent := operations(t, srv, from); strings.Join(sent, "\n") != strings.Join(want, "\n") {
		t.Errorf("sent %q, want %q", sent, want)
	}
	if r := srv.Requested(hello, n); !slices.Equal(r, []string{"forgetools-reviewer"}) {
		t.Errorf("requested = %q", r)
	}
	read, err := p.GetPullRequest(ctx, noCall, &gatewayv1.GetPullRequestRequest{Repo: hello, PullNumber: uint64(n)})
	if err != nil || read.GetDraft() || read.GetTitle() != title {
		t.Errorf("read back = %v, %v", read, err)
	}

	for _, c := range []struct {
		req   *gatewayv1.UpdatePullRequestRequest
		state string
		base  string
	}{
		{req: &gatewayv1.UpdatePullRequestRequest{State: gatewayv1.PullRequestState_PULL_REQUEST_STATE_CLOSED}, state: "closed", base: "main"},
		{req: &gatewayv1.UpdatePullRequestRequest{State: gatewayv1.PullRequestState_PULL_REQUEST_STATE_OPEN, BaseRef: &[]string{"develop"}[0]}, state: "open", base: "develop"},
	} {
		c.req.Repo, c.req.PullNumber = hello, uint64(n)
		got, err := p.UpdatePullRequest(ctx, noCall, c.req)
		if err != nil {
			t.Fatal(err)
		}
		if got.GetState() != c.state || got.GetBaseRef() != c.base {
			t.Errorf("%v: state %q base %q, want %q %q", c.req, got.GetState(), got.GetBaseRef(), c.state, c.base)
		}
	}

	// Ready on a pull request that is no draft sends no mutation.
	from = len(srv.Requests())
	if _, err := p.UpdatePullRequest(ctx, noCall, &gatewayv1.UpdatePullRequestRequest{Repo: hello, PullNumber: uint64(n), Ready: true}); err != nil {
		t.Fatal(err)
	}
	if sent := operations(t, srv, from); len(sent) != 1 {
		t.Errorf("ready on a ready pull request sent %q; want only the read", sent)
	}
}

// Refusals leave the pull request as it was: a merged one, a reviewer
// GitHub refuses (asked before anything else changes), a base GitHub
// cannot set while closing, and a base that is no branch.
func TestUpdatePullRequestRefused(t *testing.T) {
	srv, p := stateful(t)
	n := srv.AddPull(hello, githubtest.Pull{Title: "Parse", Head: "feature", Draft: true})
	title := "New"
	from := len(srv.Requests())
	_, err := p.UpdatePullRequest(ctx, noCall, &gatewayv1.UpdatePullRequestRequest{Repo: hello, PullNumber: uint64(n), Title: &title, Ready: true, Reviewers: []string{"octocat"}})
	wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT, "GitHub refused to ask octocat for review")
	srv.SetPermission(hello, "stranger", "none")
	_, err = p.UpdatePullRequest(ctx, noCall, &gatewayv1.UpdatePullRequestRequest{Repo: hello, PullNumber: uint64(n), Title: &title, Reviewers: []string{"stranger"}})
	wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT, "GitHub refused to ask stranger for review (422): each must be a collaborator", "nothing was changed")
	base := "nowhere"
	_, err = p.UpdatePullRequest(ctx, noCall, &gatewayv1.UpdatePullRequestRequest{Repo: hello, PullNumber: uint64(n), BaseRef: &base})
	wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT, "base")
	for _, r := range srv.Requests()[from:] {
		if r.Path == "/graphql" {
			t.Errorf("a refused update reached GraphQL: %s", r.Body)
		}
	}
	read, err := p.GetPullRequest(ctx, noCall, &gatewayv1.GetPullRequestRequest{Repo: hello, PullNumber: uint64(n)})
	if err != nil || read.GetTitle() != "Parse" || !read.GetDraft() || read.GetBaseRef() != "main" || len(srv.Requested(hello, n)) != 0 {
		t.Errorf("after refusals: %v, %v, requested %q", read, err, srv.Requested(hello, n))
	}

	main := "main"
	from = len(srv.Requests())
	_, err = p.UpdatePullRequest(ctx, noCall, &gatewayv1.UpdatePullRequestRequest{Repo: hello, PullNumber: uint64(n),
		State: gatewayv1.PullRequestState_PULL_REQUEST_STATE_CLOSED, BaseRef: &main})
	wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT, "change base_ref first")
	if len(srv.Requests()) != from {
		t.Error("a close with a base change reached GitHub")
	}

	srv.Merge(hello, n)
	from = len(srv.Requests())
	_, err = p.UpdatePullRequest(ctx, noCall, &gatewayv1.UpdatePullRequestRequest{Repo: hello, PullNumber: uint64(n), Title: &title})
	wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_FAILED_PRECONDITION, "is merged")
	if sent := operations(t, srv, from); len(sent) != 1 {
		t.Errorf("a merged pull request's update sent %q; want only the read", sent)
	}
}
