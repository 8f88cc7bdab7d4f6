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
// create: a pending memo row. While held, a heartbeat keeps its lease alive;
// the holder must end it with Finish (the create succeeded) or Abandon (it
// failed, so a retry may try again).
type Reservation struct {
	s                     *Store
	account, key, attempt string

	stop     chan struct{}
	stopOnce sync.Once
	ended    bool // set by Finish and Abandon
	tookOver bool
	created  int64 // when the key was first reserved (ms)
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
	var (
		c *Reservation
		a *Artifact
	)
	err := s.waitFor(ctx, func() (bool, error) {
		w, done, retry, err := s.tryReserve(ctx, s.db, account, key, fingerprint, window)
		if w != nil {
			c = s.hold(account, key, *w)
		}
		a = done
		return retry, err
	})
	return c, a, err
}

// errClosed ends waits when the store closes.
var errClosed = errors.New("closed")

// waitFor repeats try, waiting with backoff, while it reports that another
// attempt holds a live reservation.
func (s *Store) waitFor(ctx context.Context, try func() (retry bool, err error)) error {
	wait := pollFirst
	for {
		retry, err := try()
		if err != nil || !retry {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-s.closing:
			return errClosed
		case <-time.After(wait):
		}
		wait = min(wait*2, pollMax)
	}
}

// won is a reservation attempt that won the key: its attempt id, whether
// it took an expired reservation over, and when the key was first
// reserved (ms).
type won struct {
	attempt  string
	tookOver bool
	created  int64
}

// tryReserve makes one attempt on q (the database, or CreateTx's
// transaction). It returns the attempt when it won the reservation, the
// artifact when an earlier attempt finished the create, and retry when
// another attempt holds a live reservation.
func (s *Store) tryReserve(ctx context.Context, q querier, account, key, fingerprint string, window time.Duration) (w *won, a *Artifact, retry bool, err error) {
	now := s.now()
	attempt := uuid.NewString()
	res, err := q.ExecContext(ctx, s.q(`INSERT INTO gateway_create_memo
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
		return &won{attempt: attempt, created: millis(now)}, nil, false, nil
	}

	var (
		fp, state, held, kind, provider, host, repo string
		leaseUntil, number, created                 int64
		finished                                    sql.NullInt64
	)
	err = q.QueryRowContext(ctx, s.q(`SELECT fingerprint, state, attempt, lease_until_ms,
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
		if _, err := q.ExecContext(ctx, s.q(`DELETE FROM gateway_create_memo
			WHERE account = ? AND client_request_id = ? AND state = 'done' AND attempt = ?`), account, key, held); err != nil {
			return nil, nil, false, fmt.Errorf("expire reservation: %w", err)
		}
		return s.tryReserve(ctx, q, account, key, fingerprint, window)
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
	res, err = q.ExecContext(ctx, s.q(`UPDATE gateway_create_memo SET attempt = ?, lease_until_ms = ?
		WHERE account = ? AND client_request_id = ? AND state = 'pending' AND attempt = ?`),
		attempt, millis(now.Add(s.lease)), account, key, held)
	if err != nil {
		return nil, nil, false, fmt.Errorf("take over reservation: %w", err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return nil, nil, false, fmt.Errorf("take over reservation: %w", err)
	} else if n == 1 {
		s.log.Warn("took over an expired create reservation", "account", account)
		return &won{attempt: attempt, tookOver: true, created: created}, nil, false, nil
	}
	return nil, nil, true, nil
}

// hold starts the heartbeat of a reservation just won.
func (s *Store) hold(account, key string, w won) *Reservation {
	c := &Reservation{s: s, account: account, key: key, attempt: w.attempt, tookOver: w.tookOver, created: w.created, stop: make(chan struct{})}
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

// Finish records what the create made and who made it, in one transaction:
// later attempts replay o's artifact, and the ownership row is o (its
// account is the reservation's). It returns ErrReservationLost (after still
// recording the ownership) when another attempt had taken the reservation
// over.
func (c *Reservation) Finish(ctx context.Context, o Ownership) error {
	c.stopHeartbeat()
	c.ended = true
	var lost bool
	err := c.s.inTx(ctx, func(tx *sql.Tx) error {
		var err error
		lost, err = c.s.record(ctx, tx, c.account, c.key, c.attempt, o)
		return err
	})
	if err != nil {
		return fmt.Errorf("finish create: %w", err)
	}
	if lost {
		return ErrReservationLost
	}
	return nil
}

// record marks attempt's memo row of (account, key) done with o's artifact
// and adds the ownership row o (as account's); lost reports that the row
// was no longer the attempt's.
func (s *Store) record(ctx context.Context, q querier, account, key, attempt string, o Ownership) (lost bool, err error) {
	now := s.now()
	a := o.Artifact
	o.Account, o.Created = account, now
	done := `UPDATE gateway_create_memo
		SET state = 'done', kind = ?, provider = ?, host = ?, repo = ?, number = ?, finished_ms = ?
		WHERE account = ? AND client_request_id = ? AND state = 'pending' AND attempt = ?`
	args := []any{string(a.Kind), providerColumn(a.Forge.Provider), a.Forge.Host, a.Repo, int64(a.Number), millis(now),
		account, key, attempt}
	if s.dialect == Postgres {
		// One round trip: both writes in one statement, which reports
		// how many memo rows it marked.
		var n int
		err := q.QueryRowContext(ctx, s.q(`WITH done AS (`+done+` RETURNING 1), owned AS (`+ownershipInsert+`)
			SELECT count(*) FROM done`), append(args, s.ownershipArgs(o)...)...).Scan(&n)
		return n == 0, err
	}
	res, err := q.ExecContext(ctx, s.q(done), args...)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, err
	}
	return n == 0, s.recordOwnership(ctx, q, o)
}

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

// Abandon releases the reservation without a result, so the next attempt
// with the same key creates afresh. After Finish (or a first Abandon) it
// does nothing, so a holder may defer it.
func (c *Reservation) Abandon(ctx context.Context) error {
	if c.ended {
		return nil
	}
	c.stopHeartbeat()
	c.ended = true
	_, err := c.s.db.ExecContext(ctx, c.s.q(`DELETE FROM gateway_create_memo
		WHERE account = ? AND client_request_id = ? AND state = 'pending' AND attempt = ?`),
		c.account, c.key, c.attempt)
	if err != nil {
		return fmt.Errorf("abandon create: %w", err)
	}
	return nil
}
