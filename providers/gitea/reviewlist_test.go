package gitea_test

import (
	"context"
	"fmt"
	"testing"

	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
)

// TestListReviewsPages pages a pull request's 45 reviews oldest first
// with no gap or repeat, one request a page to Gitea's reviews endpoint
// (which sends no Link header: the count says more follow), each with its
// verdict and without its inline comments; an issue's number is
// not_found in that one request; a limit past Gitea's 50 pages at 50.
func TestListReviewsPages(t *testing.T) {
	s := fake(t, false)
	p := provider(t, s, false, 0)
	ctx := context.Background()
	verdicts := []gatewayv1.Verdict{gatewayv1.Verdict_VERDICT_COMMENT, gatewayv1.Verdict_VERDICT_REQUEST_CHANGES, gatewayv1.Verdict_VERDICT_APPROVE}
	inline(t, p, repo, 2, 1)
	for i := 1; i < 45; i++ {
		if _, err := p.SubmitReview(ctx, noCall, &gatewayv1.SubmitReviewRequest{Repo: repo, PullNumber: 2, Verdict: verdicts[i%3], Body: fmt.Sprint("r", i)}); err != nil {
			t.Fatal(err)
		}
	}
	req := &gatewayv1.ListCommentsRequest{Repo: repo, Kind: gatewayv1.CommentsOf_COMMENTS_OF_REVIEWS, Number: 2, Limit: u32(20)}
	var got []string
	pages := 0
	for ; pages < 5; pages++ {
		before := len(s.Requests())
		list, err := p.ListComments(ctx, noCall, req)
		if err != nil {
			t.Fatal(err)
		}
		if sent := s.Requests()[before:]; len(sent) != 1 || sent[0].Path != "/repos/acme/widgets/pulls/2/reviews" {
			t.Errorf("page %d sent %v", pages+1, sent)
		}
		for _, r := range list.GetReviews() {
			i := len(got)
			got = append(got, r.GetBody())
			want := []string{"comment", "request_changes", "approve"}[i%3]
			if r.GetVerdict() != want || r.GetAuthor() != "forgetools-reviewer" || len(r.GetComments()) != 0 || r.GetUrl() == "" {
				t.Errorf("review %d: %v; want forgetools-reviewer's %s with a url and no inline comments shown", i, r, want)
			}
		}
		if req.Cursor = list.GetNextCursor(); req.Cursor == "" {
			break
		}
	}
	if len(got) != 45 || pages != 2 || got[0] != "See inline." {
		t.Fatalf("read %d reviews in %d pages (%q...), want 45 in 3", len(got), pages+1, got[:min(len(got), 1)])
	}
	for i := 1; i < 45; i++ {
		if got[i] != fmt.Sprint("r", i) {
			t.Fatalf("review %d is %q (oldest first, no gap or repeat)", i, got[i])
		}
	}
	all, err := p.ListComments(ctx, noCall, &gatewayv1.ListCommentsRequest{Repo: repo, Kind: gatewayv1.CommentsOf_COMMENTS_OF_REVIEWS, Number: 2, Limit: u32(100)})
	if err != nil || len(all.GetReviews()) != 45 || all.GetNextCursor() != "" {
		t.Errorf("limit 100: %d reviews, cursor %q, %v; want all 45 on Gitea's one page of 50", len(all.GetReviews()), all.GetNextCursor(), err)
	}
	before := len(s.Requests())
	_, err = p.ListComments(ctx, noCall, &gatewayv1.ListCommentsRequest{Repo: repo, Kind: gatewayv1.CommentsOf_COMMENTS_OF_REVIEWS, Number: 1})
	wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_NOT_FOUND, "#1 is an issue")
	if sent := len(s.Requests()) - before; sent != 1 {
		t.Errorf("an issue's number cost %d requests, want 1", sent)
	}
}
