package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/google/uuid"
)

// ErrKeyReused is returned when a client_request_id comes back with a
// request other than the one it was first used for.
var ErrKeyReused = errors.New("client_request_id was already used for a different request")

// ErrReservationLost is returned by Finish when the reservation's lease had expired and
// another attempt took it over.
var ErrReservationLost = errors.New("the create reservation expired and was taken over by another attempt")

// Poll intervals while waiting for another attempt's reservation to finish.
const (
	pollFirst = 5 * time.Millisecond
	pollMax   = 250 * time.Millisecond
)

// Reservation is one attempt's exclusive hold on an (account, client_request_id)
// create. While held, a heartbeat keeps its lease alive; the holder must end
// it with Finish (the create succeeded) or Abandon (it failed, so a retry may
// try again).
type Reservation struct {
	s                     *Store
	account, key, attempt string
	tookOver              bool
	created               int64 // when the key was first reserved (ms)

	stop     chan struct{}
	stopOnce sync.Once
}

// Reserve takes the create for (account, key), or returns what an earlier
// attempt created. fingerprint identifies the request, so a key reused for
// a different request fails with ErrKeyReused instead of replaying an
// unrelated artifact.
//
// A window above zero bounds how long a finished create is replayed: a key
// whose create finished longer ago than that reserves afresh (the gateway
// derives such keys from the call itself, so the same call later is a new
// create). Zero replays for good.
//
// Exactly one of the results is non-nil on success. While another live
// attempt holds the reservation, Reserve waits (polling with backoff) until that
// attempt finishes, abandons, or its lease expires; it returns ctx's error if
// ctx ends first.
func (s *Store) Reserve(ctx context.Context, account, key, fingerprint string, window time.Duration) (*Reservation, *Artifact, error) {
	wait := pollFirst
	for {
		c, a, retry, err := s.tryReserve(ctx, account, key, fingerprint, window)
		if err != nil || !retry {
			return c, a, err
		}
		select {
		case <-ctx.Done():
			return nil, nil, ctx.Err()
		case <-s.closing:
			return nil, nil, errors.New("closed")
		case <-time.After(wait):
		}
		wait = min(wait*2, pollMax)
	}
}

// tryReserve makes one attempt; retry reports that another attempt holds a
// live reservation.
func (s *Store) tryReserve(ctx context.Context, account, key, fingerprint string, window time.Duration) (c *Reservation, a *Artifact, retry bool, err error) {
	now := s.now()
	attempt := uuid.NewString()
	res, err := s.db.ExecContext(ctx, s.q(`INSERT INTO gateway_create_memo
		(account, client_request_id, fingerprint, state, attempt, lease_until_ms, created_ms)
		VALUES (?, ?, ?, 'pending', ?, ?, ?)
		ON CONFLICT (account, client_request_id) DO NOTHING`),
		account, key, fingerprint, attempt, millis(now.Add(s.lease)), millis(now))
	if err != nil {
		return nil, nil, false, fmt.Errorf("reservation: %w", err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return nil, nil, false, fmt.Errorf("reservation: %w", err)
	} else if n == 1 {
		return s.hold(account, key, attempt, false, millis(now)), nil, false, nil
	}

	var (
		fp, state, held, kind, provider, host, repo string
		leaseUntil, number, created                 int64
		finished                                    sql.NullInt64
	)
	err = s.db.QueryRowContext(ctx, s.q(`SELECT fingerprint, state, attempt, lease_until_ms,
		kind, provider, host, repo, number, created_ms, finished_ms
		FROM gateway_create_memo WHERE account = ? AND client_request_id = ?`), account, key).
		Scan(&fp, &state, &held, &leaseUntil, &kind, &provider, &host, &repo, &number, &created, &finished)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		// Abandoned between our insert and this read: try again.
		return nil, nil, true, nil
	case err != nil:
		return nil, nil, false, fmt.Errorf("reservation: %w", err)
	case fp != fingerprint:
		return nil, nil, false, ErrKeyReused
	case state == "done" && window > 0 && finished.Valid && finished.Int64+window.Milliseconds() < millis(now):
		// Past its replay window: forget it (unless a competitor already
		// did) and reserve afresh.
		if _, err := s.db.ExecContext(ctx, s.q(`DELETE FROM gateway_create_memo
			WHERE account = ? AND client_request_id = ? AND state = 'done' AND attempt = ?`), account, key, held); err != nil {
			return nil, nil, false, fmt.Errorf("expire reservation: %w", err)
		}
		return s.tryReserve(ctx, account, key, fingerprint, window)
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
		return nil, nil, false, fmt.Errorf("take over reservation: %w", err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return nil, nil, false, fmt.Errorf("take over reservation: %w", err)
	} else if n == 1 {
		s.log.Warn("took over an expired create reservation", "account", account)
		return s.hold(account, key, attempt, true, created), nil, false, nil
	}
	return nil, nil, true, nil
}

// hold starts the heartbeat of a reservation just won.
func (s *Store) hold(account, key, attempt string, tookOver bool, created int64) *Reservation {
	c := &Reservation{s: s, account: account, key: key, attempt: attempt, tookOver: tookOver, created: created, stop: make(chan struct{})}
	s.beats.Add(1)
	go c.heartbeat()
	return c
}

// heartbeat renews the lease at a third of its length, so a slow provider
// call never loses the reservation to a retry while the gateway is alive.
func (c *Reservation) heartbeat() {
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
			c.s.log.Warn("create reservation heartbeat failed", "account", c.account, "error", err)
			continue
		}
		if n, _ := res.RowsAffected(); n == 0 {
			c.s.log.Warn("create reservation lost before it finished", "account", c.account)
			return
		}
	}
}

func (c *Reservation) stopHeartbeat() { c.stopOnce.Do(func() { close(c.stop) }) }

// TookOver reports that the reservation was taken over from an earlier attempt
// whose lease expired: that attempt's gateway died (or stalled) while it
// held the reservation, perhaps with the forge call in flight, so the forge may
// already hold what it created.
func (c *Reservation) TookOver() bool { return c.tookOver }

// Generation names this reservation of its key: the same for every attempt
// that takes it over, new when the key is reserved afresh (after an
// Abandon, or past a replay window). A key the gateway derives is reused
// for calls far apart; a forge-side idempotency key built on key and
// generation still tells them apart.
func (c *Reservation) Generation() string { return strconv.FormatInt(c.created, 36) }

// Finish records what the create made and who made it, in one transaction:
// later attempts replay o's artifact, and the ownership row is o (its
// account is the reservation's). It returns ErrReservationLost (after still recording
// the ownership) when another attempt had taken the reservation over.
func (c *Reservation) Finish(ctx context.Context, o Ownership) error {
	c.stopHeartbeat()
	now := c.s.now()
	a := o.Artifact
	o.Account, o.Created = c.account, now
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
		return c.s.recordOwnership(ctx, tx, o)
	})
	if err != nil {
		return fmt.Errorf("finish create: %w", err)
	}
	if lost {
		return ErrReservationLost
	}
	return nil
}

// Abandon releases the reservation without a result, so the next attempt with the
// same key creates afresh.
func (c *Reservation) Abandon(ctx context.Context) error {
	c.stopHeartbeat()
	_, err := c.s.db.ExecContext(ctx, c.s.q(`DELETE FROM gateway_create_memo
		WHERE account = ? AND client_request_id = ? AND state = 'pending' AND attempt = ?`),
		c.account, c.key, c.attempt)
	if err != nil {
		return fmt.Errorf("abandon create: %w", err)
	}
	return nil
}
