//go:build live

package linear

// The live suite runs every arm against real Linear. It is opt-in: it needs
// a credential and a scratch team, and it files (then trashes) real issues.
//
//	FORGETOOLS_LIVE_LINEAR_API_KEY=lin_api_... \
//	FORGETOOLS_LIVE_LINEAR_TEAM=SCRATCH \
//	go test -tags live -run Live -v ./providers/linear/
//
// Optional: FORGETOOLS_LIVE_LINEAR_AUTH=oauth (the key is an OAuth access
// token), FORGETOOLS_LIVE_LINEAR_LABEL (a label of the team, to exercise
// label resolution), FORGETOOLS_LIVE_LINEAR_API_URL (another endpoint).

import (
	"os"
	"strings"
	"testing"

	"github.com/google/uuid"

	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/providers/kit"
	"github.com/forgetools/forgetools/toolserver"
)

const mutationIssueDelete = `mutation IssueDelete($id: String!) {
  issueDelete(id: $id) { success }
}`

func liveProvider(t *testing.T) (*Provider, string) {
	t.Helper()
	key, team := os.Getenv("FORGETOOLS_LIVE_LINEAR_API_KEY"), os.Getenv("FORGETOOLS_LIVE_LINEAR_TEAM")
	if key == "" || team == "" {
		t.Skip("live Linear suite not configured: set FORGETOOLS_LIVE_LINEAR_API_KEY and FORGETOOLS_LIVE_LINEAR_TEAM (a scratch team key) to run it")
	}
	p, err := New(Options{Auth: AuthKind(os.Getenv("FORGETOOLS_LIVE_LINEAR_AUTH")), Options: kit.Options{APIURL: os.Getenv("FORGETOOLS_LIVE_LINEAR_API_URL"), Token: key}})
	if err != nil {
		t.Fatal(err)
	}
	return p, strings.ToUpper(team)
}

func TestLiveLinear(t *testing.T) {
	p, team := liveProvider(t)
	ctx := t.Context()
	run := uuid.NewString()
	call := toolserver.Call{Account: "forgetools-live", Session: "live", ClientRequestID: "live:" + run}
	var labels []string
	if l := os.Getenv("FORGETOOLS_LIVE_LINEAR_LABEL"); l != "" {
		labels = []string{l}
	}
	create := &gatewayv1.CreateIssueRequest{
		Repo:   team,
		Title:  "forgetools live test " + run[:8],
		Body:   "Filed by the forgetools live suite; it trashes this issue when it ends.",
		Labels: labels,
	}

	created, err := p.CreateIssue(ctx, call, create)
	if err != nil {
		t.Fatalf("create: %v", err)
	}
	t.Cleanup(func() {
		var out struct{}
		if err := p.do(t.Context(), "trash live issue", mutationIssueDelete, idVars{ID: IssueID(call.Account, call.ClientRequestID)}, &out); err != nil {
			t.Errorf("trash %s: %v", created.GetIdentifier(), err)
		}
	})
	if created.GetRepo() != team || created.GetIdentifier() != identifier(team, created.GetNumber()) ||
		created.GetUrl() == "" || created.GetState() != "open" || created.GetTitle() != create.Title {
		t.Errorf("created %v", created)
	}
	if len(labels) > 0 && (len(created.GetLabels()) != 1 || created.GetLabels()[0] != labels[0]) {
		t.Errorf("created labels %v, want %v", created.GetLabels(), labels)
	}

	// The replay reaches Linear with the same client-chosen id: Linear must
	// refuse a second issue and the provider must return the first.
	again, err := p.CreateIssue(ctx, call, create)
	if err != nil {
		t.Fatalf("replayed create: %v", err)
	}
	if again.GetNumber() != created.GetNumber() {
		t.Fatalf("replayed create filed %s beside %s", again.GetIdentifier(), created.GetIdentifier())
	}

	got, err := p.GetIssue(ctx, call, &gatewayv1.GetIssueRequest{Repo: team, IssueNumber: created.GetNumber()})
	if err != nil {
		t.Fatalf("get: %v", err)
	}
	if got.GetTitle() != create.Title || got.GetBody() != create.Body {
		t.Errorf("got %v", got)
	}

	limit := uint32(5)
	list, err := p.ListIssues(ctx, call, &gatewayv1.ListIssuesRequest{Repo: team, Labels: labels, Limit: &limit})
	if err != nil {
		t.Fatalf("list: %v", err)
	}
	if len(list.GetIssues()) == 0 || list.GetIssues()[0].GetNumber() != created.GetNumber() {
		t.Errorf("newest open issue is not the one just filed: %v", list.GetIssues())
	}

	commentCall := toolserver.Call{Account: call.Account, ClientRequestID: "live-comment:" + run}
	comment := &gatewayv1.CommentOnIssueRequest{Repo: team, IssueNumber: created.GetNumber(), Body: "Live suite comment."}
	first, err := p.CommentOnIssue(ctx, commentCall, comment)
	if err != nil {
		t.Fatalf("comment: %v", err)
	}
	second, err := p.CommentOnIssue(ctx, commentCall, comment)
	if err != nil || second.GetCommentId() != first.GetCommentId() {
		t.Errorf("replayed comment: %v, %v (first %v)", second, err, first)
	}
	if _, err := p.CommentOnIssue(ctx, toolserver.Call{Account: call.Account}, comment); err != nil {
		t.Errorf("comment without a key: %v", err)
	}

	_, err = p.GetIssue(ctx, call, &gatewayv1.GetIssueRequest{Repo: team, IssueNumber: 999_999_999})
	expectCode(t, "missing issue", err, gatewayv1.ErrorCode_ERROR_CODE_NOT_FOUND)
	_, err = p.CreateIssue(ctx, toolserver.Call{Account: call.Account}, &gatewayv1.CreateIssueRequest{
		Repo: team, Title: "never filed", Labels: []string{"forgetools-no-such-label-" + run[:8]},
	})
	expectCode(t, "unknown label", err, gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT)
	_, err = p.ListIssues(ctx, call, &gatewayv1.ListIssuesRequest{Repo: "ZZNOTEAM9"})
	expectCode(t, "unknown team", err, gatewayv1.ErrorCode_ERROR_CODE_NOT_FOUND)

	bad, err := New(Options{Options: kit.Options{APIURL: os.Getenv("FORGETOOLS_LIVE_LINEAR_API_URL"), Token: "lin_api_forgetoolsLiveSuiteInvalidKey0000"}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = bad.GetIssue(ctx, call, &gatewayv1.GetIssueRequest{Repo: team, IssueNumber: created.GetNumber()})
	expectCode(t, "invalid key", err, gatewayv1.ErrorCode_ERROR_CODE_UNAUTHENTICATED)
}

func expectCode(t *testing.T, what string, err error, code gatewayv1.ErrorCode) {
	t.Helper()
	e, ok := toolserver.AsError(err)
	if !ok || e.Code != code {
		t.Errorf("%s: got %v, want %v", what, err, code)
	}
}
