package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
)

// Change is one change to a watched artifact, as a source reports it, before
// it is recorded for the subscriptions that watch the artifact.
type Change struct {
	// Type is the event type's model name ("comment", "review", ...).
	Type string
	// ArtifactKind and ArtifactID name the comment or review the change
	// created, as ownership records name it (KindIssueComment, "1234"), so
	// a change the subscriber made through the gateway reads as its own.
	ArtifactKind Kind
	ArtifactID   string
	// ActorAccount is the gateway account that made the change, when the
	// source knows (the local forge does; a forge's API does not).
	ActorAccount string
	// DedupKey names the change: the same key for the same artifact is
	// recorded once per subscription, however often it is reported.
	DedupKey string
	// Payload is the event as the source described it (a serialized
	// forgetools.forge.v1.Event); the store does not read it.
	Payload []byte
}

// Recorded is one event a RecordChanges call stored.
type Recorded struct {
	Account        string
	SubscriptionID string
	Cursor         uint64
}

// RecordChanges stores changes to the artifact a (Kind KindIssue or
// KindPullRequest) for every subscription that watches it, in the order
// given, and returns what it stored. Changes whose DedupKey a subscription
// already has are skipped for it. Nothing is stored when nothing
// subscribes.
func (s *Store) RecordChanges(ctx context.Context, a Artifact, changes []Change) ([]Recorded, error) {
	if len(changes) == 0 {
		return nil, nil
	}
	var out []Recorded
	var err error
	// A subscription removed while its events are being written fails
	// the insert (its foreign key): try again with the subscribers left.
	for attempt := 0; attempt < 3; attempt++ {
		if out, err = s.recordChanges(ctx, a, changes); err == nil || ctx.Err() != nil {
			break
		}
	}
	if err != nil {
		return nil, fmt.Errorf("record changes: %w", err)
	}
	return out, nil
}

func (s *Store) recordChanges(ctx context.Context, a Artifact, changes []Change) ([]Recorded, error) {
	var out []Recorded
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		subs, err := s.watchers(ctx, tx, a)
		if err != nil || len(subs) == 0 {
			return err
		}
		out, err = s.insertEvents(ctx, tx, subs, changes)
		return err
	})
	return out, err
}

// insertEvents stores each change for each of subs under the next
// cursors, in tx.
func (s *Store) insertEvents(ctx context.Context, tx *sql.Tx, subs []Subscription, changes []Change) ([]Recorded, error) {
	// The cursor row: on PostgreSQL its row lock queues writers until
	// each commits, so cursors become visible in order (on SQLite the
	// transaction holds the database's write lock already). Writes to
	// artifacts nobody watches never take it.
	var last int64
	if err := tx.QueryRowContext(ctx, `UPDATE gateway_event_seq SET last = last WHERE id = 1 RETURNING last`).Scan(&last); err != nil {
		return nil, err
	}
	var out []Recorded
	now := millis(s.now())
	for _, c := range changes {
		c.ArtifactID, c.DedupKey = s.redact(c.ArtifactID), s.redact(c.DedupKey)
		for _, sub := range subs {
			res, err := tx.ExecContext(ctx, s.q(`INSERT INTO gateway_events
				(seq, subscription_id, account, type, artifact_kind, artifact_id, actor_account, dedup_key, payload, recorded_ms)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
				ON CONFLICT (subscription_id, dedup_key) DO NOTHING`),
				last+1, sub.ID, sub.Account, c.Type, string(c.ArtifactKind), c.ArtifactID, c.ActorAccount, c.DedupKey, c.Payload, now)
			if err != nil {
				return nil, err
			}
			if n, err := res.RowsAffected(); err != nil {
				return nil, err
			} else if n == 1 {
				last++
				out = append(out, Recorded{Account: sub.Account, SubscriptionID: sub.ID, Cursor: uint64(last)})
			}
		}
	}
	if _, err := tx.ExecContext(ctx, s.q(`UPDATE gateway_event_seq SET last = ? WHERE id = 1`), last); err != nil {
		return nil, err
	}
	return out, nil
}

// watchers are the subscriptions to one artifact. Forges name a
// repository in any case, and a subscription may spell it otherwise than
// an event source does, so the names match ignoring (ASCII) case.
func (s *Store) watchers(ctx context.Context, tx *sql.Tx, a Artifact) ([]Subscription, error) {
	rows, err := tx.QueryContext(ctx, s.q(`SELECT `+subscriptionColumns+` FROM gateway_subscriptions
		WHERE provider = ? AND host = ? AND LOWER(repo) = LOWER(?) AND kind = ? AND number = ? ORDER BY id`),
		providerColumn(a.Forge.Provider), a.Forge.Host, a.Repo, string(a.Kind), int64(a.Number))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Subscription
	for rows.Next() {
		sub, err := s.scanSubscription(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, sub)
	}
	return out, rows.Err()
}

// Event is a stored event as a subscriber reads it.
type Event struct {
	Cursor       uint64
	Subscription Subscription
	// Own: the subscriber's account made the change (the source said so,
	// or an ownership record names the comment or review).
	Own     bool
	Payload []byte
}

// EventQuery asks for one session's events.
type EventQuery struct {
	Account, Session string
	// SubscriptionID narrows the stream to one subscription; "" is every
	// subscription of the account. Each has its own acknowledged cursor.
	SubscriptionID string
	// After, when set, acknowledges the stream up to this cursor before
	// reading (never backwards, never past the last cursor recorded).
	After *uint64
	// Limit caps the events returned (at least 1).
	Limit int
	// InScope, when set, leaves out events of subscriptions whose
	// forge and repository it refuses.
	InScope func(forge *forgev1.ForgeRef, repo string) bool
}

// EventPage is a page of events after the stream's acknowledged cursor.
type EventPage struct {
	Events []Event
	// Next is the cursor to acknowledge the page with: the last event's,
	// or the acknowledged cursor when the page is empty.
	Next uint64
	// More: events follow Next.
	More bool
}

// ReadEvents acknowledges q.After (when set) and returns the events after
// the stream's acknowledged cursor, oldest first. Reading alone moves
// nothing: until a later call acknowledges a page, it is returned again.
func (s *Store) ReadEvents(ctx context.Context, q EventQuery) (EventPage, error) {
	if q.Limit < 1 {
		q.Limit = 1
	}
	var page EventPage
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		page = EventPage{}
		acked, err := s.acknowledge(ctx, tx, q.Account, q.Session, q.SubscriptionID, q.After)
		if err != nil {
			return err
		}
		page.Next = acked
		from := acked
		for {
			batch, err := s.eventsAfter(ctx, tx, q.Account, q.SubscriptionID, from, q.Limit+1)
			if err != nil {
				return err
			}
			for _, e := range batch {
				from = e.Cursor
				// The approval stream is the account's own gateway state,
				// on no forge: its events answer calls the account made.
				if q.InScope != nil && e.Subscription.Kind != KindApproval && !q.InScope(e.Subscription.Forge.Ref(), e.Subscription.Repo) {
					continue
				}
				if len(page.Events) == q.Limit {
					page.More = true
					return nil
				}
				page.Events = append(page.Events, e)
				page.Next = e.Cursor
			}
			if len(batch) <= q.Limit {
				return nil
			}
		}
	})
	if err != nil {
		return EventPage{}, fmt.Errorf("read events: %w", err)
	}
	return page, nil
}

// acknowledge moves the stream's cursor up to after (if given) and returns
// the acknowledged cursor.
func (s *Store) acknowledge(ctx context.Context, tx *sql.Tx, account, session, stream string, after *uint64) (uint64, error) {
	if after != nil {
		var last int64
		if err := tx.QueryRowContext(ctx, `SELECT last FROM gateway_event_seq WHERE id = 1`).Scan(&last); err != nil {
			return 0, err
		}
		// A cursor from the future would skip events not yet recorded.
		to := int64(min(*after, uint64(last)))
		_, err := tx.ExecContext(ctx, s.q(`INSERT INTO gateway_event_cursors (account, session, stream, acked, updated_ms)
			VALUES (?, ?, ?, ?, ?)
			ON CONFLICT (account, session, stream) DO UPDATE SET
				acked = CASE WHEN excluded.acked > gateway_event_cursors.acked THEN excluded.acked ELSE gateway_event_cursors.acked END,
				updated_ms = excluded.updated_ms`),
			account, session, stream, to, millis(s.now()))
		if err != nil {
			return 0, err
		}
	}
	var acked int64
	err := tx.QueryRowContext(ctx, s.q(`SELECT acked FROM gateway_event_cursors WHERE account = ? AND session = ? AND stream = ?`),
		account, session, stream).Scan(&acked)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	return uint64(acked), err
}

// eventsAfter reads up to limit of the account's events after a cursor
// (of one subscription when sub is not ""), marking its own.
func (s *Store) eventsAfter(ctx context.Context, q queryer, account, sub string, after uint64, limit int) ([]Event, error) {
	query := `SELECT e.seq, e.payload,
			CASE WHEN e.actor_account = e.account OR EXISTS (
				SELECT 1 FROM gateway_ownership o
				WHERE o.account = e.account AND o.artifact_id = e.artifact_id AND o.kind = e.artifact_kind
					AND o.provider = s.provider AND o.host = s.host AND e.artifact_id <> ''
			) THEN 1 ELSE 0 END,
			` + prefixed("s.", subscriptionColumns) + `
		FROM gateway_events e JOIN gateway_subscriptions s ON s.id = e.subscription_id
		WHERE e.account = ? AND e.seq > ?`
	args := []any{account, int64(after)}
	if sub != "" {
		query += ` AND e.subscription_id = ?`
		args = append(args, sub)
	}
	query += ` ORDER BY e.seq LIMIT ?`
	args = append(args, limit)
	rows, err := q.QueryContext(ctx, s.q(query), args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Event
	for rows.Next() {
		var (
			e        Event
			seq, own int64
		)
		sub, err := s.scanSubscription(scanFunc(func(dest ...any) error {
			return rows.Scan(append([]any{&seq, &e.Payload, &own}, dest...)...)
		}))
		if err != nil {
			return nil, err
		}
		e.Cursor, e.Own, e.Subscription = uint64(seq), own == 1, sub
		out = append(out, e)
	}
	return out, rows.Err()
}

// Pending says which of the account's subscriptions (or the one named)
// have events after a cursor, and the newest cursor among all their
// events (0 when there are none). A nil after means the session's
// acknowledged cursor of that stream.
func (s *Store) Pending(ctx context.Context, account, session, sub string, after *uint64) (latest uint64, subs []string, err error) {
	err = func() error {
		tx := s.db
		from := uint64(0)
		if after != nil {
			from = *after
		} else {
			var acked int64
			err := tx.QueryRowContext(ctx, s.q(`SELECT acked FROM gateway_event_cursors WHERE account = ? AND session = ? AND stream = ?`),
				account, session, sub).Scan(&acked)
			if err != nil && !errors.Is(err, sql.ErrNoRows) {
				return err
			}
			from = uint64(acked)
		}
		query := `SELECT COALESCE(MAX(seq), 0) FROM gateway_events WHERE account = ?`
		args := []any{account}
		if sub != "" {
			query += ` AND subscription_id = ?`
			args = append(args, sub)
		}
		var newest int64
		if err := tx.QueryRowContext(ctx, s.q(query), args...).Scan(&newest); err != nil {
			return err
		}
		latest = uint64(newest)
		if latest <= from {
			return nil
		}
		query = `SELECT DISTINCT subscription_id FROM gateway_events WHERE account = ? AND seq > ?`
		args = []any{account, int64(from)}
		if sub != "" {
			query += ` AND subscription_id = ?`
			args = append(args, sub)
		}
		rows, err := tx.QueryContext(ctx, s.q(query+` ORDER BY subscription_id`), args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var id string
			if err := rows.Scan(&id); err != nil {
				return err
			}
			subs = append(subs, id)
		}
		return rows.Err()
	}()
	if err != nil {
		return 0, nil, fmt.Errorf("pending events: %w", err)
	}
	return latest, subs, nil
}

// PruneEvents deletes events recorded before cutoff, and the webhook
// delivery ids received before it (a redelivery that old is not coming).
func (s *Store) PruneEvents(ctx context.Context, cutoff time.Time) (int64, error) {
	res, err := s.db.ExecContext(ctx, s.q(`DELETE FROM gateway_events WHERE recorded_ms < ?`), millis(cutoff))
	if err != nil {
		return 0, fmt.Errorf("prune events: %w", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return 0, fmt.Errorf("prune events: %w", err)
	}
	if _, err := s.db.ExecContext(ctx, s.q(`DELETE FROM gateway_webhook_deliveries WHERE received_ms < ?`), millis(cutoff)); err != nil {
		return n, fmt.Errorf("prune webhook deliveries: %w", err)
	}
	return n, nil
}

// prefixed qualifies each column of a comma-separated list: "s.id, s.account".
func prefixed(prefix, columns string) string {
	parts := strings.Split(columns, ", ")
	for i, p := range parts {
		parts[i] = prefix + p
	}
	return strings.Join(parts, ", ")
}

// queryer is what both *sql.DB and *sql.Tx offer for reads.
type queryer interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// scanFunc adapts a function to scanner, for rows with columns before a
// subscription's.
type scanFunc func(dest ...any) error

func (f scanFunc) Scan(dest ...any) error { return f(dest...) }
