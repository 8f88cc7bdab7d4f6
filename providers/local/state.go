package local

import (
	"context"
	"database/sql"

	"github.com/forgetools/forgetools/toolserver"
)

// operator is the actor of changes made through the forge's operator
// methods (SetState, SetChecks), which no agent tool reaches.
const operator = "operator"

// states are the states each kind of artifact can be set to.
var states = map[string][]string{
	kindIssue: {"open", "closed"},
	kindPull:  {"open", "closed", "merged"},
}

// SetState closes, reopens or (for a pull request) merges the artifact
// numbered number in repo. No agent tool changes state; this is for
// operators, demos and tests that need closed issues and pull requests.
//
// Subscribers hear of the change as a state event: closed, merged, or
// reopened.
func (f *Forge) SetState(ctx context.Context, repo string, number uint64, state string) error {
	if err := checkRepo(repo); err != nil {
		return err
	}
	var it *item
	changed := false
	err := f.write(ctx, func(tx *sql.Tx) (err error) {
		if it, err = f.touchItem(ctx, tx, repo, number, ""); err != nil {
			return err
		}
		valid := false
		for _, s := range states[it.kind] {
			valid = valid || s == state
		}
		if !valid {
			return toolserver.InvalidArgument("state %q is not one of %v for #%d in %s", state, states[it.kind], number, repo)
		}
		if it.state == state {
			return nil
		}
		changed = true
		if it.kind == kindPull && state == "open" {
			// Hold the counter row, as creates do, so no create races this
			// reopen past the one-open-pull-request rule.
			if _, err := tx.ExecContext(ctx, `UPDATE local_repos SET last_number = last_number WHERE id = $1`,
				it.repoID); err != nil {
				return err
			}
			if err := checkNotOpen(ctx, tx, it, it.headRef.String, it.baseRef.String); err != nil {
				return err
			}
		}
		_, err = tx.ExecContext(ctx, `UPDATE local_items SET state = $1 WHERE repo_id = $2 AND number = $3`,
			state, it.repoID, it.number)
		return err
	})
	if err != nil || !changed {
		return err
	}
	f.emit(ctx, it, f.stateChange(operator, "", state))
	return nil
}
