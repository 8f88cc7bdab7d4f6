package local

import (
	"context"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	"github.com/forgetools/forgetools/toolserver"
	"github.com/forgetools/forgetools/toolserver/notify"
)

// ciActor is the actor of checks events a CI run reports.
const ciActor = "ci"

// openPullsOn lists r's open pull requests whose head is branch: the ones
// a push to branch moves and a CI run of it checks.
func (f *Forge) openPullsOn(ctx context.Context, r *repository, branch string) ([]*item, error) {
	var out []*item
	err := f.readOne(ctx, func(q querier) (err error) {
		out, err = scanItems(ctx, q, `SELECT `+itemColumns+` FROM local_items i JOIN local_repos r ON r.id = i.repo_id
			WHERE i.repo_id = $1 AND i.kind = 'pull' AND i.state = 'open' AND i.head_ref = $2`, r.id, branch)
		return err
	})
	return out, err
}

// pushed tells the subscribers of every open pull request whose head is
// branch that c moved it to sha. The commit stands whatever happens here.
func (f *Forge) pushed(ctx context.Context, c toolserver.Call, r *repository, branch, sha string) {
	if f.recorder == nil {
		return
	}
	prs, err := f.openPullsOn(ctx, r, branch)
	if err != nil {
		f.log.ErrorContext(ctx, "local forge: push not recorded for subscribers", "repo", r.name, "branch", branch, "cause", err.Error())
		return
	}
	for _, it := range prs {
		ev := f.event(forgev1.EventType_EVENT_TYPE_PUSH, author(c))
		ev.HeadSha = sha
		// One commit is one push, whichever way it is heard of.
		f.emit(ctx, it, notify.Change{Event: ev, Key: "push:" + sha, Account: c.Account})
	}
}

// checked reports a finished run as the checks of the open pull requests
// it tested: those whose head branch is the run's ref and still at the
// commit it ran on (a run of an older head says nothing about the new one).
// Subscribers hear of a change of the roll-up as a checks event.
func (f *Forge) checked(ctx context.Context, r *repository, ru *run) {
	prs, err := f.openPullsOn(ctx, r, ru.ref)
	if err != nil {
		f.log.ErrorContext(ctx, "local forge: CI run not reported as checks", "repo", r.name, "run", ru.id, "cause", err.Error())
		return
	}
	state := "failure"
	if ru.conclusion == "success" {
		state = "success"
	}
	for _, it := range prs {
		if head, ok, err := r.git.Branch(ru.ref); err != nil || !ok || head.String() != ru.headSHA {
			continue
		}
		if err := f.setChecks(ctx, r.name, uint64(it.number), state, ciActor); err != nil {
			f.log.ErrorContext(ctx, "local forge: CI run not reported as checks", "repo", r.name, "number", it.number, "cause", err.Error())
		}
	}
}
