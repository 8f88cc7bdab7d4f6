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
	// Tool is the tool that created the artifact, as the model names it
	// ("forge_create_issue"); empty on records from before it was kept.
	Tool string
	Artifact
	// URL is the artifact's web address as the forge reported it.
	URL     string
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
		return fmt.Errorf("record ownership: %w", err)
	}
	return nil
}

func (s *Store) recordOwnership(ctx context.Context, q querier, o Ownership) error {
	_, err := q.ExecContext(ctx, s.q(ownershipInsert), s.ownershipArgs(o)...)
	return err
}

// ownershipInsert adds the ownership row ownershipArgs gives.
const ownershipInsert = ownershipColumns + `
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`

// ownershipColumns starts an INSERT of ownership rows, in ownershipArgs'
// order.
const ownershipColumns = `INSERT INTO gateway_ownership
		(account, session, tool, provider, host, repo, kind, number, artifact_id, url, created_ms)`

// ownershipArgs are ownershipInsert's parameters for o, redacted.
func (s *Store) ownershipArgs(o Ownership) []any {
	o = s.redactOwnership(o)
	return []any{o.Account, o.Session, o.Tool, providerColumn(o.Forge.Provider), o.Forge.Host, o.Repo, string(o.Kind),
		int64(o.Number), o.ID, o.URL, millis(o.Created)}
}

// Owned lists what an account created, oldest first.
func (s *Store) Owned(ctx context.Context, account string) ([]Ownership, error) {
	return s.Audit(ctx, AuditFilter{Account: account})
}

// AuditFilter narrows Audit; zero fields match everything.
type AuditFilter struct {
	Account string
	Session string
	// Since keeps records created at or after it.
	Since time.Time
}

// Audit lists the ownership records f selects, oldest first: what was
// written where, by which account, session and tool.
func (s *Store) Audit(ctx context.Context, f AuditFilter) ([]Ownership, error) {
	query := `SELECT account, session, tool, provider, host, repo, kind, number, artifact_id, url, created_ms
		FROM gateway_ownership WHERE 1 = 1`
	var args []any
	if f.Account != "" {
		query += ` AND account = ?`
		args = append(args, f.Account)
	}
	if f.Session != "" {
		query += ` AND session = ?`
		args = append(args, f.Session)
	}
	if !f.Since.IsZero() {
		query += ` AND created_ms >= ?`
		args = append(args, millis(f.Since))
	}
	rows, err := s.db.QueryContext(ctx, s.q(query+` ORDER BY created_ms, id`), args...)
	if err != nil {
		return nil, fmt.Errorf("list ownership: %w", err)
	}
	defer rows.Close()
	var out []Ownership
	for rows.Next() {
		var (
			o                 Ownership
			provider, kind    string
			number, createdMS int64
		)
		if err := rows.Scan(&o.Account, &o.Session, &o.Tool, &provider, &o.Forge.Host, &o.Repo, &kind, &number,
			&o.ID, &o.URL, &createdMS); err != nil {
			return nil, fmt.Errorf("list ownership: %w", err)
		}
		if o.Forge.Provider, err = parseProvider(provider); err != nil {
			return nil, err
		}
		o.Kind, o.Number, o.Created = Kind(kind), uint64(number), fromMillis(createdMS)
		out = append(out, o)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list ownership: %w", err)
	}
	return out, nil
}
