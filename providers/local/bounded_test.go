package local_test

import (
	"context"
	"fmt"
	"testing"

	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/providers/local"
	"github.com/forgetools/forgetools/toolserver"
)

// Reads hold what the renderer shows and count the rest (issue 19, item
// 2): 45 comments read as the first 30 and a total of 45; 35 reviews as
// the first 30 and 35, each with at most its shown inline comments.
func TestReadsKeepTheShownItemsAndCount(t *testing.T) {
	eachDialect(t, func(t *testing.T, d database) {
		ctx := context.Background()
		f, _ := newForge(t, d, local.Options{})
		n := createIssue(t, f, "acme/app", "Busy")
		pr := createPull(t, f, "acme/app", "topic")
		for i := range 45 {
			if _, err := f.CommentOnIssue(ctx, alice, &gatewayv1.CommentOnIssueRequest{Repo: "acme/app", IssueNumber: n, Body: fmt.Sprint("c", i)}); err != nil {
				t.Fatal(err)
			}
			if _, err := f.CommentOnPullRequest(ctx, alice, &gatewayv1.CommentOnPullRequestRequest{Repo: "acme/app", PullNumber: pr, Body: fmt.Sprint("c", i)}); err != nil {
				t.Fatal(err)
			}
		}
		reviewer := toolserver.Call{Account: "bob", Session: "b"}
		for i := range 35 {
			if _, err := f.SubmitReview(ctx, reviewer, &gatewayv1.SubmitReviewRequest{Repo: "acme/app", PullNumber: pr,
				Verdict: gatewayv1.Verdict_VERDICT_COMMENT, Body: fmt.Sprint("r", i)}); err != nil {
				t.Fatal(err)
			}
		}
		is, err := f.GetIssue(ctx, alice, &gatewayv1.GetIssueRequest{Repo: "acme/app", IssueNumber: n})
		if err != nil {
			t.Fatal(err)
		}
		if len(is.GetComments()) != 30 || is.GetCommentsTotal() != 45 || is.GetComments()[29].GetBody() != "c29" {
			t.Errorf("issue: %d comments (total %d); want the first 30 of 45", len(is.GetComments()), is.GetCommentsTotal())
		}
		got, err := f.GetPullRequest(ctx, alice, &gatewayv1.GetPullRequestRequest{Repo: "acme/app", PullNumber: pr})
		if err != nil {
			t.Fatal(err)
		}
		if len(got.GetComments()) != 30 || got.GetCommentsTotal() != 45 || len(got.GetReviews()) != 30 || got.GetReviewsTotal() != 35 {
			t.Errorf("pull: %d comments (total %d), %d reviews (total %d); want 30 of 45, 30 of 35",
				len(got.GetComments()), got.GetCommentsTotal(), len(got.GetReviews()), got.GetReviewsTotal())
		}
	})
}
