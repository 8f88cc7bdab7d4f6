package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// Ownership records that a gateway account (through one of its sessions)
// created an artifact.
type Ownership struct {
	Account string
	Session string
	Artifact
	Created time.Time
}

// querier is what both *sql.DB and *sql.Tx offer.
type querier interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// RecordOwnership adds an ownership row; a zero Created means now.
func (s *Store) RecordOwnership(ctx context.Context, o Ownership) error {
	if o.Created.IsZero() {
		o.Created = s.now()
	}
	if err := s.recordOwnership(ctx, s.db, o); err != nil {
		return fmt.Errorf("store: record ownership: %w", err)
	}
	return nil
}

func (s *Store) recordOwnership(ctx context.Context, q querier, o Ownership) error {
	_, err := q.ExecContext(ctx, s.q(`INSERT INTO gateway_ownership
		(account, session, provider, host, repo, kind, number, artifact_id, created_ms)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`),
		o.Account, o.Session, providerColumn(o.Forge.Provider), o.Forge.Host, o.Repo, string(o.Kind),
		int64(o.Number), o.ID, millis(o.Created))
	return err
}

// Owned lists what an account created, oldest first.
func (s *Store) Owned(ctx context.Context, account string) ([]Ownership, error) {
	rows, err := s.db.QueryContext(ctx, s.q(`SELECT session, provider, host, repo, kind, number, artifact_id, created_ms
		FROM gateway_ownership WHERE account = ? ORDER BY created_ms, id`), account)
	if err != nil {
		return nil, fmt.Errorf("store: list ownership: %w", err)
	}
	defer rows.Close()
	var out []Ownership
	for rows.Next() {
		var (
			o                 = Ownership{Account: account}
			provider, kind    string
			number, createdMS int64
		)
		if err := rows.Scan(&o.Session, &provider, &o.Forge.Host, &o.Repo, &kind, &number, &o.ID, &createdMS); err != nil {
			return nil, fmt.Errorf("store: list ownership: %w", err)
		}
		if o.Forge.Provider, err = parseProvider(provider); err != nil {
			return nil, err
		}
		o.Kind, o.Number, o.Created = Kind(kind), uint64(number), fromMillis(createdMS)
		out = append(out, o)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: list ownership: %w", err)
	}
	return out, nil
}
