package gitlab_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
)

// A read fetches one page of notes and the forge's count, not every page
// (issue 19, item 2): 300 comments cost one notes request, and the result
// carries the 30 the renderer shows and says there are 300.
func TestReadsFetchOnePageOfNotes(t *testing.T) {
	s := fake(t)
	p := provider(t, s, 10*time.Second)
	ctx := context.Background()
	for i := range 300 {
		if _, err := p.CommentOnIssue(ctx, noCall, &gatewayv1.CommentOnIssueRequest{Repo: proj, IssueNumber: 1, Body: fmt.Sprint("c", i)}); err != nil {
			t.Fatal(err)
		}
		if _, err := p.CommentOnPullRequest(ctx, noCall, &gatewayv1.CommentOnPullRequestRequest{Repo: proj, PullNumber: 1, Body: fmt.Sprint("m", i)}); err != nil {
			t.Fatal(err)
		}
	}
	notesReads := func() int {
		n := 0
		for _, r := range s.Requests() {
			if r.Method == "GET" && strings.HasSuffix(r.Path, "/notes") {
				n++
			}
		}
		return n
	}
	before := notesReads()
	i, err := p.GetIssue(ctx, noCall, &gatewayv1.GetIssueRequest{Repo: proj, IssueNumber: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(i.GetComments()) != 30 || i.GetCommentsTotal() != 300 || i.GetComments()[0].GetBody() != "c0" {
		t.Errorf("issue: %d comments (total %d); want the first 30 of 300", len(i.GetComments()), i.GetCommentsTotal())
	}
	mr, err := p.GetPullRequest(ctx, noCall, &gatewayv1.GetPullRequestRequest{Repo: proj, PullNumber: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(mr.GetComments()) != 30 || mr.GetCommentsTotal() != 300 {
		t.Errorf("merge request: %d comments (total %d); want the first 30 of 300", len(mr.GetComments()), mr.GetCommentsTotal())
	}
	if got := notesReads() - before; got != 2 {
		t.Errorf("%d requests for notes; want one per read", got)
	}
}
