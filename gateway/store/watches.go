package store

import (
	"cmp"
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"
	"time"
)

// Watch is a subscribed artifact on a polled forge, as the poll driver
// keeps it.
type Watch struct {
	Artifact
	// State is what the source kept from the last poll (validators, what it
	// saw); nil before the first.
	State []byte
	// Created is when the watch began: changes made after it are news even
	// on the first poll.
	Created time.Time
	// Polls counts the claims, this one included.
	Polls int64
	// lease identifies the claim, so a poll that outlived its lease cannot
	// overwrite the state of the replica that took the watch over.
	lease string
}

const watchKey = `provider, host, repo, kind, number`

// SyncWatches starts watching every artifact of forge f that a
// subscription names and nothing watches yet (its first poll at first(a)),
// and stops watching artifacts nothing subscribes to any more.
func (s *Store) SyncWatches(ctx context.Context, f Forge, first func(Artifact) time.Time) error {
	rows, err := s.db.QueryContext(ctx, s.q(`SELECT DISTINCT s.repo, s.kind, s.number FROM gateway_subscriptions s
		WHERE s.provider = ? AND s.host = ? AND NOT EXISTS (
			SELECT 1 FROM gateway_watches w WHERE w.provider = s.provider AND w.host = s.host
				AND w.repo = s.repo AND w.kind = s.kind AND w.number = s.number)`),
		providerColumn(f.Provider), f.Host)
	if err != nil {
		return fmt.Errorf("sync watches: %w", err)
	}
	var missing []Artifact
	for rows.Next() {
		a := Artifact{Forge: f}
		var kind string
		var number int64
		if err := rows.Scan(&a.Repo, &kind, &number); err != nil {
			rows.Close()
			return fmt.Errorf("sync watches: %w", err)
		}
		a.Kind, a.Number = Kind(kind), uint64(number)
		missing = append(missing, a)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("sync watches: %w", err)
	}
	now := millis(s.now())
	for _, a := range missing {
		if _, err := s.db.ExecContext(ctx, s.q(`INSERT INTO gateway_watches (`+watchKey+`, next_poll_ms, created_ms)
			VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (`+watchKey+`) DO NOTHING`),
			providerColumn(f.Provider), f.Host, a.Repo, string(a.Kind), int64(a.Number), millis(first(a)), now); err != nil {
			return fmt.Errorf("sync watches: %w", err)
		}
	}
	_, err = s.db.ExecContext(ctx, s.q(`DELETE FROM gateway_watches WHERE provider = ? AND host = ? AND NOT EXISTS (
			SELECT 1 FROM gateway_subscriptions s WHERE s.provider = gateway_watches.provider AND s.host = gateway_watches.host
				AND s.repo = gateway_watches.repo AND s.kind = gateway_watches.kind AND s.number = gateway_watches.number)`),
		providerColumn(f.Provider), f.Host)
	if err != nil {
		return fmt.Errorf("sync watches: %w", err)
	}
	return nil
}

// Claim asks for due watches of one forge.
type Claim struct {
	Forge Forge
	// Owner names the claimant (a replica and its claim); FinishWatch
	// checks it.
	Owner string
	// Interval moves each claimed watch's next poll one interval on, from
	// when it was due (so polls keep their place in the interval) or from
	// now when it is late by more than that.
	Interval time.Duration
	// Lease is how long the claimant holds a watch.
	Lease time.Duration
	// Covered skips repositories that had a signed webhook delivery this
	// recently: their webhooks report the changes.
	Covered time.Duration
	Limit   int
}

// ClaimWatches leases up to c.Limit watches that are due, not leased and
// still subscribed. Concurrent claimants (other replicas on the same
// PostgreSQL) never get the same watch, and a claimed watch is not due
// again before the next interval, so each is polled once per interval.
func (s *Store) ClaimWatches(ctx context.Context, c Claim) ([]Watch, error) {
	now := millis(s.now())
	interval := c.Interval.Milliseconds()
	lock := ""
	if s.dialect == Postgres {
		lock = ` FOR UPDATE SKIP LOCKED`
	}
	rows, err := s.db.QueryContext(ctx, s.q(`UPDATE gateway_watches SET
			lease_owner = ?, lease_until_ms = ?, polls = polls + 1,
			next_poll_ms = CASE WHEN next_poll_ms + ? > ? THEN next_poll_ms + ? ELSE ? END
		WHERE (`+watchKey+`) IN (
			SELECT w.provider, w.host, w.repo, w.kind, w.number FROM gateway_watches w
			WHERE w.provider = ? AND w.host = ? AND w.next_poll_ms <= ? AND w.lease_until_ms <= ?
				AND EXISTS (SELECT 1 FROM gateway_subscriptions s WHERE s.provider = w.provider AND s.host = w.host
					AND s.repo = w.repo AND s.kind = w.kind AND s.number = w.number)
				AND NOT EXISTS (SELECT 1 FROM gateway_webhook_repos r WHERE r.provider = w.provider AND r.host = w.host
					AND r.repo = LOWER(w.repo) AND r.last_ms > ?)
			ORDER BY w.next_poll_ms LIMIT ?`+lock+`)
		RETURNING `+watchKey+`, state, polls, created_ms`),
		c.Owner, now+c.Lease.Milliseconds(), interval, now, interval, now+interval,
		providerColumn(c.Forge.Provider), c.Forge.Host, now, now, now-c.Covered.Milliseconds(), max(c.Limit, 1))
	if err != nil {
		return nil, fmt.Errorf("claim watches: %w", err)
	}
	defer rows.Close()
	var out []Watch
	for rows.Next() {
		w := Watch{lease: c.Owner}
		var provider, kind string
		var number, polls, created int64
		if err := rows.Scan(&provider, &w.Forge.Host, &w.Repo, &kind, &number, &w.State, &polls, &created); err != nil {
			return nil, fmt.Errorf("claim watches: %w", err)
		}
		if w.Forge.Provider, err = parseProvider(provider); err != nil {
			return nil, err
		}
		w.Kind, w.Number, w.Polls, w.Created = Kind(kind), uint64(number), polls, fromMillis(created)
		out = append(out, w)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("claim watches: %w", err)
	}
	// RETURNING follows no order: give the caller a stable one.
	slices.SortFunc(out, func(a, b Watch) int {
		return cmp.Or(strings.Compare(a.Repo, b.Repo), strings.Compare(string(a.Kind), string(b.Kind)), cmp.Compare(a.Number, b.Number))
	})
	return out, nil
}

// FinishWatch stores the state a poll left and releases the watch; a
// non-zero next moves its next poll (a backoff). It reports false, storing
// nothing, when the lease was lost.
func (s *Store) FinishWatch(ctx context.Context, w Watch, state []byte, next time.Time) (bool, error) {
	state = s.redactBytes(state)
	var res sql.Result
	var err error
	key := []any{providerColumn(w.Forge.Provider), w.Forge.Host, w.Repo, string(w.Kind), int64(w.Number), w.lease}
	if next.IsZero() {
		res, err = s.db.ExecContext(ctx, s.q(`UPDATE gateway_watches SET state = ?, lease_owner = '', lease_until_ms = 0
			WHERE provider = ? AND host = ? AND repo = ? AND kind = ? AND number = ? AND lease_owner = ?`),
			append([]any{state}, key...)...)
	} else {
		res, err = s.db.ExecContext(ctx, s.q(`UPDATE gateway_watches SET state = ?, lease_owner = '', lease_until_ms = 0, next_poll_ms = ?
			WHERE provider = ? AND host = ? AND repo = ? AND kind = ? AND number = ? AND lease_owner = ?`),
			append([]any{state, millis(next)}, key...)...)
	}
	if err != nil {
		return false, fmt.Errorf("finish watch: %w", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, fmt.Errorf("finish watch: %w", err)
	}
	return n == 1, nil
}

// PollBackoff is when forge f may be polled again after a rate limit; the
// zero time when it may be polled now.
func (s *Store) PollBackoff(ctx context.Context, f Forge) (time.Time, error) {
	var until int64
	err := s.db.QueryRowContext(ctx, s.q(`SELECT until_ms FROM gateway_poll_backoff WHERE provider = ? AND host = ?`),
		providerColumn(f.Provider), f.Host).Scan(&until)
	switch {
	case err == sql.ErrNoRows:
		return time.Time{}, nil
	case err != nil:
		return time.Time{}, fmt.Errorf("poll backoff: %w", err)
	case until <= millis(s.now()):
		return time.Time{}, nil
	}
	return fromMillis(until), nil
}

// SetPollBackoff keeps every replica from polling forge f before until
// (a later backoff already set is kept).
func (s *Store) SetPollBackoff(ctx context.Context, f Forge, until time.Time) error {
	_, err := s.db.ExecContext(ctx, s.q(`INSERT INTO gateway_poll_backoff (provider, host, until_ms) VALUES (?, ?, ?)
		ON CONFLICT (provider, host) DO UPDATE SET until_ms =
			CASE WHEN excluded.until_ms > gateway_poll_backoff.until_ms THEN excluded.until_ms ELSE gateway_poll_backoff.until_ms END`),
		providerColumn(f.Provider), f.Host, millis(until))
	if err != nil {
		return fmt.Errorf("set poll backoff: %w", err)
	}
	return nil
}
