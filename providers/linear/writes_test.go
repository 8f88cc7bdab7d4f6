package linear

import (
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/toolserver"
)

// The write arms: creates and comments, their client-chosen ids, and what
// happens when a replay reaches Linear.

func TestCreateIssue(t *testing.T) {
	f := newFake(t,
		exchange{request: "team_eng", response: "team_eng.json"},
		exchange{request: "labels_bug_backend", response: "labels_bug_backend.json"},
		exchange{request: "create_full", response: "issue_create.json"},
	)
	body := "<!-- forgetools: agent=builder owner=ada session=s-42 -->\nThe upload test times out about one run in ten."
	got, err := f.provider(t).CreateIssue(t.Context(), builder, &gatewayv1.CreateIssueRequest{
		Repo: "ENG", Title: "Flaky upload test on CI", Body: body, Labels: []string{"Bug", "Backend", "Bug"},
	})
	if err != nil {
		t.Fatal(err)
	}
	equalProto(t, got, &forgev1.Issue{
		Forge: linearRef, Repo: "ENG", Number: 132, Identifier: "ENG-132", State: "open",
		Url:    "https://linear.app/acme/issue/ENG-132/flaky-upload-test-on-ci",
		Labels: []string{"Bug", "Backend"}, Author: "forgetools",
		Title: "Flaky upload test on CI", Body: body,
	})
}

func TestCreateIssueUnknownLabel(t *testing.T) {
	f := newFake(t,
		exchange{request: "team_eng", response: "team_eng.json"},
		exchange{request: "labels_bug_frontend", response: "labels_only_bug.json"},
	)
	_, err := f.provider(t).CreateIssue(t.Context(), builder, &gatewayv1.CreateIssueRequest{
		Repo: "ENG", Title: "t", Labels: []string{"Bug", "Frontend"},
	})
	e := wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT)
	contains(t, "message", e.Message, `unknown label(s) for team ENG: "Frontend"`)
	if strings.Contains(e.Message, `"Bug"`) {
		t.Errorf("message %q names a label that exists", e.Message)
	}
}

// A replay that reaches Linear after the first attempt landed: Linear
// refuses the id it already holds, and the provider returns that issue.
func TestCreateIssueReplayReturnsTheExistingIssue(t *testing.T) {
	f := newFake(t,
		exchange{request: "team_eng", response: "team_eng.json"},
		exchange{request: "create_replay", status: 400, response: "error_id_exists.json"},
		exchange{request: "issue_by_id", response: "issue_replayed.json"},
	)
	got, err := f.provider(t).CreateIssue(t.Context(), builder, &gatewayv1.CreateIssueRequest{Repo: "ENG", Title: "Flaky upload test on CI"})
	if err != nil {
		t.Fatal(err)
	}
	if got.GetNumber() != 132 || got.GetUrl() == "" {
		t.Errorf("got %v, want the existing ENG-132 with its URL", got)
	}
}

func TestCreateIssueReplayFromAnotherTeam(t *testing.T) {
	f := newFake(t,
		exchange{request: "team_eng", response: "team_eng.json"},
		exchange{request: "create_replay", status: 400, response: "error_id_exists.json"},
		exchange{request: "issue_by_id", response: "issue_replayed_other_team.json"},
	)
	_, err := f.provider(t).CreateIssue(t.Context(), builder, &gatewayv1.CreateIssueRequest{Repo: "ENG", Title: "Flaky upload test on CI"})
	e := wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_ALREADY_EXISTS)
	contains(t, "message", e.Message, "already filed an issue in another team")
}

// An input error that is not a held id stays the input error.
func TestCreateIssueInvalidInput(t *testing.T) {
	f := newFake(t,
		exchange{request: "team_eng", response: "team_eng.json"},
		exchange{request: "create_replay", status: 400, response: "error_invalid_input.json"},
		exchange{request: "issue_by_id", response: "error_entity_not_found.json"},
	)
	_, err := f.provider(t).CreateIssue(t.Context(), builder, &gatewayv1.CreateIssueRequest{Repo: "ENG", Title: "Flaky upload test on CI"})
	e := wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT)
	contains(t, "message", e.Message, "create issue in ENG", "title must be shorter than or equal to 255 characters")
}

// Without a client_request_id there is no id to look up after a failure.
func TestCreateIssueWithoutKeyDoesNotProbe(t *testing.T) {
	f := newFake(t,
		exchange{request: "team_eng", response: "team_eng.json"},
		exchange{request: "create_plain", status: 400, response: "error_invalid_input.json"},
	)
	_, err := f.provider(t).CreateIssue(t.Context(), toolserver.Call{Account: "acct-builder"}, &gatewayv1.CreateIssueRequest{Repo: "ENG", Title: "Title only"})
	wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT)
}

func TestCreateIssueTimeoutSaysTheRetryIsSafe(t *testing.T) {
	f := newFake(t,
		exchange{request: "team_eng", response: "team_eng.json"},
		exchange{request: "create_replay", hold: true},
	)
	p := f.provider(t)
	// Look the team up under the default timeout, so only the create races
	// the short one.
	if _, err := p.team(t.Context(), "ENG"); err != nil {
		t.Fatal(err)
	}
	p.timeout = 100 * time.Millisecond
	_, err := p.CreateIssue(t.Context(), builder, &gatewayv1.CreateIssueRequest{Repo: "ENG", Title: "Flaky upload test on CI"})
	e := wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_UNAVAILABLE)
	contains(t, "message", e.Message, "did not answer within 100ms", "a retry with the same client_request_id returns it")
}

func TestCommentOnIssue(t *testing.T) {
	f := newFake(t,
		exchange{request: "issue_ref_eng_123", response: "issue_ref_eng_123.json"},
		exchange{request: "comment_keyed", response: "comment_create.json"},
	)
	call := toolserver.Call{Account: "acct-builder", ClientRequestID: "nonce-7f3a:toolu_02"}
	got, err := f.provider(t).CommentOnIssue(t.Context(), call, &gatewayv1.CommentOnIssueRequest{
		Repo: "ENG", IssueNumber: 123, Body: "<!-- forgetools: agent=builder -->\nReproduced on 2.4.2.",
	})
	if err != nil {
		t.Fatal(err)
	}
	equalProto(t, got, &forgev1.CommentRef{
		Forge: linearRef, Repo: "ENG", Number: 123, CommentId: "a69e4615-30f4-4041-953f-8f6be9fd9fb3",
		Url: "https://linear.app/acme/issue/ENG-123/crash-when-saving-a-draft-with-an-empty-title#comment-a69e4615",
	})
}

func TestCommentOnIssueWithoutKey(t *testing.T) {
	f := newFake(t,
		exchange{request: "issue_ref_eng_123", response: "issue_ref_eng_123.json"},
		exchange{request: "comment_plain", response: "comment_create_plain.json"},
	)
	got, err := f.provider(t).CommentOnIssue(t.Context(), toolserver.Call{Account: "acct-builder"}, &gatewayv1.CommentOnIssueRequest{
		Repo: "ENG", IssueNumber: 123, Body: "Reproduced on 2.4.2.",
	})
	if err != nil {
		t.Fatal(err)
	}
	if got.GetCommentId() != "4e5f6a7b-8c9d-4e0f-9a1b-2c3d4e5f6a7b" {
		t.Errorf("comment id = %q, want Linear's", got.GetCommentId())
	}
}

func TestCommentReplayReturnsTheExistingComment(t *testing.T) {
	f := newFake(t,
		exchange{request: "issue_ref_eng_123", response: "issue_ref_eng_123.json"},
		exchange{request: "comment_keyed", status: 400, response: "error_id_exists.json"},
		exchange{request: "comment_by_id", response: "comment_existing.json"},
	)
	call := toolserver.Call{Account: "acct-builder", ClientRequestID: "nonce-7f3a:toolu_02"}
	got, err := f.provider(t).CommentOnIssue(t.Context(), call, &gatewayv1.CommentOnIssueRequest{
		Repo: "ENG", IssueNumber: 123, Body: "<!-- forgetools: agent=builder -->\nReproduced on 2.4.2.",
	})
	if err != nil {
		t.Fatal(err)
	}
	if got.GetCommentId() != "a69e4615-30f4-4041-953f-8f6be9fd9fb3" || got.GetUrl() == "" {
		t.Errorf("got %v, want the existing comment", got)
	}
}

func TestCommentReplayOnAnotherIssue(t *testing.T) {
	f := newFake(t,
		exchange{request: "issue_ref_eng_123", response: "issue_ref_eng_123.json"},
		exchange{request: "comment_keyed", status: 400, response: "error_id_exists.json"},
		exchange{request: "comment_by_id", response: "comment_elsewhere.json"},
	)
	call := toolserver.Call{Account: "acct-builder", ClientRequestID: "nonce-7f3a:toolu_02"}
	_, err := f.provider(t).CommentOnIssue(t.Context(), call, &gatewayv1.CommentOnIssueRequest{
		Repo: "ENG", IssueNumber: 123, Body: "<!-- forgetools: agent=builder -->\nReproduced on 2.4.2.",
	})
	wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_ALREADY_EXISTS)
}

func TestCommentOnMissingIssue(t *testing.T) {
	f := newFake(t, exchange{request: "issue_ref_eng_404", response: "error_entity_not_found.json"})
	_, err := f.provider(t).CommentOnIssue(t.Context(), builder, &gatewayv1.CommentOnIssueRequest{Repo: "ENG", IssueNumber: 404, Body: "b"})
	e := wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_NOT_FOUND)
	contains(t, "message", e.Message, "ENG-404")
}

func TestIDsAreDeterministicPerAccountAndKey(t *testing.T) {
	a := IssueID("acct-builder", "nonce-7f3a:toolu_01")
	// Pinned: a changed namespace would refile every retried create.
	if a != "9b328554-33f6-4a26-b439-c471805bf04f" {
		t.Errorf("IssueID = %s, the namespace changed", a)
	}
	if b := IssueID("acct-builder", "nonce-7f3a:toolu_01"); b != a {
		t.Errorf("same account and key gave %s and %s", a, b)
	}
	for _, other := range []string{
		IssueID("acct-reviewer", "nonce-7f3a:toolu_01"),
		IssueID("acct-builder", "nonce-7f3a:toolu_02"),
		IssueID("acct-builder\x00nonce-7f3a:toolu_01", ""),
		CommentID("acct-builder", "nonce-7f3a:toolu_01"),
	} {
		if other == a {
			t.Errorf("%s collides with %s", other, a)
		}
	}
	// Linear documents IssueCreateInput.id and CommentCreateInput.id as
	// "UUID v4 format": version 4, RFC 4122 variant, however derived.
	for _, id := range []string{a, CommentID("acct-builder", "nonce-7f3a:toolu_01"), IssueID("", "")} {
		u, err := uuid.Parse(id)
		if err != nil || u.Version() != 4 || u.Variant() != uuid.RFC4122 {
			t.Errorf("%s is not laid out as a version 4 UUID (version %d, variant %v, %v)", id, u.Version(), u.Variant(), err)
		}
	}
}
