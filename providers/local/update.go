package local

import (
	"context"
	"database/sql"
	"strconv"
	"strings"

	"github.com/forgetools/forgetools/enumname"
	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/toolserver"
	"github.com/forgetools/forgetools/toolserver/notify"
)

// UpdateIssue closes, reopens or edits an issue; what the request leaves
// out stays. Closing records when, and why (completed unless said
// otherwise); reopening clears the time and records "reopened". Labels and
// assignees given replace the old ones.
//
// Subscribers hear of a new state and of labels added or removed, as the
// caller's own changes.
func (f *Forge) UpdateIssue(ctx context.Context, c toolserver.Call, req *gatewayv1.UpdateIssueRequest) (*forgev1.Issue, error) {
	repo := req.GetRepo()
	if err := checkRepo(repo); err != nil {
		return nil, err
	}
	if req.Title != nil && strings.TrimSpace(req.GetTitle()) == "" {
		return nil, toolserver.InvalidArgument("issue title is empty")
	}
	lists := itemLists{labels: dedupNames(nonEmpty(req.GetLabels())), assignees: dedupNames(nonEmpty(req.GetAssignees()))}
	if err := lists.check(); err != nil {
		return nil, err
	}
	reason, err := stateReason(req)
	if err != nil {
		return nil, err
	}
	if req.GetState() == gatewayv1.IssueState_ISSUE_STATE_UNSPECIFIED && req.Title == nil && req.Body == nil &&
		lists.labels == nil && lists.assignees == nil {
		return nil, toolserver.InvalidArgument("give at least one field to change")
	}
	var out *forgev1.Issue
	var it *item
	var labelsBefore []string
	err = f.write(ctx, func(tx *sql.Tx) (err error) {
		if it, err = f.touchItem(ctx, tx, repo, req.GetIssueNumber(), kindIssue); err != nil {
			return err
		}
		if lists.labels != nil {
			before, err := listsOf(ctx, tx, it.repoID, it.number, it.number)
			if err != nil {
				return err
			}
			labelsBefore = before[it.number].labels
		}
		var sets []string
		var args []any
		set := func(column string, v any) {
			args = append(args, v)
			sets = append(sets, column+" = $"+strconv.Itoa(len(args)))
		}
		now := f.now().UnixMicro()
		switch req.GetState() {
		case gatewayv1.IssueState_ISSUE_STATE_CLOSED:
			if it.state != "closed" {
				set("closed_at", now)
			}
			set("state", "closed")
			set("state_reason", orDefault(reason, "completed"))
		case gatewayv1.IssueState_ISSUE_STATE_OPEN:
			if it.state != "open" {
				set("closed_at", nil)
				set("state_reason", "reopened")
			}
			set("state", "open")
		}
		if req.Title != nil {
			set("title", req.GetTitle())
		}
		if req.Body != nil {
			set("body", req.GetBody())
		}
		if len(sets) > 0 {
			args = append(args, it.repoID, it.number)
			if _, err := tx.ExecContext(ctx, `UPDATE local_items SET `+strings.Join(sets, ", ")+
				` WHERE repo_id = $`+strconv.Itoa(len(args)-1)+` AND number = $`+strconv.Itoa(len(args)), args...); err != nil {
				return err
			}
		}
		if err := lists.store(ctx, tx, it.repoID, it.number); err != nil {
			return err
		}
		out, err = f.loadIssue(ctx, tx, repo, req.GetIssueNumber())
		return err
	})
	if err != nil {
		return nil, err
	}
	var changes []notify.Change
	if out.GetState() != it.state {
		changes = append(changes, f.stateChange(author(c), c.Account, out.GetState()))
	}
	if lists.labels != nil {
		if ch, ok := f.labelsChange(c, labelsBefore, out.GetLabels()); ok {
			changes = append(changes, ch)
		}
	}
	f.emit(ctx, it, changes...)
	return out, nil
}

// stateReason is the reason the request gives, refused when it does not
// fit the state it sets: an issue is closed as completed or not planned,
// and reopened as reopened.
func stateReason(req *gatewayv1.UpdateIssueRequest) (string, error) {
	r := req.GetStateReason()
	if r == gatewayv1.StateReason_STATE_REASON_UNSPECIFIED {
		return "", nil
	}
	// The tool's spellings are GitHub's: completed, not_planned, reopened.
	reason := enumname.Of(r)
	want := gatewayv1.IssueState_ISSUE_STATE_CLOSED
	if r == gatewayv1.StateReason_STATE_REASON_REOPENED {
		want = gatewayv1.IssueState_ISSUE_STATE_OPEN
	}
	if req.GetState() != want {
		return "", toolserver.InvalidArgument("state_reason %s goes with state %s", reason, enumname.Of(want))
	}
	return reason, nil
}

// nonEmpty is nil for an empty list: an empty list in an update changes
// nothing.
func nonEmpty(names []string) []string {
	if len(names) == 0 {
		return nil
	}
	return names
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
