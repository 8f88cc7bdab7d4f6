package github

import (
	"fmt"
	"testing"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/providers/github/githubtest"
)

// Conditional reads (issue 23, item 3): ten identical reads of an
// unchanged pull request cost one full answer per request the read sends
// and nine 304s per request, counted by status at the fake; the 304s do
// not count against the quota; after a change the next read is in full
// and shows it.
func TestRepeatedPullRequestReadsAreConditional(t *testing.T) {
	srv, p := stateful(t)
	n := srv.AddPull("octocat/Hello-World", githubtest.Pull{Title: "Busy", Head: "feature"})
	for i := range 5 {
		srv.Comment("octocat/Hello-World", n, "someone", fmt.Sprint("comment ", i))
	}
	req := &gatewayv1.GetPullRequestRequest{Repo: "octocat/Hello-World", PullNumber: uint64(n)}
	read := func() *forgev1.PullRequest {
		t.Helper()
		got, err := p.GetPullRequest(ctx, noCall, req)
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	first := read()
	perRead := len(srv.Requests())
	quota := srv.Quota("forgetools-bot")
	for range 9 {
		if got := read(); len(got.GetComments()) != 5 || got.GetTitle() != first.GetTitle() {
			t.Fatalf("a repeated read answered %d comments, title %q", len(got.GetComments()), got.GetTitle())
		}
	}
	st := srv.Statuses()
	t.Logf("ten reads, %d requests each: %v", perRead, st)
	if st[200] != perRead || st[304] != 9*perRead || len(srv.Requests()) != 10*perRead {
		t.Fatalf("ten reads of %d requests each: %v; want %d full and %d not modified", perRead, st, perRead, 9*perRead)
	}
	if q := srv.Quota("forgetools-bot"); q != quota {
		t.Errorf("the 304s cost %d of the quota", quota-q)
	}
	srv.Comment("octocat/Hello-World", n, "someone", "a new comment")
	if got := read(); len(got.GetComments()) != 6 || got.GetComments()[5].GetBody() != "a new comment" {
		t.Fatalf("after a change the read shows %d comments", len(got.GetComments()))
	}
	if st2 := srv.Statuses(); st2[200] == st[200] {
		t.Fatalf("the read after a change had no full answer: %v", st2)
	}
}
