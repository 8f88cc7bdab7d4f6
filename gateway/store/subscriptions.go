package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
)

// ErrNotFound is returned for a subscription the account does not have.
var ErrNotFound = errors.New("not found")

// Subscription is an account's request to hear about changes to an issue or
// pull request.
type Subscription struct {
	ID      string
	Account string
	Forge   Forge
	Repo    string
	Kind    Kind // KindIssue or KindPullRequest
	Number  uint64
	Created time.Time
}

const subscriptionColumns = `id, account, provider, host, repo, kind, number, created_ms`

// Subscribe stores a subscription and returns it with its ID and creation
// time. Subscribing again to the same artifact returns the existing
// subscription, so a retried call does not pile up duplicates.
func (s *Store) Subscribe(ctx context.Context, sub Subscription) (Subscription, error) {
	sub.ID = uuid.NewString()
	sub.Created = s.now()
	_, err := s.db.ExecContext(ctx, s.q(`INSERT INTO gateway_subscriptions (`+subscriptionColumns+`)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (account, provider, host, repo, kind, number) DO NOTHING`),
		sub.ID, sub.Account, providerColumn(sub.Forge.Provider), sub.Forge.Host, sub.Repo, string(sub.Kind),
		int64(sub.Number), millis(sub.Created))
	if err != nil {
		return Subscription{}, fmt.Errorf("subscribe: %w", err)
	}
	got, err := s.scanSubscription(s.db.QueryRowContext(ctx, s.q(`SELECT `+subscriptionColumns+`
		FROM gateway_subscriptions
		WHERE account = ? AND provider = ? AND host = ? AND repo = ? AND kind = ? AND number = ?`),
		sub.Account, providerColumn(sub.Forge.Provider), sub.Forge.Host, sub.Repo, string(sub.Kind), int64(sub.Number)))
	if err != nil {
		return Subscription{}, fmt.Errorf("subscribe: %w", err)
	}
	return got, nil
}

// Subscription returns one of the account's subscriptions; another
// account's id is ErrNotFound, exactly like an unknown one.
func (s *Store) Subscription(ctx context.Context, account, id string) (Subscription, error) {
	sub, err := s.scanSubscription(s.db.QueryRowContext(ctx, s.q(`SELECT `+subscriptionColumns+`
		FROM gateway_subscriptions WHERE account = ? AND id = ?`), account, id))
	if errors.Is(err, sql.ErrNoRows) {
		return Subscription{}, ErrNotFound
	}
	if err != nil {
		return Subscription{}, fmt.Errorf("subscription: %w", err)
	}
	return sub, nil
}

// Unsubscribe deletes one of the account's subscriptions (ErrNotFound when
// it has no such subscription).
// Its events go with it, and so do the sessions' cursors of its stream.
func (s *Store) Unsubscribe(ctx context.Context, account, id string) error {
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, s.q(`DELETE FROM gateway_subscriptions WHERE account = ? AND id = ?`), account, id)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil {
			return err
		} else if n == 0 {
			return ErrNotFound
		}
		_, err = tx.ExecContext(ctx, s.q(`DELETE FROM gateway_event_cursors WHERE account = ? AND stream = ?`), account, id)
		return err
	})
	if err != nil && !errors.Is(err, ErrNotFound) {
		return fmt.Errorf("unsubscribe: %w", err)
	}
	return err
}

// Subscriptions lists an account's subscriptions, oldest first.
func (s *Store) Subscriptions(ctx context.Context, account string) ([]Subscription, error) {
	rows, err := s.db.QueryContext(ctx, s.q(`SELECT `+subscriptionColumns+`
		FROM gateway_subscriptions WHERE account = ? ORDER BY created_ms, id`), account)
	if err != nil {
		return nil, fmt.Errorf("list subscriptions: %w", err)
	}
	defer rows.Close()
	var out []Subscription
	for rows.Next() {
		sub, err := s.scanSubscription(rows)
		if err != nil {
			return nil, fmt.Errorf("list subscriptions: %w", err)
		}
		out = append(out, sub)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list subscriptions: %w", err)
	}
	return out, nil
}

type scanner interface{ Scan(dest ...any) error }

func (s *Store) scanSubscription(row scanner) (Subscription, error) {
	var (
		sub               Subscription
		provider, kind    string
		number, createdMS int64
	)
	if err := row.Scan(&sub.ID, &sub.Account, &provider, &sub.Forge.Host, &sub.Repo, &kind, &number, &createdMS); err != nil {
		return Subscription{}, err
	}
	p, err := parseProvider(provider)
	if err != nil {
		return Subscription{}, err
	}
	sub.Forge.Provider, sub.Kind, sub.Number, sub.Created = p, Kind(kind), uint64(number), fromMillis(createdMS)
	return sub, nil
}
