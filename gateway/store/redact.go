package store

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"fmt"
	"slices"
	"unicode/utf8"

	"github.com/forgetools/forgetools/internal/redact"
)

// Every text the store writes that a forge (or anyone) could have filled
// with a credential goes through the store's redactor first: the
// ownership row's URL, tool, repository and artifact id, an event's keys,
// a webhook delivery id, a poll's state. An event's payload is a
// serialized message the store does not read: its writer redacts it
// (subscriptions/feed), and Scrub takes a function that does.

// SetRedactor makes every later write redact with r; the gateway sets it
// to the credentials it is configured with.
func (s *Store) SetRedactor(r *redact.Redactor) { s.redactor.Store(r) }

// Redactor is the redactor SetRedactor set (nil: none).
func (s *Store) Redactor() *redact.Redactor { return s.redactor.Load() }

// redact is text as the store may write it.
func (s *Store) redact(text string) string { return s.redactor.Load().String(text) }

// redactBytes is a text column kept as bytes (a poll's state): redacted
// when it is text; binary state holds no forge text.
func (s *Store) redactBytes(b []byte) []byte {
	if r := s.redactor.Load(); !r.Empty() && utf8.Valid(b) {
		if out := r.String(string(b)); out != string(b) {
			return []byte(out)
		}
	}
	return b
}

// redactOwnership is o as the store writes it.
func (s *Store) redactOwnership(o Ownership) Ownership {
	o.URL, o.Tool, o.Repo, o.ID = s.redact(o.URL), s.redact(o.Tool), s.redact(o.Repo), s.redact(o.ID)
	o.Session = s.redact(o.Session)
	return o
}

// ScrubDigest names a redaction of secrets by r's version: what Scrub
// records as done. It is a SHA-256 of secrets of at least 16 random
// bytes each (the gateway's shortest), which reveals none of them.
func ScrubDigest(secrets []string) string {
	sorted := slices.Clone(secrets)
	slices.Sort(sorted)
	h := sha256.New()
	fmt.Fprintf(h, "forgetools scrub v%d\x00", redact.Version)
	for _, sec := range sorted {
		fmt.Fprintf(h, "%d:%s\x00", len(sec), sec)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// Scrub redacts, with the store's redactor, every row already stored that
// a forge could have filled (rows written before redaction came first, or
// before a credential was configured), unless a scrub with digest already
// ran; payload redacts an event's payload. It reports how many rows
// changed. On SQLite it then checkpoints the write-ahead log, so the old
// text is not left in it.
func (s *Store) Scrub(ctx context.Context, digest string, payload func([]byte) ([]byte, error)) (int, error) {
	if s.redactor.Load().Empty() {
		return 0, nil
	}
	var done int
	if err := s.db.QueryRowContext(ctx, s.q(`SELECT COUNT(*) FROM gateway_redaction_scrubs WHERE digest = ?`), digest).Scan(&done); err != nil {
		return 0, fmt.Errorf("scrub: %w", err)
	}
	if done > 0 {
		return 0, nil
	}
	changed := 0
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		n, err := s.scrubOwnership(ctx, tx)
		if err != nil {
			return fmt.Errorf("ownership: %w", err)
		}
		changed += n
		if n, err = s.scrubEvents(ctx, tx, payload); err != nil {
			return fmt.Errorf("events: %w", err)
		}
		changed += n
		if n, err = s.scrubDeliveries(ctx, tx); err != nil {
			return fmt.Errorf("webhook deliveries: %w", err)
		}
		changed += n
		if n, err = s.scrubWatches(ctx, tx); err != nil {
			return fmt.Errorf("watches: %w", err)
		}
		changed += n
		_, err = tx.ExecContext(ctx, s.q(`INSERT INTO gateway_redaction_scrubs (digest, scrubbed_ms) VALUES (?, ?)
			ON CONFLICT (digest) DO NOTHING`), digest, millis(s.now()))
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("scrub: %w", err)
	}
	if s.dialect == SQLite && changed > 0 {
		if _, err := s.db.ExecContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`); err != nil {
			return changed, fmt.Errorf("scrub: checkpoint: %w", err)
		}
	}
	return changed, nil
}

func (s *Store) scrubOwnership(ctx context.Context, tx *sql.Tx) (int, error) {
	type row struct {
		id                        int64
		url, tool, repo, artifact string
		session                   string
	}
	rows, err := tx.QueryContext(ctx, `SELECT id, url, tool, repo, artifact_id, session FROM gateway_ownership`)
	if err != nil {
		return 0, err
	}
	var dirty []row
	for rows.Next() {
		var r row
		if err := rows.Scan(&r.id, &r.url, &r.tool, &r.repo, &r.artifact, &r.session); err != nil {
			rows.Close()
			return 0, err
		}
		c := row{r.id, s.redact(r.url), s.redact(r.tool), s.redact(r.repo), s.redact(r.artifact), s.redact(r.session)}
		if c != r {
			dirty = append(dirty, c)
		}
	}
	if err := rows.Close(); err != nil {
		return 0, err
	}
	for _, r := range dirty {
		if _, err := tx.ExecContext(ctx, s.q(`UPDATE gateway_ownership SET url = ?, tool = ?, repo = ?, artifact_id = ?, session = ? WHERE id = ?`),
			r.url, r.tool, r.repo, r.artifact, r.session, r.id); err != nil {
			return 0, err
		}
	}
	return len(dirty), nil
}

func (s *Store) scrubEvents(ctx context.Context, tx *sql.Tx, payload func([]byte) ([]byte, error)) (int, error) {
	type row struct {
		seq           int64
		artifact, key string
		payload       []byte
	}
	rows, err := tx.QueryContext(ctx, `SELECT seq, artifact_id, dedup_key, payload FROM gateway_events`)
	if err != nil {
		return 0, err
	}
	var dirty []row
	for rows.Next() {
		var r row
		if err := rows.Scan(&r.seq, &r.artifact, &r.key, &r.payload); err != nil {
			rows.Close()
			return 0, err
		}
		c := row{seq: r.seq, artifact: s.redact(r.artifact), key: s.redact(r.key), payload: r.payload}
		if payload != nil {
			if c.payload, err = payload(r.payload); err != nil {
				rows.Close()
				return 0, fmt.Errorf("event %d: %w", r.seq, err)
			}
		}
		if c.artifact != r.artifact || c.key != r.key || string(c.payload) != string(r.payload) {
			dirty = append(dirty, c)
		}
	}
	if err := rows.Close(); err != nil {
		return 0, err
	}
	for _, r := range dirty {
		// A redacted key may now equal another event's: that event is the
		// same change, so this copy goes.
		if _, err := tx.ExecContext(ctx, s.q(`DELETE FROM gateway_events WHERE seq <> ? AND dedup_key = ?
			AND subscription_id = (SELECT subscription_id FROM gateway_events WHERE seq = ?)`), r.seq, r.key, r.seq); err != nil {
			return 0, err
		}
		if _, err := tx.ExecContext(ctx, s.q(`UPDATE gateway_events SET artifact_id = ?, dedup_key = ?, payload = ? WHERE seq = ?`),
			r.artifact, r.key, r.payload, r.seq); err != nil {
			return 0, err
		}
	}
	return len(dirty), nil
}

func (s *Store) scrubDeliveries(ctx context.Context, tx *sql.Tx) (int, error) {
	type row struct{ provider, host, id string }
	rows, err := tx.QueryContext(ctx, `SELECT provider, host, delivery_id FROM gateway_webhook_deliveries`)
	if err != nil {
		return 0, err
	}
	var dirty []row
	for rows.Next() {
		var r row
		if err := rows.Scan(&r.provider, &r.host, &r.id); err != nil {
			rows.Close()
			return 0, err
		}
		if s.redact(r.id) != r.id {
			dirty = append(dirty, r)
		}
	}
	if err := rows.Close(); err != nil {
		return 0, err
	}
	for _, r := range dirty {
		// The id is the key: insert the redacted one (unless it is there),
		// then drop the old.
		if _, err := tx.ExecContext(ctx, s.q(`INSERT INTO gateway_webhook_deliveries (provider, host, delivery_id, received_ms)
			SELECT provider, host, ?, received_ms FROM gateway_webhook_deliveries WHERE provider = ? AND host = ? AND delivery_id = ?
			ON CONFLICT (provider, host, delivery_id) DO NOTHING`), s.redact(r.id), r.provider, r.host, r.id); err != nil {
			return 0, err
		}
		if _, err := tx.ExecContext(ctx, s.q(`DELETE FROM gateway_webhook_deliveries WHERE provider = ? AND host = ? AND delivery_id = ?`),
			r.provider, r.host, r.id); err != nil {
			return 0, err
		}
	}
	return len(dirty), nil
}

func (s *Store) scrubWatches(ctx context.Context, tx *sql.Tx) (int, error) {
	type row struct {
		provider, host, repo, kind string
		number                     int64
		state                      []byte
	}
	rows, err := tx.QueryContext(ctx, `SELECT provider, host, repo, kind, number, state FROM gateway_watches WHERE state IS NOT NULL`)
	if err != nil {
		return 0, err
	}
	var dirty []row
	for rows.Next() {
		var r row
		if err := rows.Scan(&r.provider, &r.host, &r.repo, &r.kind, &r.number, &r.state); err != nil {
			rows.Close()
			return 0, err
		}
		if c := s.redactBytes(r.state); string(c) != string(r.state) {
			r.state = c
			dirty = append(dirty, r)
		}
	}
	if err := rows.Close(); err != nil {
		return 0, err
	}
	for _, r := range dirty {
		if _, err := tx.ExecContext(ctx, s.q(`UPDATE gateway_watches SET state = ? WHERE provider = ? AND host = ? AND repo = ? AND kind = ? AND number = ?`),
			r.state, r.provider, r.host, r.repo, r.kind, r.number); err != nil {
			return 0, err
		}
	}
	return len(dirty), nil
}
