package linear

import (
	"encoding/json"
	"slices"
	"strings"
	"sync"
	"testing"

	"google.golang.org/protobuf/encoding/prototext"
	"google.golang.org/protobuf/proto"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/providers/linear/lineartest"
	"github.com/forgetools/forgetools/toolserver"
)

var (
	linearRef = &forgev1.ForgeRef{Provider: forgev1.ForgeProvider_FORGE_PROVIDER_LINEAR, Host: "linear.app"}
	// The create calls of these tests: the gateway account and the runtime's
	// nonce-prefixed key.
	builder = toolserver.Call{Account: "acct-builder", Session: "s-42", ClientRequestID: "nonce-7f3a:toolu_01"}
)

func equalProto(t *testing.T, got, want proto.Message) {
	t.Helper()
	if !proto.Equal(got, want) {
		t.Errorf("got:\n%s\nwant:\n%s", prototext.Format(got), prototext.Format(want))
	}
}

// wantCode fails the test unless err is a *toolserver.Error with code, and
// returns it.
func wantCode(t *testing.T, err error, code gatewayv1.ErrorCode) *toolserver.Error {
	t.Helper()
	e, ok := toolserver.AsError(err)
	if !ok {
		t.Fatalf("error %v (%T) is not a *toolserver.Error", err, err)
	}
	if gatewayv1.ErrorCode(e.Code) != code { // the enums share numbers (gateway TestErrorCodesMatch)
		t.Fatalf("code = %v, want %v (message %q)", e.Code, code, e.Message)
	}
	return e
}

func TestGetIssue(t *testing.T) {
	f := newFake(t, exchange{request: "issue_eng_123", response: "issue_eng_123.json"})
	got, err := f.provider(t).GetIssue(t.Context(), builder, &gatewayv1.GetIssueRequest{Repo: "eng", IssueNumber: 123})
	if err != nil {
		t.Fatal(err)
	}
	const url = "https://linear.app/acme/issue/ENG-123/crash-when-saving-a-draft-with-an-empty-title"
	equalProto(t, got, &forgev1.Issue{
		Forge:      linearRef,
		Repo:       "ENG",
		Number:     123,
		Identifier: "ENG-123",
		State:      "open", // workflow state type "started"
		Url:        url,
		Labels:     []string{"Bug", "Editor"},
		Author:     "ada",
		Title:      "Crash when saving a draft with an empty title",
		Body:       "Steps:\n1. Open a new draft\n2. Clear the title\n3. Press save\n\nThe editor crashes with `TypeError: title is undefined`.",
		// Oldest first, whatever order Linear paged them in; an empty
		// displayName falls back to the name; an integration has no user.
		Comments: []*forgev1.Comment{
			{Author: "Alan Turing", Url: url + "#comment-1b9e07f3", Body: "I can reproduce this on 2.4.1."},
			{Author: "", Url: url + "#comment-5c3a9d10", Body: "Linked to GitHub PR acme/editor#88"},
			{Author: "grace", Url: url + "#comment-8d2c41a7", Body: "Fixed on main, needs a release."},
		},
	})
}

func TestGetIssueNotFound(t *testing.T) {
	f := newFake(t, exchange{request: "issue_eng_404", response: "error_entity_not_found.json"})
	_, err := f.provider(t).GetIssue(t.Context(), builder, &gatewayv1.GetIssueRequest{Repo: "ENG", IssueNumber: 404})
	e := wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_NOT_FOUND)
	contains(t, "message", e.Message, "get issue ENG-404", "Entity not found: Issue", "Could not find referenced Issue.")
}

// Linear keeps an old identifier working after the issue moves to another
// team; the gateway scoped the call by the team the agent named, so the
// answer must not come from elsewhere.
func TestGetIssueMovedToAnotherTeam(t *testing.T) {
	f := newFake(t, exchange{request: "issue_eng_7", response: "issue_moved.json"})
	_, err := f.provider(t).GetIssue(t.Context(), builder, &gatewayv1.GetIssueRequest{Repo: "ENG", IssueNumber: 7})
	e := wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_NOT_FOUND)
	contains(t, "message", e.Message, "ENG-7 is not in team ENG")
	if strings.Contains(e.Message, "OPS") {
		t.Errorf("message %q names the other team", e.Message)
	}
}

func TestRepoMustBeATeamKey(t *testing.T) {
	p := newFake(t).provider(t) // no request may reach Linear
	ctx := t.Context()
	for name, call := range map[string]func(repo string) error{
		"get": func(r string) error {
			_, err := p.GetIssue(ctx, builder, &gatewayv1.GetIssueRequest{Repo: r, IssueNumber: 1})
			return err
		},
		"list": func(r string) error {
			_, err := p.ListIssues(ctx, builder, &gatewayv1.ListIssuesRequest{Repo: r})
			return err
		},
		"create": func(r string) error {
			_, err := p.CreateIssue(ctx, builder, &gatewayv1.CreateIssueRequest{Repo: r, Title: "t"})
			return err
		},
		"comment": func(r string) error {
			_, err := p.CommentOnIssue(ctx, builder, &gatewayv1.CommentOnIssueRequest{Repo: r, IssueNumber: 1, Body: "b"})
			return err
		},
	} {
		for _, repo := range []string{"acme/widgets", "ENG-1", "", "E NG"} {
			e := wantCode(t, call(repo), gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT)
			contains(t, name+" message", e.Message, "on Linear, repo is the team key")
		}
	}
}

func TestListIssuesOpenByDefault(t *testing.T) {
	f := newFake(t,
		exchange{request: "list_open_default", response: "issues_open.json"},
	)
	got, err := f.provider(t).ListIssues(t.Context(), builder, &gatewayv1.ListIssuesRequest{Repo: "ENG"})
	if err != nil {
		t.Fatal(err)
	}
	equalProto(t, got, &forgev1.IssueList{Issues: []*forgev1.Issue{
		{
			Forge: linearRef, Repo: "ENG", Number: 131, Identifier: "ENG-131", State: "open",
			Url:    "https://linear.app/acme/issue/ENG-131/autosave-drops-the-last-keystroke",
			Labels: []string{"Bug", "Backend"}, Author: "grace",
			Title: "Autosave drops the last keystroke", Body: "Seen twice today.",
		},
		{
			Forge: linearRef, Repo: "ENG", Number: 127, Identifier: "ENG-127", State: "open",
			Url:    "https://linear.app/acme/issue/ENG-127/export-fails-for-files-over-2-gb",
			Labels: []string{"Backend", "Bug", "Export"},
			Title:  "Export fails for files over 2 GB",
		},
	}})
}

func TestListIssuesWithLabelsAndLimit(t *testing.T) {
	f := newFake(t,
		exchange{request: "list_open_bug_backend", response: "issues_open.json"},
	)
	limit := uint32(2)
	got, err := f.provider(t).ListIssues(t.Context(), builder, &gatewayv1.ListIssuesRequest{
		Repo: "ENG", State: gatewayv1.IssueStateFilter_ISSUE_STATE_FILTER_OPEN,
		Labels: []string{"Bug", "Backend", "Bug"}, Limit: &limit,
	})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(got.GetIssues()); n != 2 {
		t.Fatalf("got %d issues, want 2", n)
	}
}

func TestListIssuesClosed(t *testing.T) {
	f := newFake(t,
		exchange{request: "list_closed", response: "issues_closed.json"},
	)
	got, err := f.provider(t).ListIssues(t.Context(), builder, &gatewayv1.ListIssuesRequest{
		Repo: "ENG", State: gatewayv1.IssueStateFilter_ISSUE_STATE_FILTER_CLOSED,
	})
	if err != nil {
		t.Fatal(err)
	}
	var states, ids []string
	for _, is := range got.GetIssues() {
		states = append(states, is.GetState())
		ids = append(ids, is.GetIdentifier())
	}
	// completed and canceled both read as closed.
	if want := []string{"closed", "closed"}; !slices.Equal(states, want) {
		t.Errorf("states = %v, want %v", states, want)
	}
	if want := []string{"ENG-119", "ENG-101"}; !slices.Equal(ids, want) {
		t.Errorf("issues = %v, want %v", ids, want)
	}
}

// A list is one query: the team is named by key in its filter. An empty
// first page then looks the team up, to tell an empty team from none.
func TestListIssuesAllUpToTheMaximum(t *testing.T) {
	f := newFake(t,
		exchange{request: "list_all_100", response: "issues_empty.json"},
		exchange{request: "team_eng", response: "team_eng.json"},
	)
	limit := uint32(100)
	got, err := f.provider(t).ListIssues(t.Context(), builder, &gatewayv1.ListIssuesRequest{
		Repo: "ENG", State: gatewayv1.IssueStateFilter_ISSUE_STATE_FILTER_ALL, Limit: &limit,
	})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(got.GetIssues()); n != 0 {
		t.Errorf("got %d issues, want none", n)
	}
}

// Were Linear to ignore a filter or the order, the tool's promise still
// holds: every label, newest first, at most limit.
func TestListIssuesGuardsTheContract(t *testing.T) {
	f := newFake(t,
		exchange{request: "list_closed_bug_1", body: reversed(t, "issues_closed.json")},
	)
	limit := uint32(1)
	got, err := f.provider(t).ListIssues(t.Context(), builder, &gatewayv1.ListIssuesRequest{
		Repo: "ENG", State: gatewayv1.IssueStateFilter_ISSUE_STATE_FILTER_CLOSED, Labels: []string{"Bug"}, Limit: &limit,
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(got.GetIssues()) != 1 || got.GetIssues()[0].GetIdentifier() != "ENG-101" {
		t.Errorf("got %v, want only ENG-101 (the one closed issue labelled Bug)", got.GetIssues())
	}
}

func TestUnknownTeamIsNotFoundAndNotCached(t *testing.T) {
	f := newFake(t,
		exchange{request: "list_ops", response: "issues_empty.json"},
		exchange{request: "team_ops", response: "team_none.json"},
		exchange{request: "list_ops", response: "issues_empty.json"},
		exchange{request: "team_ops", response: "team_none.json"},
	)
	p := f.provider(t)
	for range 2 {
		_, err := p.ListIssues(t.Context(), builder, &gatewayv1.ListIssuesRequest{Repo: "OPS"})
		e := wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_NOT_FOUND)
		contains(t, "message", e.Message, `no team with key "OPS"`)
	}
}

// A list needs no team lookup; a create looks the team up once, and
// every later call that needs it reuses it.
func TestTeamLookupIsCached(t *testing.T) {
	f := newFake(t,
		exchange{request: "list_open_default", response: "issues_open.json"},
		exchange{request: "team_eng", response: "team_eng.json"},
		exchange{request: "create_plain", response: "issue_create_plain.json"},
		exchange{request: "create_plain", response: "issue_create_plain.json"},
		exchange{request: "list_open_default", response: "issues_open.json"},
	)
	p := f.provider(t)
	ctx := t.Context()
	if _, err := p.ListIssues(ctx, builder, &gatewayv1.ListIssuesRequest{Repo: "ENG"}); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if _, err := p.CreateIssue(ctx, toolserver.Call{Account: "acct-builder"}, &gatewayv1.CreateIssueRequest{Repo: "eng", Title: "Title only"}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := p.ListIssues(ctx, builder, &gatewayv1.ListIssuesRequest{Repo: "ENG"}); err != nil {
		t.Fatal(err)
	}
}

// Concurrent first uses of a team share one lookup.
func TestTeamLookupIsSharedByConcurrentCalls(t *testing.T) {
	const n = 8
	script := []exchange{{request: "team_eng", response: "team_eng.json"}}
	for range n {
		script = append(script, exchange{request: "create_plain", response: "issue_create_plain.json"})
	}
	p := newFake(t, script...).provider(t)
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() {
			if _, err := p.CreateIssue(t.Context(), toolserver.Call{Account: "acct-builder"}, &gatewayv1.CreateIssueRequest{Repo: "eng", Title: "Title only"}); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
}

// reversed is a fixture whose issues come in the opposite order.
func reversed(t *testing.T, name string) string {
	t.Helper()
	var a struct {
		Data issuesAnswer `json:"data"`
	}
	if err := json.Unmarshal([]byte(lineartest.Fixture(name)), &a); err != nil {
		t.Fatal(err)
	}
	slices.Reverse(a.Data.Issues.Nodes)
	b, err := json.Marshal(a)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
