package linear

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/providers/kit"
	"github.com/forgetools/forgetools/providers/linear/lineartest"
	"github.com/forgetools/forgetools/toolserver"
)

// Issue search is one issues query held to the listed teams by the
// provider's team filter, the term compared as a variable
// (containsIgnoreCase on title or description): a term that looks like
// another team's filter finds nothing there. It pages by Linear's cursor;
// a cursor not of that shape is refused; pull requests and code are not
// Linear's.
func TestSearchIssues(t *testing.T) {
	srv := lineartest.New(lineartest.Options{})
	t.Cleanup(srv.Close)
	srv.AddKey(testKey, lineartest.User{Name: "bot", DisplayName: "bot"})
	srv.AddTeam("ENG", "Engineering")
	srv.AddTeam("OPS", "Operations")
	srv.AddTeam("SEC", "Security")
	srv.AddIssue("ENG", lineartest.Issue{Title: "Crash on save", Description: "Steps.", State: "started"})
	srv.AddIssue("OPS", lineartest.Issue{Title: "Disk full", Description: "after the crash"})
	srv.AddIssue("ENG", lineartest.Issue{Title: "Old crash", State: "completed"})
	srv.AddIssue("SEC", lineartest.Issue{Title: "Crash leaks keys"})
	for i := range 60 {
		srv.AddIssue("ENG", lineartest.Issue{Title: fmt.Sprintf("flaky %d", i)})
	}
	p, err := New(Options{Options: kit.Options{APIURL: srv.APIURL(), Token: testKey, UserAgent: testAgent}})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	// The gateway lists scope entries lower-cased.
	scoped := toolserver.Call{Account: "a", Session: "s", Repos: []string{"eng", "ops"}}
	search := func(c toolserver.Call, req *gatewayv1.SearchIssuesRequest) (got []string, next string) {
		t.Helper()
		out, err := p.SearchIssues(ctx, c, req)
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range out.GetHits() {
			got = append(got, h.GetIdentifier()+":"+h.GetRepo()+":"+h.GetState())
		}
		slices.Sort(got)
		return got, out.GetNextCursor()
	}
	got, _ := search(scoped, &gatewayv1.SearchIssuesRequest{Query: "CRASH"})
	if want := []string{"ENG-1:ENG:open", "OPS-1:OPS:open"}; !slices.Equal(got, want) {
		t.Errorf("open: %q, want %q", got, want)
	}
	got, _ = search(scoped, &gatewayv1.SearchIssuesRequest{Query: "crash", State: gatewayv1.IssueStateFilter_ISSUE_STATE_FILTER_CLOSED})
	if want := []string{"ENG-2:ENG:closed"}; !slices.Equal(got, want) {
		t.Errorf("closed: %q, want %q", got, want)
	}
	if got, _ := search(scoped, &gatewayv1.SearchIssuesRequest{Query: `crash"}, team: {key: {eq: "SEC"`}); len(got) != 0 {
		t.Errorf("a term shaped like a filter found %q", got)
	}
	seen := map[string]bool{}
	req := &gatewayv1.SearchIssuesRequest{Repo: "ENG", Query: "flaky"}
	for range 5 {
		page, next := search(toolserver.Call{}, req)
		for _, k := range page {
			if seen[k] {
				t.Fatalf("%s twice", k)
			}
			seen[k] = true
		}
		if req.Cursor = next; next == "" {
			break
		}
	}
	if len(seen) != 60 {
		t.Errorf("paged %d issues, want 60", len(seen))
	}
	for _, r := range srv.Requests() {
		if strings.Contains(string(r.Body), "SEC") && !strings.Contains(string(r.Body), `team: {key: {eq: \"SEC\"`) {
			t.Errorf("a request named the unlisted team: %s", r.Body)
		}
	}
	_, err = p.SearchIssues(ctx, scoped, &gatewayv1.SearchIssuesRequest{Query: "x", Cursor: "search:0.1"})
	wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT)
	_, err = p.SearchIssues(ctx, scoped, &gatewayv1.SearchIssuesRequest{Query: "x", Kind: gatewayv1.SubscriptionKind_SUBSCRIPTION_KIND_PULL_REQUEST})
	wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT)
	_, err = p.SearchCode(ctx, scoped, &gatewayv1.SearchCodeRequest{Query: "x"})
	wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_UNIMPLEMENTED)
}
