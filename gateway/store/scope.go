package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// Scope actions, as gateway_scope_log records them.
const (
	// ScopeSeed copies an entry of the YAML scope into the store, when the
	// first change makes the stored scope the account's scope.
	ScopeSeed = "seed"
	ScopeAdd  = "add"
	// ScopeRemove takes an entry out.
	ScopeRemove = "remove"
)

// ScopeChange is one change to an account's stored scope.
type ScopeChange struct {
	Account string
	// Action is ScopeAdd or ScopeRemove (ScopeSeed in the log).
	Action string
	Entry  string
	// Actor is who made the change (the operator's name); required.
	Actor string
	At    time.Time
}

// ErrScopeUnchanged is ChangeScope's answer to adding an entry the stored
// scope already has, or removing one it does not have.
var ErrScopeUnchanged = errors.New("scope unchanged")

// StoredScope returns an account's stored scope entries, sorted, and
// whether the account has a stored scope at all (false: its YAML scope
// applies).
func (s *Store) StoredScope(ctx context.Context, account string) (entries []string, stored bool, err error) {
	var n int
	err = s.db.QueryRowContext(ctx, s.q(`SELECT count(*) FROM gateway_scope_accounts WHERE account = ?`), account).Scan(&n)
	if err != nil || n == 0 {
		return nil, false, wrapScope(err)
	}
	rows, err := s.db.QueryContext(ctx, s.q(`SELECT entry FROM gateway_scope_entries WHERE account = ? ORDER BY entry`), account)
	if err != nil {
		return nil, false, wrapScope(err)
	}
	defer rows.Close()
	entries = []string{}
	for rows.Next() {
		var e string
		if err := rows.Scan(&e); err != nil {
			return nil, false, wrapScope(err)
		}
		entries = append(entries, e)
	}
	return entries, true, wrapScope(rows.Err())
}

func wrapScope(err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("read stored scope: %w", err)
}

// ChangeScope adds or removes one entry of an account's stored scope and
// logs the change, in one transaction. When the account has no stored
// scope yet, seed (its YAML scope) is copied in first and logged as seed
// rows: from then on the stored entries are the account's whole scope, so
// an operator can take back an entry YAML granted.
func (s *Store) ChangeScope(ctx context.Context, c ScopeChange, seed []string) error {
	if c.Action != ScopeAdd && c.Action != ScopeRemove {
		return fmt.Errorf("change scope: action %q is neither add nor remove", c.Action)
	}
	if c.Actor == "" {
		return errors.New("change scope: no actor: every change names who made it")
	}
	if c.At.IsZero() {
		c.At = s.now()
	}
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, s.q(`INSERT INTO gateway_scope_accounts (account, seeded_ms) VALUES (?, ?) ON CONFLICT DO NOTHING`),
			c.Account, millis(c.At))
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil {
			return err
		} else if n == 1 {
			for _, e := range seed {
				if err := s.applyScope(ctx, tx, ScopeChange{Account: c.Account, Action: ScopeSeed, Entry: e, Actor: c.Actor, At: c.At}); err != nil && !errors.Is(err, ErrScopeUnchanged) {
					return err
				}
			}
		}
		return s.applyScope(ctx, tx, c)
	})
	if err != nil {
		return fmt.Errorf("change scope of %s: %w", c.Account, err)
	}
	return nil
}

// applyScope makes one change and logs it.
func (s *Store) applyScope(ctx context.Context, tx *sql.Tx, c ScopeChange) error {
	var (
		res sql.Result
		err error
	)
	if c.Action == ScopeRemove {
		res, err = tx.ExecContext(ctx, s.q(`DELETE FROM gateway_scope_entries WHERE account = ? AND entry = ?`), c.Account, c.Entry)
	} else {
		res, err = tx.ExecContext(ctx, s.q(`INSERT INTO gateway_scope_entries (account, entry, added_ms) VALUES (?, ?, ?) ON CONFLICT DO NOTHING`),
			c.Account, c.Entry, millis(c.At))
	}
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil {
		return err
	} else if n == 0 {
		return ErrScopeUnchanged
	}
	_, err = tx.ExecContext(ctx, s.q(`INSERT INTO gateway_scope_log (account, action, entry, actor, at_ms) VALUES (?, ?, ?, ?, ?)`),
		c.Account, c.Action, c.Entry, c.Actor, millis(c.At))
	return err
}

// ScopeLog lists the changes to stored scopes, oldest first; account ""
// lists every account's.
func (s *Store) ScopeLog(ctx context.Context, account string) ([]ScopeChange, error) {
	query, args := `SELECT account, action, entry, actor, at_ms FROM gateway_scope_log`, []any{}
	if account != "" {
		query += ` WHERE account = ?`
		args = append(args, account)
	}
	rows, err := s.db.QueryContext(ctx, s.q(query+` ORDER BY at_ms, id`), args...)
	if err != nil {
		return nil, fmt.Errorf("read scope log: %w", err)
	}
	defer rows.Close()
	var out []ScopeChange
	for rows.Next() {
		var (
			c  ScopeChange
			at int64
		)
		if err := rows.Scan(&c.Account, &c.Action, &c.Entry, &c.Actor, &at); err != nil {
			return nil, fmt.Errorf("read scope log: %w", err)
		}
		c.At = fromMillis(at)
		out = append(out, c)
	}
	return out, rows.Err()
}
