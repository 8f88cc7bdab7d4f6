package gitlab_test

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"

	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
)

// TestUpdatePullRequest holds forge_update_pull_request to GitLab's
// "Update MR" call: PUT /projects/:id/merge_requests/:iid with title,
// description, state_event, target_branch and reviewer_ids, a draft kept
// as GitLab keeps one (a title prefix).
func TestUpdatePullRequest(t *testing.T) {
	s := fake(t)
	p := provider(t, s, 0)
	ctx := context.Background()
	if _, err := p.CreateBranch(ctx, noCall, &gatewayv1.CreateBranchRequest{Repo: proj, Branch: "release"}); err != nil {
		t.Fatal(err)
	}
	dr, err := p.CreatePullRequest(ctx, noCall, &gatewayv1.CreatePullRequestRequest{Repo: proj, Title: "Tidy", HeadRef: "release", BaseRef: "feature", Draft: true})
	if err != nil || !dr.GetDraft() {
		t.Fatalf("draft = %v, %v", dr, err)
	}
	sent := func() map[string]any {
		t.Helper()
		r := last(s)
		if r.Method != http.MethodPut || r.Path != escaped+"/merge_requests/2" {
			t.Fatalf("last request %s %s", r.Method, r.Path)
		}
		var body map[string]any
		if err := json.Unmarshal(r.Body, &body); err != nil {
			t.Fatal(err)
		}
		return body
	}
	update := func(req *gatewayv1.UpdatePullRequestRequest) (*gatewayv1.UpdatePullRequestRequest, error) {
		req.Repo, req.PullNumber = proj, dr.GetNumber()
		_, err := p.UpdatePullRequest(ctx, noCall, req)
		return req, err
	}

	// A new title for a draft stays a draft.
	title := "Tidy the charts"
	if _, err := update(&gatewayv1.UpdatePullRequestRequest{Title: &title}); err != nil {
		t.Fatal(err)
	}
	if b := sent(); b["title"] != "Draft: Tidy the charts" || len(b) != 1 {
		t.Errorf("retitle sent %v", b)
	}
	// Ready: the prefix goes; with a body, a new base and a reviewer.
	body, base := "Ready now.", "main"
	pr, err := p.UpdatePullRequest(ctx, noCall, &gatewayv1.UpdatePullRequestRequest{Repo: proj, PullNumber: dr.GetNumber(),
		Ready: true, Body: &body, BaseRef: &base, Reviewers: []string{"ada"}})
	if err != nil {
		t.Fatal(err)
	}
	b := sent()
	if b["title"] != "Tidy the charts" || b["description"] != body || b["target_branch"] != "main" || len(b["reviewer_ids"].([]any)) != 1 {
		t.Errorf("ready sent %v", b)
	}
	if pr.GetDraft() || pr.GetTitle() != "Tidy the charts" || pr.GetBaseRef() != "main" || pr.GetBody() != body || pr.GetState() != "open" {
		t.Errorf("after ready: %v", pr)
	}
	// Asking another reviewer keeps ada.
	if _, err := update(&gatewayv1.UpdatePullRequestRequest{Reviewers: []string{"forgetools-reviewer", "ada"}}); err != nil {
		t.Fatal(err)
	}
	if ids := sent()["reviewer_ids"].([]any); len(ids) != 2 {
		t.Errorf("reviewers sent %v, want ada's and the new one", ids)
	}
	// Close, then reopen.
	if _, err := update(&gatewayv1.UpdatePullRequestRequest{State: gatewayv1.PullRequestState_PULL_REQUEST_STATE_CLOSED}); err != nil {
		t.Fatal(err)
	}
	if b := sent(); b["state_event"] != "close" {
		t.Errorf("close sent %v", b)
	}
	got, err := p.GetPullRequest(ctx, noCall, &gatewayv1.GetPullRequestRequest{Repo: proj, PullNumber: dr.GetNumber()})
	if err != nil || got.GetState() != "closed" {
		t.Fatalf("after close: %v, %v", got, err)
	}
	if pr, err := p.UpdatePullRequest(ctx, noCall, &gatewayv1.UpdatePullRequestRequest{Repo: proj, PullNumber: dr.GetNumber(),
		State: gatewayv1.PullRequestState_PULL_REQUEST_STATE_OPEN}); err != nil || pr.GetState() != "open" || sent()["state_event"] != "reopen" {
		t.Fatalf("reopen = %v, %v", pr, err)
	}

	// Refusals: an unknown reviewer (before any PUT), a base that does
	// not exist, a merged merge request.
	before := len(s.Requests())
	_, err = update(&gatewayv1.UpdatePullRequestRequest{Reviewers: []string{"nobody"}})
	wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT, `no user "nobody"`)
	for _, r := range s.Requests()[before:] {
		if r.Method == http.MethodPut {
			t.Errorf("an unknown reviewer still sent %s %s", r.Method, r.Path)
		}
	}
	missing := "nope"
	_, err = update(&gatewayv1.UpdatePullRequestRequest{BaseRef: &missing})
	wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT)
	one, err := p.GetPullRequest(ctx, noCall, &gatewayv1.GetPullRequestRequest{Repo: proj, PullNumber: 1})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.MergePullRequest(ctx, noCall, &gatewayv1.MergePullRequestRequest{Repo: proj, PullNumber: 1, ExpectedHeadSha: one.GetHeadSha()}); err != nil {
		t.Fatal(err)
	}
	_, err = p.UpdatePullRequest(ctx, noCall, &gatewayv1.UpdatePullRequestRequest{Repo: proj, PullNumber: 1, Title: &title})
	wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_FAILED_PRECONDITION, "merged")
}
