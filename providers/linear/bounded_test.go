package linear

import (
	"context"
	"fmt"
	"strings"
	"testing"

	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/providers/kit"
	"github.com/forgetools/forgetools/providers/linear/lineartest"
	"github.com/forgetools/forgetools/toolserver"
)

// A read asks Linear for the comments the renderer shows, and (Linear
// giving no count) counts the rest by id: 300 comments read as 30 and a
// total of 300, in one request for the issue and two id pages.
func TestGetIssueFetchesTheShownComments(t *testing.T) {
	srv := lineartest.New(lineartest.Options{})
	t.Cleanup(srv.Close)
	srv.AddKey(testKey, lineartest.User{Name: "bot", DisplayName: "bot"})
	srv.AddTeam("ENG", "Engineering")
	id := srv.AddIssue("ENG", lineartest.Issue{Title: "Busy"})
	p, err := New(Options{Options: kit.Options{APIURL: srv.APIURL(), Token: testKey, UserAgent: testAgent}})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	call := toolserver.Call{Account: "a", Session: "s"}
	var n uint64
	fmt.Sscanf(strings.TrimPrefix(id, "ENG-"), "%d", &n)
	for i := range 300 {
		if _, err := p.CommentOnIssue(ctx, call, &gatewayv1.CommentOnIssueRequest{Repo: "ENG", IssueNumber: n, Body: fmt.Sprint("c", i)}); err != nil {
			t.Fatal(err)
		}
	}
	before := len(srv.Requests())
	got, err := p.GetIssue(ctx, call, &gatewayv1.GetIssueRequest{Repo: "ENG", IssueNumber: n})
	if err != nil {
		t.Fatal(err)
	}
	if len(got.GetComments()) != 30 || got.GetCommentsTotal() != 300 {
		t.Errorf("%d comments (total %d); want 30 of 300", len(got.GetComments()), got.GetCommentsTotal())
	}
	if sent := len(srv.Requests()) - before; sent != 3 {
		t.Errorf("%d requests; want the issue and two id pages", sent)
	}
}
