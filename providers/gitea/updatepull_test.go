package gitea_test

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"

	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
)

// TestUpdatePullRequest holds forge_update_pull_request to Gitea's
// EditPullRequestOption (PATCH /repos/{owner}/{repo}/pulls/{index}) and
// PullReviewRequestOptions (POST .../requested_reviewers), on Gitea and
// Forgejo alike.
func TestUpdatePullRequest(t *testing.T) {
	for _, forgejo := range []bool{false, true} {
		s := fake(t, forgejo)
		p := provider(t, s, forgejo, 0)
		ctx := context.Background()
		if _, err := p.CreateBranch(ctx, noCall, &gatewayv1.CreateBranchRequest{Repo: repo, Branch: "release"}); err != nil {
			t.Fatal(err)
		}
		dr, err := p.CreatePullRequest(ctx, noCall, &gatewayv1.CreatePullRequestRequest{Repo: repo, Title: "Tidy", HeadRef: "release", BaseRef: "feature", Draft: true})
		if err != nil || !dr.GetDraft() {
			t.Fatalf("draft = %v, %v", dr, err)
		}
		n := dr.GetNumber()
		var edits []map[string]any
		lastEdit := func() map[string]any {
			t.Helper()
			edits = edits[:0]
			for _, r := range s.Requests() {
				if r.Method == http.MethodPatch && r.Path == "/repos/acme/widgets/pulls/3" {
					var b map[string]any
					if err := json.Unmarshal(r.Body, &b); err != nil {
						t.Fatal(err)
					}
					edits = append(edits, b)
				}
			}
			if len(edits) == 0 {
				t.Fatal("no PATCH sent")
			}
			return edits[len(edits)-1]
		}

		// A new title for a draft stays a draft.
		title := "Tidy the widgets"
		pr, err := p.UpdatePullRequest(ctx, noCall, &gatewayv1.UpdatePullRequestRequest{Repo: repo, PullNumber: n, Title: &title})
		if err != nil || !pr.GetDraft() || lastEdit()["title"] != "WIP: Tidy the widgets" {
			t.Fatalf("retitle = %v, %v; sent %v", pr, err, edits)
		}
		// Ready, with a body, a base and a reviewer.
		body, base := "Ready.", "main"
		pr, err = p.UpdatePullRequest(ctx, noCall, &gatewayv1.UpdatePullRequestRequest{Repo: repo, PullNumber: n, Ready: true, Body: &body, BaseRef: &base, Reviewers: []string{"forgetools-reviewer"}})
		if err != nil {
			t.Fatal(err)
		}
		if b := lastEdit(); b["title"] != "Tidy the widgets" || b["body"] != body || b["base"] != "main" || b["state"] != nil {
			t.Errorf("ready sent %v", b)
		}
		if pr.GetDraft() || pr.GetTitle() != "Tidy the widgets" || pr.GetBaseRef() != "main" || pr.GetBody() != body {
			t.Errorf("after ready: %v", pr)
		}
		var asked []string
		for _, r := range s.Requests() {
			if r.Method == http.MethodPost && r.Path == "/repos/acme/widgets/pulls/3/requested_reviewers" {
				var b struct{ Reviewers []string }
				json.Unmarshal(r.Body, &b)
				asked = append(asked, b.Reviewers...)
			}
		}
		if len(asked) != 1 || asked[0] != "forgetools-reviewer" {
			t.Errorf("reviewers asked: %v", asked)
		}
		// Only reviewers: no PATCH.
		before := len(edits)
		if _, err := p.UpdatePullRequest(ctx, noCall, &gatewayv1.UpdatePullRequestRequest{Repo: repo, PullNumber: n, Reviewers: []string{"forgetools-reviewer"}}); err != nil {
			t.Fatal(err)
		}
		if lastEdit(); len(edits) != before {
			t.Errorf("a reviewers-only update sent a PATCH")
		}
		// Close, reopen.
		if pr, err := p.UpdatePullRequest(ctx, noCall, &gatewayv1.UpdatePullRequestRequest{Repo: repo, PullNumber: n, State: gatewayv1.PullRequestState_PULL_REQUEST_STATE_CLOSED}); err != nil ||
			pr.GetState() != "closed" || lastEdit()["state"] != "closed" {
			t.Fatalf("close = %v, %v", pr, err)
		}
		if pr, err := p.UpdatePullRequest(ctx, noCall, &gatewayv1.UpdatePullRequestRequest{Repo: repo, PullNumber: n, State: gatewayv1.PullRequestState_PULL_REQUEST_STATE_OPEN}); err != nil ||
			pr.GetState() != "open" {
			t.Fatalf("reopen = %v, %v", pr, err)
		}

		// Refusals: a login that is no user (nothing edited), a base that
		// does not exist, a merged pull request.
		lastEdit()
		before = len(edits)
		_, err = p.UpdatePullRequest(ctx, noCall, &gatewayv1.UpdatePullRequestRequest{Repo: repo, PullNumber: n, Title: &title, Reviewers: []string{"nobody"}})
		wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT)
		if lastEdit(); len(edits) != before {
			t.Errorf("an unknown reviewer still sent a PATCH")
		}
		missing := "nope"
		_, err = p.UpdatePullRequest(ctx, noCall, &gatewayv1.UpdatePullRequestRequest{Repo: repo, PullNumber: n, BaseRef: &missing})
		wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_NOT_FOUND)
		two, err := p.GetPullRequest(ctx, noCall, &gatewayv1.GetPullRequestRequest{Repo: repo, PullNumber: 2})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := p.MergePullRequest(ctx, noCall, &gatewayv1.MergePullRequestRequest{Repo: repo, PullNumber: 2, ExpectedHeadSha: two.GetHeadSha()}); err != nil {
			t.Fatal(err)
		}
		_, err = p.UpdatePullRequest(ctx, noCall, &gatewayv1.UpdatePullRequestRequest{Repo: repo, PullNumber: 2, Title: &title})
		wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_FAILED_PRECONDITION, "merged")
	}
}
