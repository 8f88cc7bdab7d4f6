package gateway

import (
	"context"
	"fmt"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/forgetools/forgetools/enumname"
	"github.com/forgetools/forgetools/gateway/store"
	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
)

// A decision on a parked call is an event of the account's approval
// stream (store.KindApproval), so a runtime waits for it on WaitEvents,
// forge_get_events or an MCP resource instead of repeating the call. The
// stream is the account's own, not a forge subscription's: a session that
// parked a push on a repository it never subscribed to hears the decision
// all the same, and no forge's scope or poll ever touches it.
//
// The event is a state event (kind "approval"): state is the decision
// (approved, once the call ran; denied; expired), artifact_id the approval id, repo the
// repository the call names, and body one line that names the approval,
// the tool, the operator and their reason. The reason is the operator's
// text, redacted like every stored text; no forge wrote any of it.

// approvalStream is the id of the account's approval stream, created when
// a call first parks so the parked line can name it.
func (s *Service) approvalStream(ctx context.Context, account string) string {
	sub, err := s.store.ApprovalStream(ctx, account)
	if err != nil {
		// The parked line then names no stream; the call is parked all
		// the same, and its repeat still reads the decision.
		s.log.WarnContext(ctx, "approval stream not created", "account", account, "cause", s.redact(err.Error()))
		return ""
	}
	return sub.ID
}

// announce records a's decision on its account's approval stream and
// wakes this gateway's waiters (other replicas' waiters see it at their
// next look at the store). A failure is logged: the decision stands and
// the repeated call still reads it.
func (s *Service) announce(ctx context.Context, a store.Approval) {
	ev := &forgev1.Event{
		Type: forgev1.EventType_EVENT_TYPE_STATE, State: decisionName(a.State), Repo: a.Repo, ArtifactId: a.ID,
		Body: decisionLine(a),
	}
	at := a.Decided
	if a.State == store.ApprovalExpired {
		at = a.Expires
	}
	if !at.IsZero() {
		ev.OccurredAt = at.UTC().Format(time.RFC3339)
	}
	s.redactMessage(ev.ProtoReflect())
	payload, err := proto.Marshal(ev)
	if err == nil {
		_, err = s.store.RecordDecision(ctx, a.Account, store.Change{
			Type: enumname.Of(ev.GetType()), DedupKey: "approval:" + a.ID + ":" + a.State, Payload: payload,
		})
	}
	if err != nil {
		s.log.ErrorContext(ctx, "approval decision event not recorded", "approval", a.ID, "cause", s.redact(err.Error()))
		return
	}
	if s.cfg.wake != nil {
		s.cfg.wake()
	}
}

// decisionName is the event's state: the decision as the model reads it.
func decisionName(state string) string {
	if state == store.ApprovalDone {
		return "approved"
	}
	return state
}

// decisionLine is the event's text: what was decided, by whom and why,
// and what the model does next.
func decisionLine(a store.Approval) string {
	on := a.Tool
	if a.Repo != "" {
		on += " on " + a.Repo
	}
	reason := ""
	if a.Reason != "" {
		reason = ": " + a.Reason
	}
	switch a.State {
	case store.ApprovalDenied:
		return fmt.Sprintf("approval %s: operator %s denied %s%s. The call never ran; calling again with the same arguments reads this denial", a.ID, a.Operator, on, reason)
	case store.ApprovalExpired:
		return fmt.Sprintf("approval %s: %s expired with no decision and never ran; calling again with the same arguments parks it anew", a.ID, on)
	case store.ApprovalDone:
		outcome := "it ran"
		if a.ErrorCode != 0 {
			outcome = "it ran and failed"
		}
		return fmt.Sprintf("approval %s: operator %s approved %s%s; %s. Call again with the same arguments to read its result", a.ID, a.Operator, on, reason, outcome)
	}
	return fmt.Sprintf("approval %s: %s is %s", a.ID, on, a.State)
}

// AnnounceExpired announces each approval that expired undecided after
// since (in the store's clock) and returns how many it looked at. A
// long-lived gateway calls it periodically; every replica may, since an
// expiry is recorded once (its event's key is the approval's). One that
// expired before since is announced only when an operator tries to decide
// it.
func (s *Service) AnnounceExpired(ctx context.Context, since time.Time) (int, error) {
	rows, err := s.store.ListApprovals(ctx, store.ApprovalFilter{State: store.ApprovalExpired, Limit: 500})
	if err != nil {
		return 0, err
	}
	n := 0
	for _, r := range rows {
		if r.Expires.After(since) {
			r.State = store.ApprovalExpired
			s.announce(ctx, r)
			n++
		}
	}
	return n, nil
}
