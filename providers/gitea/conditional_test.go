package gitea_test

import (
	"context"
	"testing"

	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
)

// Conditional reads (issue 23, item 3) on Gitea: its API's JSON answers
// carry no ETag, so repeated issue reads are full answers every time and
// nothing is stored for them; a comment shows at once.
func TestRepeatedIssueReadsOnGitea(t *testing.T) {
	s := fake(t, false)
	p, err := newProvider(s)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	req := &gatewayv1.GetIssueRequest{Repo: repo, IssueNumber: 1}
	for range 10 {
		if got, err := p.GetIssue(ctx, noCall, req); err != nil || got.GetTitle() != "Jams" {
			t.Fatalf("a read: %v, %v", got, err)
		}
	}
	st := s.Statuses()
	t.Logf("ten reads: %v", st)
	if st[304] != 0 || st[200] != len(s.Requests()) {
		t.Fatalf("ten reads: %v of %d requests; Gitea's API answers carry no validator", st, len(s.Requests()))
	}
	for _, r := range s.Requests() {
		if r.Header.Get("If-None-Match") != "" {
			t.Fatalf("a read sent a validator Gitea never gave: %v", r.Header)
		}
	}
	if _, err := p.CommentOnIssue(ctx, noCall, &gatewayv1.CommentOnIssueRequest{Repo: repo, IssueNumber: 1, Body: "Seen."}); err != nil {
		t.Fatal(err)
	}
	got, err := p.GetIssue(ctx, noCall, req)
	if err != nil || len(got.GetComments()) != 1 || got.GetComments()[0].GetBody() != "Seen." {
		t.Fatalf("after a comment: %v, %v", got.GetComments(), err)
	}
}
