package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
)

// recordAll is record for every create a group kept, on PostgreSQL: their
// memo rows marked done and their ownership rows added in one statement
// at the group's end, where each create took a round trip of its own in
// the committer (which runs the creates one after another, so a round
// trip saved per create is saved for every create behind it). A memo row
// that is no longer its attempt's fails the whole group, as it cannot
// happen inside the group's own transaction.
func (s *Store) recordAll(ctx context.Context, tx *sql.Tx, kept []*txCreate) error {
	now := s.now()
	var rows, owned []string
	var args, ownedArgs []any
	for _, m := range kept {
		a, o := m.owned.Artifact, m.owned
		o.Account, o.Created = m.c.Account, now
		rows = append(rows, "(?::text, ?::text, ?::text, ?::text, ?::text, ?::text, ?::text, ?::bigint)")
		args = append(args, m.c.Account, m.c.Key, m.attempt,
			string(a.Kind), providerColumn(a.Forge.Provider), a.Forge.Host, a.Repo, int64(a.Number))
		owned = append(owned, "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
		ownedArgs = append(ownedArgs, s.ownershipArgs(o)...)
	}
	args = append(append(args, millis(now)), ownedArgs...)
	var n int
	err := tx.QueryRowContext(ctx, s.q(`WITH v (account, key, attempt, kind, provider, host, repo, number) AS (VALUES `+strings.Join(rows, ", ")+`),
		done AS (UPDATE gateway_create_memo m
			SET state = 'done', kind = v.kind, provider = v.provider, host = v.host, repo = v.repo, number = v.number, finished_ms = ?
			FROM v WHERE m.account = v.account AND m.client_request_id = v.key AND m.state = 'pending' AND m.attempt = v.attempt
			RETURNING 1),
		owned AS (`+ownershipColumns+` VALUES `+strings.Join(owned, ", ")+`)
		SELECT count(*) FROM done`), args...).Scan(&n)
	if err != nil {
		return err
	}
	if n != len(kept) {
		return fmt.Errorf("%d of the group's %d memo rows changed inside its own transaction", len(kept)-n, len(kept))
	}
	return nil
}
