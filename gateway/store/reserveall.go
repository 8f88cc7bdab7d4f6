package store

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/google/uuid"
)

// reserveAll takes the keys of a batch's creates in one statement before
// any of them runs, on PostgreSQL, where each create's reservation was a
// round trip of its own in the committer (see recordAll). A create whose
// key is taken already (by an earlier create, another attempt, or one
// before it in the batch) is left to tryReserve, which says why; so is
// every create when the statement fails.
func (g *group) reserveAll(batch []*txCreate) {
	var live []*txCreate
	for _, m := range batch {
		if m.txCtx.Err() == nil {
			live = append(live, m)
		}
	}
	if len(live) < 2 || !g.begin(live[0]) {
		return // one reservation is one round trip either way
	}
	// In key order, so that two replicas' batches wait for each other's
	// keys in the same order, never each for the other (a deadlock
	// PostgreSQL would break only after its deadlock_timeout). Stable:
	// of a key repeated in the batch, the first still takes it.
	slices.SortStableFunc(live, func(a, b *txCreate) int {
		return cmp.Or(strings.Compare(a.c.Account, b.c.Account), strings.Compare(a.c.Key, b.c.Key))
	})
	s := g.s
	now := s.now()
	rows := make([]string, len(live))
	args := make([]any, 0, 6*len(live))
	for i, m := range live {
		m.won = &won{attempt: uuid.NewString(), created: millis(now)}
		rows[i] = "(?, ?, ?, 'pending', ?, ?, ?)"
		args = append(args, m.c.Account, m.c.Key, m.c.Fingerprint, m.won.attempt, millis(now.Add(s.lease)), millis(now))
	}
	r, err := g.tx.QueryContext(g.ctx, s.q(`INSERT INTO gateway_create_memo
		(account, client_request_id, fingerprint, state, attempt, lease_until_ms, created_ms)
		VALUES `+strings.Join(rows, ", ")+`
		ON CONFLICT (account, client_request_id) DO NOTHING RETURNING attempt`), args...)
	if err != nil {
		g.unreserve(live, err)
		return
	}
	took := map[string]bool{}
	for r.Next() {
		var attempt string
		if err = r.Scan(&attempt); err != nil {
			break
		}
		took[attempt] = true
	}
	if err == nil {
		err = r.Err()
	}
	r.Close()
	if err != nil {
		g.unreserve(live, err)
		return
	}
	for _, m := range live {
		if took[m.won.attempt] {
			m.wonIn = g.tx
		} else {
			m.won = nil
		}
	}
}

// unreserve gives up the batch's reservations with the transaction that
// failed to take them: each create reserves on its own.
func (g *group) unreserve(live []*txCreate, cause error) {
	for _, m := range live {
		m.won = nil
	}
	_ = g.tx.Rollback()
	g.tx = nil
	g.s.log.Warn("reserving a batch of creates failed; each reserves on its own", "error", cause)
}

// reserved reports whether m holds a reservation reserveAll took in the
// group's transaction (not one rolled back since).
func (g *group) reserved(m *txCreate) bool { return m.won != nil && m.wonIn != nil && m.wonIn == g.tx }

// release drops the reservation reserveAll took for m, which did not
// create: its key is free for a retry once the group commits. A failure
// loses the transaction with the group's creates.
func (g *group) release(m *txCreate) {
	attempt := m.won.attempt
	m.won, m.wonIn = nil, nil
	if _, err := g.tx.ExecContext(g.ctx, g.s.q(`DELETE FROM gateway_create_memo
		WHERE account = ? AND client_request_id = ? AND state = 'pending' AND attempt = ?`),
		m.c.Account, m.c.Key, attempt); err != nil {
		g.discard(fmt.Errorf("releasing a failed create's key: %w", err))
	}
}

// begin begins the group's transaction if it has none, in m's time; on a
// failure m holds it.
func (g *group) begin(m *txCreate) bool {
	if g.tx != nil {
		return true
	}
	g.ctx = context.WithoutCancel(m.txCtx)
	tx, err := g.s.db.BeginTx(g.ctx, nil)
	if err != nil {
		m.err = fmt.Errorf("%w: %v", ErrNotCommitted, err)
		return false
	}
	g.tx = tx
	return true
}
