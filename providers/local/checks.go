package local

import (
	"context"
	"database/sql"

	"github.com/google/uuid"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	"github.com/forgetools/forgetools/toolserver"
	"github.com/forgetools/forgetools/toolserver/notify"
)

// checksStates are the roll-ups a pull request's checks can have; "" is
// none.
var checksStates = map[string]bool{"": true, "success": true, "failure": true, "pending": true}

// SetChecks records the roll-up of a pull request's checks (success,
// failure, pending, or "" for none), for operators, demos and tests; a CI
// run (forge_trigger_ci) reports its outcome the same way. Subscribers
// hear of a change as a checks event.
func (f *Forge) SetChecks(ctx context.Context, repo string, number uint64, state string) error {
	return f.setChecks(ctx, repo, number, state, operator)
}

// setChecks is SetChecks by actor.
func (f *Forge) setChecks(ctx context.Context, repo string, number uint64, state, actor string) error {
	if err := checkRepo(repo); err != nil {
		return err
	}
	if !checksStates[state] {
		return toolserver.InvalidArgument("checks state %q is not success, failure, pending or empty", state)
	}
	var it *item
	changed := false
	err := f.write(ctx, func(tx *sql.Tx) (err error) {
		if it, err = f.touchItem(ctx, tx, repo, number, kindPull); err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, `UPDATE local_items SET checks_state = $1
			WHERE repo_id = $2 AND number = $3 AND checks_state <> $1`, state, it.repoID, it.number)
		if err != nil {
			return err
		}
		n, err := res.RowsAffected()
		changed = n == 1
		return err
	})
	if err != nil || !changed {
		return err
	}
	ev := f.event(forgev1.EventType_EVENT_TYPE_CHECKS, actor)
	ev.ChecksState = state
	f.emit(ctx, it, notify.Change{Event: ev, Key: "checks:" + uuid.NewString()})
	return nil
}
