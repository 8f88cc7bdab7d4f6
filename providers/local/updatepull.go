package local

import (
	"context"
	"database/sql"
	"strconv"
	"strings"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/toolserver"
)

// UpdatePullRequest closes, reopens, retitles or edits a pull request,
// marks a draft ready, or moves it onto another base branch; what the
// request leaves out stays. A merged pull request is final. Reopening and
// retargeting keep GitHub's rule of one open pull request per head and
// base. The local forge keeps no review requests, so reviewers are
// refused before anything changes.
//
// Subscribers hear of a new state, as the caller's own change.
func (f *Forge) UpdatePullRequest(ctx context.Context, c toolserver.Call, req *gatewayv1.UpdatePullRequestRequest) (*forgev1.PullRequest, error) {
	repo := req.GetRepo()
	if err := checkRepo(repo); err != nil {
		return nil, err
	}
	if len(req.GetReviewers()) > 0 {
		return nil, toolserver.NotImplemented("the local forge has no review requests: leave reviewers out (nothing was changed)")
	}
	if req.Title != nil && strings.TrimSpace(req.GetTitle()) == "" {
		return nil, toolserver.InvalidArgument("pull request title is empty")
	}
	if req.BaseRef != nil {
		if err := checkBranch("base_ref", req.GetBaseRef()); err != nil {
			return nil, err
		}
	}
	if req.GetState() == gatewayv1.PullRequestState_PULL_REQUEST_STATE_UNSPECIFIED && req.Title == nil && req.Body == nil &&
		!req.GetReady() && req.BaseRef == nil {
		return nil, toolserver.InvalidArgument("give at least one field to change")
	}
	r, err := f.repository(ctx, repo)
	if err != nil {
		return nil, err
	}
	var it *item
	var state string
	err = f.write(ctx, func(tx *sql.Tx) (err error) {
		if it, err = f.touchItem(ctx, tx, repo, req.GetPullNumber(), kindPull); err != nil {
			return err
		}
		if it.state == "merged" {
			return toolserver.FailedPrecondition("pull request #%d in %s is merged: it can no longer be changed", it.number, it.repo)
		}
		var sets []string
		var args []any
		set := func(column string, v any) {
			args = append(args, v)
			sets = append(sets, column+" = $"+strconv.Itoa(len(args)))
		}
		state = it.state
		switch req.GetState() {
		case gatewayv1.PullRequestState_PULL_REQUEST_STATE_CLOSED:
			if state != "closed" {
				set("closed_at", f.now().UnixMicro())
			}
			state = "closed"
		case gatewayv1.PullRequestState_PULL_REQUEST_STATE_OPEN:
			set("closed_at", nil)
			state = "open"
		}
		set("state", state)
		base := it.baseRef.String
		if req.BaseRef != nil {
			base = req.GetBaseRef()
			if base == it.headRef.String {
				return toolserver.InvalidArgument("base_ref %q is the pull request's head: a pull request merges one branch into another", base)
			}
			if err := checkBranches(r, it.headRef.String, base); err != nil {
				return err
			}
			set("base_ref", base)
		}
		if state == "open" && (it.state != "open" || base != it.baseRef.String) {
			if err := checkNotOpen(ctx, tx, it, it.headRef.String, base); err != nil {
				return err
			}
		}
		if req.GetReady() {
			set("draft", false)
		}
		if req.Title != nil {
			set("title", req.GetTitle())
		}
		if req.Body != nil {
			set("body", req.GetBody())
		}
		args = append(args, it.repoID, it.number)
		_, err = tx.ExecContext(ctx, `UPDATE local_items SET `+strings.Join(sets, ", ")+
			` WHERE repo_id = $`+strconv.Itoa(len(args)-1)+` AND number = $`+strconv.Itoa(len(args)), args...)
		return err
	})
	if err != nil {
		return nil, err
	}
	if state != it.state {
		f.emit(ctx, it, f.stateChange(author(c), c.Account, state))
	}
	return f.GetPullRequest(ctx, c, &gatewayv1.GetPullRequestRequest{Repo: repo, PullNumber: req.GetPullNumber()})
}
