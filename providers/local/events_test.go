package local_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/forgetools/forgetools/enumname"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/providers/local"
	"github.com/forgetools/forgetools/toolserver/notify"
)

// heard is a notify.Recorder that keeps what it is told, one line
// per change: the artifact, the event, who made it, and its dedup key's
// kind.
type heard struct {
	mu    sync.Mutex
	lines []string
}

func (h *heard) Record(_ context.Context, a notify.Artifact, changes ...notify.Change) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, c := range changes {
		ev := c.Event
		line := fmt.Sprintf("%s %s#%d %s by %s", a.Kind, a.Repo, a.Number, enumname.Of(ev.GetType()), ev.GetActor())
		if c.Account != "" {
			line += " (own " + c.Account + ")"
		}
		for _, f := range []struct{ name, v string }{
			{"state", ev.GetState()}, {"checks", ev.GetChecksState()}, {"verdict", ev.GetVerdict()}, {"body", ev.GetBody()},
			{"added", strings.Join(ev.GetLabelsAdded(), ",")}, {"removed", strings.Join(ev.GetLabelsRemoved(), ",")},
		} {
			if f.v != "" {
				line += " " + f.name + "=" + f.v
			}
		}
		kind, _, _ := strings.Cut(c.Key, ":")
		h.lines = append(h.lines, line+" key="+kind)
	}
	return nil
}

// take returns what was heard since the last take.
func (h *heard) take() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := h.lines
	h.lines = nil
	return out
}

func (h *heard) want(t *testing.T, what string, want ...string) {
	t.Helper()
	if got := h.take(); !slices.Equal(got, want) {
		t.Errorf("%s: subscribers heard\n%s\nwant\n%s", what, strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// Every write the forge makes reaches its recorder once committed, under
// the repository's spelling as created (whatever spelling the call used),
// as the caller's own change when an account made it; a write that changes
// nothing, or fails, tells nobody.
func TestWritesReachTheRecorder(t *testing.T) {
	eachDialect(t, func(t *testing.T, d database) {
		ctx := context.Background()
		h := &heard{}
		f, _ := newForge(t, d, local.Options{Recorder: h})
		issue := createIssue(t, f, "Acme/App", "Crash", "bug")
		h.want(t, "create")

		if _, err := f.CommentOnIssue(ctx, alice, &gatewayv1.CommentOnIssueRequest{Repo: "acme/app", IssueNumber: issue, Body: "Seen it."}); err != nil {
			t.Fatal(err)
		}
		h.want(t, "comment", "issue Acme/App#1 comment by alice (own alice) body=Seen it. key=comment")

		update(t, f, &gatewayv1.UpdateIssueRequest{Repo: "acme/app", IssueNumber: issue, State: gatewayv1.IssueState_ISSUE_STATE_CLOSED,
			Labels: []string{"Bug", "ui"}})
		h.want(t, "close and relabel",
			"issue Acme/App#1 state by alice (own alice) state=closed key=state",
			"issue Acme/App#1 labels by alice (own alice) added=ui key=labels")
		update(t, f, &gatewayv1.UpdateIssueRequest{Repo: "acme/app", IssueNumber: issue, State: gatewayv1.IssueState_ISSUE_STATE_CLOSED,
			Labels: []string{"UI", "bug"}, Title: ptrTo("Crash on start")})
		h.want(t, "an edit that keeps the state and the labels")
		update(t, f, &gatewayv1.UpdateIssueRequest{Repo: "acme/app", IssueNumber: issue, State: gatewayv1.IssueState_ISSUE_STATE_OPEN,
			Labels: []string{"ui"}})
		h.want(t, "reopen",
			"issue Acme/App#1 state by alice (own alice) state=reopened key=state",
			"issue Acme/App#1 labels by alice (own alice) removed=bug key=labels")
		_, err := f.UpdateIssue(ctx, alice, &gatewayv1.UpdateIssueRequest{Repo: "acme/app", IssueNumber: 9, State: gatewayv1.IssueState_ISSUE_STATE_CLOSED})
		wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_NOT_FOUND)
		h.want(t, "a failed update")

		n, head := openFix(t, f, "acme/app", "fix", "fix.txt")
		if _, err := f.SubmitReview(ctx, alice, &gatewayv1.SubmitReviewRequest{Repo: "ACME/app", PullNumber: n,
			Verdict: gatewayv1.Verdict_VERDICT_APPROVE}); err != nil {
			t.Fatal(err)
		}
		h.want(t, "review", "pull_request Acme/App#2 review by alice (own alice) verdict=approve key=review")
		if err := f.SetChecks(ctx, "acme/app", n, "success"); err != nil {
			t.Fatal(err)
		}
		h.want(t, "checks", "pull_request Acme/App#2 checks by operator checks=success key=checks")
		if pr := getPull(t, f, "acme/app", n); pr.GetChecksState() != "success" {
			t.Errorf("checks_state %q after SetChecks success", pr.GetChecksState())
		}
		if _, err := f.MergePullRequest(ctx, alice, &gatewayv1.MergePullRequestRequest{Repo: "acme/app", PullNumber: n, ExpectedHeadSha: head}); err != nil {
			t.Fatal(err)
		}
		h.want(t, "merge", "pull_request Acme/App#2 state by alice (own alice) state=merged key=state")

		if err := f.SetState(ctx, "acme/APP", issue, "closed"); err != nil {
			t.Fatal(err)
		}
		if err := f.SetState(ctx, "acme/app", issue, "closed"); err != nil {
			t.Fatal(err)
		}
		h.want(t, "an operator closes, twice", "issue Acme/App#1 state by operator state=closed key=state")
	})
}

// A push to a pull request's head and a CI run of it reach the
// pull request's subscribers: the push as the pusher's own, the run's
// outcome as a checks event once the roll-up changes; a run of another
// branch, or of a head that moved on, says nothing about the pull request.
func TestPushesAndCIRunsReachTheRecorder(t *testing.T) {
	eachDialect(t, func(t *testing.T, d database) {
		h := &heard{}
		// The run passes once ok.txt is on the ref it checks out.
		f, _ := newForge(t, d, local.Options{Recorder: h, CI: local.CI{Command: "test -f ok.txt"}})
		n, _ := openFix(t, f, "acme/app", "fix", "fix.txt")
		h.take()

		if run := trigger(t, f, "fix", ""); run.GetConclusion() != "failure" {
			t.Fatalf("run without ok.txt: %v", run)
		}
		h.want(t, "a failing run", fmt.Sprintf("pull_request acme/app#%d checks by ci checks=failure key=checks", n))
		trigger(t, f, "fix", "")
		h.want(t, "the same outcome again")
		trigger(t, f, "main", "")
		h.want(t, "a run of another branch")

		writeFile(t, f, alice, "acme/app", "fix", "ok.txt", "ok\n", "")
		h.want(t, "a push to the head", fmt.Sprintf("pull_request acme/app#%d push by alice (own alice) key=push", n))
		if run := trigger(t, f, "fix", ""); run.GetConclusion() != "success" {
			t.Fatalf("run with ok.txt: %v", run)
		}
		h.want(t, "a passing run", fmt.Sprintf("pull_request acme/app#%d checks by ci checks=success key=checks", n))
		if pr := getPull(t, f, "acme/app", n); pr.GetChecksState() != "success" {
			t.Errorf("checks_state %q after a passing run", pr.GetChecksState())
		}
	})
}
