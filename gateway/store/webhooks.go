package store

import (
	"context"
	"fmt"
	"strings"
)

// RecordDelivery notes a signed webhook delivery from forge f by the forge's
// delivery id. It reports false when the id was recorded before: a
// redelivery, whose changes are already stored.
func (s *Store) RecordDelivery(ctx context.Context, f Forge, id string) (bool, error) {
	id = s.redact(id) // a forge's header: kept as Delivered looks it up
	res, err := s.db.ExecContext(ctx, s.q(`INSERT INTO gateway_webhook_deliveries (provider, host, delivery_id, received_ms)
		VALUES (?, ?, ?, ?) ON CONFLICT (provider, host, delivery_id) DO NOTHING`),
		providerColumn(f.Provider), f.Host, id, millis(s.now()))
	if err != nil {
		return false, fmt.Errorf("record webhook delivery: %w", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, fmt.Errorf("record webhook delivery: %w", err)
	}
	return n == 1, nil
}

// Delivered reports whether a webhook delivery id was recorded.
func (s *Store) Delivered(ctx context.Context, f Forge, id string) (bool, error) {
	id = s.redact(id)
	var n int
	err := s.db.QueryRowContext(ctx, s.q(`SELECT COUNT(*) FROM gateway_webhook_deliveries
		WHERE provider = ? AND host = ? AND delivery_id = ?`), providerColumn(f.Provider), f.Host, id).Scan(&n)
	if err != nil {
		return false, fmt.Errorf("webhook delivery: %w", err)
	}
	return n > 0, nil
}

// CoverRepo notes that a signed webhook delivery came from repo on forge f:
// for a while the poll driver leaves the repository's watches alone.
func (s *Store) CoverRepo(ctx context.Context, f Forge, repo string) error {
	_, err := s.db.ExecContext(ctx, s.q(`INSERT INTO gateway_webhook_repos (provider, host, repo, last_ms) VALUES (?, ?, ?, ?)
		ON CONFLICT (provider, host, repo) DO UPDATE SET last_ms = excluded.last_ms`),
		providerColumn(f.Provider), f.Host, strings.ToLower(repo), millis(s.now()))
	if err != nil {
		return fmt.Errorf("webhook coverage: %w", err)
	}
	return nil
}

// SubscribedRepos lists how subscriptions on forge f spell repo, matched
// without case (a forge's webhook names the repository its own way).
func (s *Store) SubscribedRepos(ctx context.Context, f Forge, repo string) ([]string, error) {
	rows, err := s.db.QueryContext(ctx, s.q(`SELECT DISTINCT repo FROM gateway_subscriptions
		WHERE provider = ? AND host = ? AND LOWER(repo) = ? ORDER BY repo`),
		providerColumn(f.Provider), f.Host, strings.ToLower(repo))
	if err != nil {
		return nil, fmt.Errorf("subscribed repositories: %w", err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var r string
		if err := rows.Scan(&r); err != nil {
			return nil, fmt.Errorf("subscribed repositories: %w", err)
		}
		out = append(out, r)
	}
	return out, rows.Err()
}
