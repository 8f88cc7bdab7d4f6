package gitea_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
)

// Reads fetch the first page of each aggregate at the size the renderer
// shows, with Gitea's X-Total-Count, not every page (issue 19, item 2).
func TestReadsFetchOnlyTheShownPage(t *testing.T) {
	for _, forgejo := range []bool{false, true} {
		s := fake(t, forgejo)
		p := provider(t, s, forgejo, 10*time.Second)
		ctx := context.Background()
		pulls, err := p.ListPullRequests(ctx, noCall, &gatewayv1.ListPullRequestsRequest{Repo: repo})
		if err != nil || len(pulls.GetPullRequests()) != 1 {
			t.Fatalf("pulls: %v, %v", pulls, err)
		}
		pull := pulls.GetPullRequests()[0].GetNumber()
		for i := range 120 {
			if _, err := p.CommentOnIssue(ctx, noCall, &gatewayv1.CommentOnIssueRequest{Repo: repo, IssueNumber: 1, Body: fmt.Sprint("c", i)}); err != nil {
				t.Fatal(err)
			}
			if _, err := p.CommentOnPullRequest(ctx, noCall, &gatewayv1.CommentOnPullRequestRequest{Repo: repo, PullNumber: pull, Body: fmt.Sprint("m", i)}); err != nil {
				t.Fatal(err)
			}
		}
		for i := range 45 {
			if _, err := p.SubmitReview(ctx, noCall, &gatewayv1.SubmitReviewRequest{Repo: repo, PullNumber: pull, Verdict: gatewayv1.Verdict_VERDICT_COMMENT, Body: fmt.Sprint("r", i)}); err != nil {
				t.Fatal(err)
			}
		}
		reads := func() (comments, reviews int) {
			for _, r := range s.Requests() {
				switch {
				case r.Method == "GET" && strings.HasSuffix(r.Path, "/comments"):
					comments++
				case r.Method == "GET" && strings.HasSuffix(r.Path, "/reviews"):
					reviews++
				}
			}
			return comments, reviews
		}
		c0, r0 := reads()
		i, err := p.GetIssue(ctx, noCall, &gatewayv1.GetIssueRequest{Repo: repo, IssueNumber: 1})
		if err != nil {
			t.Fatal(err)
		}
		if len(i.GetComments()) != 30 || i.GetCommentsTotal() != 120 {
			t.Errorf("forgejo %v: issue: %d comments (total %d); want 30 of 120", forgejo, len(i.GetComments()), i.GetCommentsTotal())
		}
		pr, err := p.GetPullRequest(ctx, noCall, &gatewayv1.GetPullRequestRequest{Repo: repo, PullNumber: pull})
		if err != nil {
			t.Fatal(err)
		}
		if len(pr.GetComments()) != 30 || pr.GetCommentsTotal() != 120 || len(pr.GetReviews()) != 30 || pr.GetReviewsTotal() != 45 {
			t.Errorf("forgejo %v: pull: %d comments (total %d), %d reviews (total %d); want 30 of 120 and 30 of 45", forgejo,
				len(pr.GetComments()), pr.GetCommentsTotal(), len(pr.GetReviews()), pr.GetReviewsTotal())
		}
		if c, r := reads(); c-c0 != 2 || r-r0 != 1 {
			t.Errorf("forgejo %v: %d comment and %d review list requests; want 2 and 1", forgejo, c-c0, r-r0)
		}
	}
}
