package local_test

import (
	"context"
	"testing"

	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/providers/local"
)

func TestUpdatePullRequest(t *testing.T) {
	eachDialect(t, func(t *testing.T, d database) {
		ctx := context.Background()
		f, _ := newForge(t, d, local.Options{})
		repo := "acme/app"
		branch(t, f, repo, "feat")
		branch(t, f, repo, "release")
		pr, err := f.CreatePullRequest(ctx, alice, &gatewayv1.CreatePullRequestRequest{Repo: repo, Title: "WIP", Body: "first", HeadRef: "feat", Draft: true})
		if err != nil {
			t.Fatal(err)
		}
		n := pr.GetNumber()
		update := func(req *gatewayv1.UpdatePullRequestRequest) (*gatewayv1.UpdatePullRequestRequest, error) {
			req.Repo, req.PullNumber = repo, n
			_, err := f.UpdatePullRequest(ctx, alice, req)
			return req, err
		}
		get := func() (state, title, body, base string, draft bool) {
			t.Helper()
			pr, err := f.GetPullRequest(ctx, alice, &gatewayv1.GetPullRequestRequest{Repo: repo, PullNumber: n})
			if err != nil {
				t.Fatal(err)
			}
			return pr.GetState(), pr.GetTitle(), pr.GetBody(), pr.GetBaseRef(), pr.GetDraft()
		}

		// Retitle and mark ready; the body is left alone.
		title := "Add the widget"
		got, err := f.UpdatePullRequest(ctx, alice, &gatewayv1.UpdatePullRequestRequest{Repo: repo, PullNumber: n, Title: &title, Ready: true})
		if err != nil || got.GetTitle() != title || got.GetDraft() || got.GetBody() != "first" || got.GetState() != "open" {
			t.Fatalf("retitle: %v, %v", got, err)
		}
		// Retarget onto another branch.
		base := "release"
		if _, err := update(&gatewayv1.UpdatePullRequestRequest{BaseRef: &base}); err != nil {
			t.Fatal(err)
		}
		if _, _, _, b, _ := get(); b != "release" {
			t.Errorf("base %q, want release", b)
		}
		// Close, then reopen.
		if _, err := update(&gatewayv1.UpdatePullRequestRequest{State: gatewayv1.PullRequestState_PULL_REQUEST_STATE_CLOSED}); err != nil {
			t.Fatal(err)
		}
		if s, _, _, _, _ := get(); s != "closed" {
			t.Errorf("state %q, want closed", s)
		}
		// While it is closed another pull request takes feat into release...
		other, err := f.CreatePullRequest(ctx, alice, &gatewayv1.CreatePullRequestRequest{Repo: repo, Title: "again", HeadRef: "feat", BaseRef: "release"})
		if err != nil {
			t.Fatal(err)
		}
		// ...so it cannot reopen beside it, and nothing of the call is kept.
		body := "second"
		_, err = update(&gatewayv1.UpdatePullRequestRequest{State: gatewayv1.PullRequestState_PULL_REQUEST_STATE_OPEN, Body: &body})
		wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_ALREADY_EXISTS, "#2")
		if s, _, b, _, _ := get(); s != "closed" || b != "first" {
			t.Errorf("after the refused reopen: state %q body %q", s, b)
		}
		// Retargeted back to main it may reopen.
		main := "main"
		if _, err := update(&gatewayv1.UpdatePullRequestRequest{State: gatewayv1.PullRequestState_PULL_REQUEST_STATE_OPEN, BaseRef: &main}); err != nil {
			t.Fatal(err)
		}
		if s, _, _, b, _ := get(); s != "open" || b != "main" {
			t.Errorf("reopened: state %q base %q", s, b)
		}

		// Refusals, each changing nothing.
		head, missing := "feat", "nope"
		_, err = update(&gatewayv1.UpdatePullRequestRequest{BaseRef: &head})
		wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT, "head")
		_, err = update(&gatewayv1.UpdatePullRequestRequest{BaseRef: &missing})
		wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT, `"nope" is not a branch`)
		_, err = update(&gatewayv1.UpdatePullRequestRequest{Title: &title, Reviewers: []string{"bob"}})
		wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_UNIMPLEMENTED, "review requests")
		_, err = update(&gatewayv1.UpdatePullRequestRequest{})
		wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT, "at least one field")
		if s, ti, _, b, _ := get(); s != "open" || ti != title || b != "main" {
			t.Errorf("after refusals: state %q title %q base %q", s, ti, b)
		}
		// A merged pull request is final; an issue is not a pull request.
		if err := f.SetState(ctx, repo, other.GetNumber(), "merged"); err != nil {
			t.Fatal(err)
		}
		_, err = f.UpdatePullRequest(ctx, alice, &gatewayv1.UpdatePullRequestRequest{Repo: repo, PullNumber: other.GetNumber(), Title: &title})
		wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_FAILED_PRECONDITION, "merged")
		issue := createIssue(t, f, repo, "an issue")
		_, err = f.UpdatePullRequest(ctx, alice, &gatewayv1.UpdatePullRequestRequest{Repo: repo, PullNumber: issue, Title: &title})
		wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_NOT_FOUND)
	})
}
