package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// FlowRead is one thing a session read that the gateway's information-flow
// rules remember: a repository it read from (Untrusted false), or text in
// it by an author outside the account's trusted authors (Untrusted true).
type FlowRead struct {
	Account string
	Session string
	Forge   Forge
	Repo    string
	// Untrusted marks text by an author the account does not trust.
	Untrusted bool
	// Tool is the tool that read it, as the model names it.
	Tool string
	// Artifact names what was read ("issue #3"); empty for a repository
	// read.
	Artifact string
	// Author is who wrote the text; empty for a repository read.
	Author string
	// Visibility is the repository's visibility when it was read, for a
	// repository read.
	Visibility string
	Read       time.Time
}

// maxFlowReads bounds what one session's flow check loads: enough to name
// every tainting read an operator needs to see, and a bound on the cost of
// a session that has read a great deal.
const maxFlowReads = 500

// RecordFlowReads adds reads of one session; a read already recorded is
// left as it was (its first time stands). A zero Read means now.
func (s *Store) RecordFlowReads(ctx context.Context, reads []FlowRead) error {
	if len(reads) == 0 {
		return nil
	}
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		for _, r := range reads {
			if r.Read.IsZero() {
				r.Read = s.now()
			}
			untrusted := 0
			if r.Untrusted {
				untrusted = 1
			}
			if _, err := tx.ExecContext(ctx, s.q(`INSERT INTO gateway_flow_reads
				(account, session, provider, host, repo, untrusted, tool, artifact, author, visibility, read_ms)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`),
				r.Account, r.Session, providerColumn(r.Forge.Provider), r.Forge.Host, r.Repo, untrusted,
				r.Tool, r.Artifact, r.Author, r.Visibility, millis(r.Read)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("record flow reads: %w", err)
	}
	return nil
}

// FlowReadsAnyOf reports whether the session has recorded a read the
// flow check would act on: with untrusted, any untrusted read; with
// elsewhere, any repository read of a place other than the write's
// target (forge and repo, compared exactly as stored, so a read differing
// only in case counts and the caller's own comparison decides). It reads
// one indexed row at most, so a write whose session read nothing that
// matters costs no more; only a true answer needs FlowReads.
func (s *Store) FlowReadsAnyOf(ctx context.Context, account, session string, untrusted, elsewhere bool, target Forge, repo string) (bool, error) {
	if !untrusted && !elsewhere {
		return false, nil
	}
	var one int
	err := s.db.QueryRowContext(ctx, s.q(`SELECT 1 FROM gateway_flow_reads WHERE account = ? AND session = ?
		AND ((? = 1 AND untrusted = 1) OR (? = 1 AND untrusted = 0 AND NOT (provider = ? AND host = ? AND repo = ?)))
		LIMIT 1`), account, session, boolColumn(untrusted), boolColumn(elsewhere),
		providerColumn(target.Provider), target.Host, repo).Scan(&one)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return false, nil
	case err != nil:
		return false, fmt.Errorf("probe flow reads: %w", err)
	}
	return true, nil
}

func boolColumn(b bool) int {
	if b {
		return 1
	}
	return 0
}

// FlowReads lists what a session has read, oldest first, at most
// maxFlowReads rows (untrusted reads first, so a long session still names
// what tainted it).
func (s *Store) FlowReads(ctx context.Context, account, session string) ([]FlowRead, error) {
	rows, err := s.db.QueryContext(ctx, s.q(`SELECT provider, host, repo, untrusted, tool, artifact, author, visibility, read_ms
		FROM gateway_flow_reads WHERE account = ? AND session = ?
		ORDER BY untrusted DESC, read_ms, repo, artifact, author LIMIT ?`), account, session, maxFlowReads)
	if err != nil {
		return nil, fmt.Errorf("list flow reads: %w", err)
	}
	defer rows.Close()
	var out []FlowRead
	for rows.Next() {
		r := FlowRead{Account: account, Session: session}
		var (
			provider          string
			untrusted, readMS int64
		)
		if err := rows.Scan(&provider, &r.Forge.Host, &r.Repo, &untrusted, &r.Tool, &r.Artifact, &r.Author, &r.Visibility, &readMS); err != nil {
			return nil, fmt.Errorf("list flow reads: %w", err)
		}
		if r.Forge.Provider, err = parseProvider(provider); err != nil {
			return nil, err
		}
		r.Untrusted, r.Read = untrusted != 0, fromMillis(readMS)
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list flow reads: %w", err)
	}
	return out, nil
}
