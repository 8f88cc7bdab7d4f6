package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/google/uuid"
)

// ErrKeyReused is returned when a client_request_id comes back with a
// request other than the one it was first used for.
var ErrKeyReused = errors.New("store: client_request_id was already used for a different request")

// ErrClaimLost is returned by Finish when the claim's lease had expired and
// another attempt took it over.
var ErrClaimLost = errors.New("store: the create claim expired and was taken over by another attempt")

// Poll intervals while waiting for another attempt's claim to finish.
const (
	pollFirst = 5 * time.Millisecond
	pollMax   = 250 * time.Millisecond
)

// Claim is one attempt's exclusive hold on an (account, client_request_id)
// create. While held, a heartbeat keeps its lease alive; the holder must end
// it with Finish (the create succeeded) or Abandon (it failed, so a retry may
// try again).
type Claim struct {
	s                     *Store
	account, key, attempt string
	tookOver              bool

	stop     chan struct{}
	stopOnce sync.Once
}

// Claim takes the create for (account, key), or returns what an earlier
// attempt created. fingerprint identifies the request, so a key reused for
// a different request fails with ErrKeyReused instead of replaying an
// unrelated artifact.
//
// Exactly one of the results is non-nil on success. While another live
// attempt holds the claim, Claim waits (polling with backoff) until that
// attempt finishes, abandons, or its lease expires; it returns ctx's error if
// ctx ends first.
func (s *Store) Claim(ctx context.Context, account, key, fingerprint string) (*Claim, *Artifact, error) {
	wait := pollFirst
	for {
		c, a, retry, err := s.tryClaim(ctx, account, key, fingerprint)
		if err != nil || !retry {
			return c, a, err
		}
		select {
		case <-ctx.Done():
			return nil, nil, ctx.Err()
		case <-s.closing:
			return nil, nil, errors.New("store: closed")
		case <-time.After(wait):
		}
		wait = min(wait*2, pollMax)
	}
}

// tryClaim makes one attempt; retry reports that another attempt holds a
// live claim.
func (s *Store) tryClaim(ctx context.Context, account, key, fingerprint string) (c *Claim, a *Artifact, retry bool, err error) {
	now := s.now()
	attempt := uuid.NewString()
	res, err := s.db.ExecContext(ctx, s.q(`INSERT INTO gateway_create_memo
		(account, client_request_id, fingerprint, state, attempt, lease_until_ms, created_ms)
		VALUES (?, ?, ?, 'pending', ?, ?, ?)
		ON CONFLICT (account, client_request_id) DO NOTHING`),
		account, key, fingerprint, attempt, millis(now.Add(s.lease)), millis(now))
	if err != nil {
		return nil, nil, false, fmt.Errorf("store: claim: %w", err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return nil, nil, false, fmt.Errorf("store: claim: %w", err)
	} else if n == 1 {
		return s.hold(account, key, attempt, false), nil, false, nil
	}

	var (
		fp, state, held, kind, provider, host, repo string
		leaseUntil, number                          int64
	)
	err = s.db.QueryRowContext(ctx, s.q(`SELECT fingerprint, state, attempt, lease_until_ms,
		kind, provider, host, repo, number
		FROM gateway_create_memo WHERE account = ? AND client_request_id = ?`), account, key).
		Scan(&fp, &state, &held, &leaseUntil, &kind, &provider, &host, &repo, &number)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		// Abandoned between our insert and this read: try again.
		return nil, nil, true, nil
	case err != nil:
		return nil, nil, false, fmt.Errorf("store: claim: %w", err)
	case fp != fingerprint:
		return nil, nil, false, ErrKeyReused
	case state == "done":
		p, err := parseProvider(provider)
		if err != nil {
			return nil, nil, false, err
		}
		return nil, &Artifact{
			Forge: Forge{Provider: p, Host: host}, Repo: repo, Kind: Kind(kind), Number: uint64(number),
		}, false, nil
	case leaseUntil >= millis(now):
		return nil, nil, true, nil
	}

	// The holder stopped renewing its lease (its gateway died): take over,
	// unless a competitor got there first.
	res, err = s.db.ExecContext(ctx, s.q(`UPDATE gateway_create_memo SET attempt = ?, lease_until_ms = ?
		WHERE account = ? AND client_request_id = ? AND state = 'pending' AND attempt = ?`),
		attempt, millis(now.Add(s.lease)), account, key, held)
	if err != nil {
		return nil, nil, false, fmt.Errorf("store: take over claim: %w", err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return nil, nil, false, fmt.Errorf("store: take over claim: %w", err)
	} else if n == 1 {
		s.log.Warn("took over an expired create claim", "account", account)
		return s.hold(account, key, attempt, true), nil, false, nil
	}
	return nil, nil, true, nil
}

// hold starts the heartbeat of a claim just won.
func (s *Store) hold(account, key, attempt string, tookOver bool) *Claim {
	c := &Claim{s: s, account: account, key: key, attempt: attempt, tookOver: tookOver, stop: make(chan struct{})}
	s.beats.Add(1)
	go c.heartbeat()
	return c
}

// heartbeat renews the lease at a third of its length, so a slow provider
// call never loses the claim to a retry while the gateway is alive.
func (c *Claim) heartbeat() {
	defer c.s.beats.Done()
	t := time.NewTicker(max(c.s.lease/3, time.Millisecond))
	defer t.Stop()
	for {
		select {
		case <-c.stop:
			return
		case <-c.s.closing:
			return
		case <-t.C:
		}
		ctx, cancel := context.WithTimeout(context.Background(), c.s.lease/3)
		res, err := c.s.db.ExecContext(ctx, c.s.q(`UPDATE gateway_create_memo SET lease_until_ms = ?
			WHERE account = ? AND client_request_id = ? AND state = 'pending' AND attempt = ?`),
			millis(c.s.now().Add(c.s.lease)), c.account, c.key, c.attempt)
		cancel()
		if err != nil {
			c.s.log.Warn("create claim heartbeat failed", "account", c.account, "error", err)
			continue
		}
		if n, _ := res.RowsAffected(); n == 0 {
			c.s.log.Warn("create claim lost before it finished", "account", c.account)
			return
		}
	}
}

func (c *Claim) stopHeartbeat() { c.stopOnce.Do(func() { close(c.stop) }) }

// TookOver reports that the claim was taken over from an earlier attempt
// whose lease expired: that attempt's gateway died (or stalled) while it
// held the claim, perhaps with the forge call in flight, so the forge may
// already hold what it created.
func (c *Claim) TookOver() bool { return c.tookOver }

// Finish records what the create made and who made it, in one transaction:
// later attempts replay a, and the ownership row names session. It returns
// ErrClaimLost (after still recording the ownership) when another attempt
// had taken the claim over.
func (c *Claim) Finish(ctx context.Context, session string, a Artifact) error {
	c.stopHeartbeat()
	now := c.s.now()
	lost := false
	err := c.s.inTx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, c.s.q(`UPDATE gateway_create_memo
			SET state = 'done', kind = ?, provider = ?, host = ?, repo = ?, number = ?, finished_ms = ?
			WHERE account = ? AND client_request_id = ? AND state = 'pending' AND attempt = ?`),
			string(a.Kind), providerColumn(a.Forge.Provider), a.Forge.Host, a.Repo, int64(a.Number), millis(now),
			c.account, c.key, c.attempt)
		if err != nil {
			return err
		}
		n, err := res.RowsAffected()
		if err != nil {
			return err
		}
		lost = n == 0
		return c.s.recordOwnership(ctx, tx, Ownership{Account: c.account, Session: session, Artifact: a, Created: now})
	})
	if err != nil {
		return fmt.Errorf("store: finish create: %w", err)
	}
	if lost {
		return ErrClaimLost
	}
	return nil
}

// Abandon releases the claim without a result, so the next attempt with the
// same key creates afresh.
func (c *Claim) Abandon(ctx context.Context) error {
	c.stopHeartbeat()
	_, err := c.s.db.ExecContext(ctx, c.s.q(`DELETE FROM gateway_create_memo
		WHERE account = ? AND client_request_id = ? AND state = 'pending' AND attempt = ?`),
		c.account, c.key, c.attempt)
	if err != nil {
		return fmt.Errorf("store: abandon create: %w", err)
	}
	return nil
}
