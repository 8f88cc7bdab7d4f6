package github

import (
	"fmt"
	"testing"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/providers/github/githubtest"
)

// Conditional reads (issue 23, item 3): ten identical reads of an
// unchanged pull request cost one full answer of the pull request and
// nine 304s, counted by status at the fake; the 304s do not count against
// the quota; after a change the next read is in full and shows it. The
// aggregates' GraphQL query (a POST, never conditional) is sent with each
// read, against GitHub's separate GraphQL quota, so a read is as fresh as
// the forge: two requests a read, one of them a 304 when nothing changed.
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
	quota, gqlQuota := srv.Quota("forgetools-bot"), srv.GraphQLQuota("forgetools-bot")
	for range 9 {
		if got := read(); len(got.GetComments()) != 5 || got.GetTitle() != first.GetTitle() {
			t.Fatalf("a repeated read answered %d comments, title %q", len(got.GetComments()), got.GetTitle())
		}
	}
	pull := fmt.Sprintf("GET /repos/octocat/Hello-World/pulls/%d", n)
	sent := map[string]int{}
	for _, r := range srv.Requests() {
		sent[r.Method+" "+r.Path]++
	}
	st := srv.Statuses()
	t.Logf("ten reads: %v, answers %v", sent, st)
	if len(sent) != 2 || sent[pull] != 10 || sent[githubtest.GraphQLRoute] != 10 {
		t.Fatalf("ten reads sent %v; want ten of %s and ten GraphQL queries", sent, pull)
	}
	// The pull request: one full answer, nine 304s; the queries: ten 200s.
	if st[304] != 9 || st[200] != 1+10 {
		t.Fatalf("ten reads answered %v; want 1 full answer of the pull request, 9 not modified and 10 GraphQL answers", st)
	}
	if q := srv.Quota("forgetools-bot"); q != quota {
		t.Errorf("the 304s cost %d of the quota", quota-q)
	}
	if q := srv.GraphQLQuota("forgetools-bot"); q != gqlQuota-9 {
		t.Errorf("nine queries cost %d of the GraphQL quota, want 9", gqlQuota-q)
	}
	srv.Comment("octocat/Hello-World", n, "someone", "a new comment")
	if got := read(); len(got.GetComments()) != 6 || got.GetComments()[5].GetBody() != "a new comment" {
		t.Fatalf("after a change the read shows %d comments", len(got.GetComments()))
	}
	if st2 := srv.Statuses(); st2[200] != st[200]+2 {
		t.Fatalf("the read after a change had no full answer of the pull request: %v", st2)
	}
}
