package gitlab_test

import (
	"context"
	"testing"
	"time"

	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
)

// Conditional reads (issue 23, item 3): GitLab gives every API answer a
// weak ETag, so ten identical issue reads cost one full answer per
// request and nine 304s; a comment is read in full at once.
func TestRepeatedIssueReadsAreConditional(t *testing.T) {
	s := fake(t)
	p := provider(t, s, time.Minute)
	ctx := context.Background()
	req := &gatewayv1.GetIssueRequest{Repo: proj, IssueNumber: 1}
	if _, err := p.GetIssue(ctx, noCall, req); err != nil {
		t.Fatal(err)
	}
	perRead := len(s.Requests())
	for range 9 {
		if got, err := p.GetIssue(ctx, noCall, req); err != nil || got.GetTitle() != "Rollout stalls" {
			t.Fatalf("a repeated read: %v, %v", got, err)
		}
	}
	st := s.Statuses()
	t.Logf("ten reads, %d requests each: %v", perRead, st)
	if st[200] != perRead || st[304] != 9*perRead {
		t.Fatalf("ten reads of %d requests each: %v; want %d full and %d not modified", perRead, st, perRead, 9*perRead)
	}
	if _, err := p.CommentOnIssue(ctx, noCall, &gatewayv1.CommentOnIssueRequest{Repo: proj, IssueNumber: 1, Body: "Seen."}); err != nil {
		t.Fatal(err)
	}
	got, err := p.GetIssue(ctx, noCall, req)
	if err != nil || len(got.GetComments()) != 1 || got.GetComments()[0].GetBody() != "Seen." {
		t.Fatalf("after a comment: %v, %v", got.GetComments(), err)
	}
}
