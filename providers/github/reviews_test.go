package github

import (
	"testing"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
)

func withReviewer(o *Options) { o.ReviewerToken = reviewerToken }

// The reviewer credential posts the review, and only the review: reads and
// other writes on the same provider keep the author credential.
func TestSubmitReviewUsesReviewerCredentialOnlyForReviews(t *testing.T) {
	body := "<!-- forgetools: agent=a1 owner=o1 session=s1 -->\nNeeds a test."
	f := newFake(t,
		exchange{method: "GET", path: repoPath + "/issues/1347", accept: acceptReactions, reply: fixture(t, "issue.json")},
		exchange{method: "GET", path: repoPath + "/issues/1347/comments", query: q("per_page", "30"), accept: acceptReactions, reply: "[]"},
		exchange{
			method: "POST", path: repoPath + "/pulls/1350/reviews", token: reviewerToken, accept: acceptMultiLine,
			body: `{"body":"<!-- forgetools: agent=a1 owner=o1 session=s1 -->\nNeeds a test.","event":"REQUEST_CHANGES","comments":[` +
				`{"path":"src/parse.go","body":"Handle empty input.","side":"RIGHT","line":42},` +
				`{"path":"src/old.go","body":"Why was this removed?","side":"LEFT","line":7}]}`,
			reply: fixture(t, "review_created.json"),
		},
		exchange{method: "POST", path: repoPath + "/issues/1350/comments", status: 201, body: `{"body":"thanks"}`, reply: fixture(t, "pull_comment_created.json")},
	)
	p := f.provider(t, withReviewer)
	if _, err := p.GetIssue(ctx, noCall, &gatewayv1.GetIssueRequest{Repo: "octocat/Hello-World", IssueNumber: 1347}); err != nil {
		t.Fatal(err)
	}
	got, err := p.SubmitReview(ctx, noCall, &gatewayv1.SubmitReviewRequest{
		Repo: "octocat/Hello-World", PullNumber: 1350, Verdict: gatewayv1.Verdict_VERDICT_REQUEST_CHANGES, Body: body,
		Comments: []*gatewayv1.ReviewCommentInput{
			{Path: "src/parse.go", Line: 42, Body: "Handle empty input."}, // side omitted = RIGHT
			{Path: "src/old.go", Line: 7, Side: gatewayv1.Side_SIDE_LEFT, Body: "Why was this removed?"},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	wantProto(t, got, &forgev1.ReviewRef{
		Forge: githubCo, Repo: "octocat/Hello-World", Number: 1350, ReviewId: "84",
		Verdict: "request_changes", Url: "https://github.com/octocat/Hello-World/pull/1350#pullrequestreview-84",
	})
	if _, err := p.CommentOnPullRequest(ctx, noCall, &gatewayv1.CommentOnPullRequestRequest{Repo: "octocat/Hello-World", PullNumber: 1350, Body: "thanks"}); err != nil {
		t.Fatal(err)
	}
}

func TestSubmitReviewVerdicts(t *testing.T) {
	for _, tc := range []struct {
		verdict     gatewayv1.Verdict
		body, event string
		state, want string
	}{
		{gatewayv1.Verdict_VERDICT_APPROVE, "", "APPROVE", "APPROVED", "approve"},
		{gatewayv1.Verdict_VERDICT_REQUEST_CHANGES, "Add a test.", "REQUEST_CHANGES", "CHANGES_REQUESTED", "request_changes"},
		{gatewayv1.Verdict_VERDICT_COMMENT, "Looks fine.", "COMMENT", "COMMENTED", "comment"},
	} {
		t.Run(tc.event, func(t *testing.T) {
			want := `{"event":"` + tc.event + `"}`
			if tc.body != "" {
				want = `{"event":"` + tc.event + `","body":"` + tc.body + `"}`
			}
			// Without a reviewer credential the author's is used.
			f := newFake(t, exchange{
				method: "POST", path: repoPath + "/pulls/1350/reviews", body: want,
				reply: fixtureWith(t, "review_created.json", "state", tc.state),
			})
			got, err := f.provider(t).SubmitReview(ctx, noCall, &gatewayv1.SubmitReviewRequest{
				Repo: "octocat/Hello-World", PullNumber: 1350, Verdict: tc.verdict, Body: tc.body,
			})
			if err != nil {
				t.Fatal(err)
			}
			if got.GetVerdict() != tc.want {
				t.Errorf("verdict = %q, want %q", got.GetVerdict(), tc.want)
			}
		})
	}
}

func TestSubmitReviewOwnPullRequest(t *testing.T) {
	f := newFake(t, exchange{
		method: "POST", path: repoPath + "/pulls/1350/reviews", body: `{"event":"APPROVE"}`,
		status: 422, reply: fixture(t, "error_422_own_pull.json"),
	})
	_, err := f.provider(t).SubmitReview(ctx, noCall, &gatewayv1.SubmitReviewRequest{
		Repo: "octocat/Hello-World", PullNumber: 1350, Verdict: gatewayv1.Verdict_VERDICT_APPROVE,
	})
	wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT, "review pull request octocat/Hello-World#1350", "Unprocessable Entity: Can not approve your own pull request")
}

func TestSubmitReviewLeftPendingIsAnError(t *testing.T) {
	f := newFake(t, exchange{
		method: "POST", path: repoPath + "/pulls/1350/reviews", body: `{"event":"COMMENT","body":"x"}`,
		reply: fixtureWith(t, "review_created.json", "state", "PENDING"),
	})
	_, err := f.provider(t).SubmitReview(ctx, noCall, &gatewayv1.SubmitReviewRequest{
		Repo: "octocat/Hello-World", PullNumber: 1350, Verdict: gatewayv1.Verdict_VERDICT_COMMENT, Body: "x",
	})
	wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_INTERNAL, "pending")
}

func TestSubmitReviewRefusesUnspecifiedVerdict(t *testing.T) {
	f := newFake(t)
	_, err := f.provider(t).SubmitReview(ctx, noCall, &gatewayv1.SubmitReviewRequest{Repo: "octocat/Hello-World", PullNumber: 1350, Body: "x"})
	wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT, "verdict")
}
