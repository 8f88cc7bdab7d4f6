package store_test

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/forgetools/forgetools/gateway/store"
	"github.com/forgetools/forgetools/gateway/store/storetest"
	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
)

// clock is a settable time source, so lease expiry is tested by moving time
// rather than waiting for it.
type clock struct{ ms atomic.Int64 }

func newClock() *clock {
	c := &clock{}
	c.ms.Store(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC).UnixMilli())
	return c
}
func (c *clock) now() time.Time          { return time.UnixMilli(c.ms.Load()) }
func (c *clock) advance(d time.Duration) { c.ms.Add(d.Milliseconds()) }

func open(t *testing.T, dsn string, opts ...store.Options) *store.Store {
	t.Helper()
	s, err := store.Open(context.Background(), dsn, opts...)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

var github = store.Forge{Provider: forgev1.ForgeProvider_FORGE_PROVIDER_GITHUB, Host: "github.com"}

func issue(n uint64) store.Artifact {
	return store.Artifact{Forge: github, Repo: "acme/web", Kind: store.KindIssue, Number: n}
}

func TestOpenMigratesOnceAndSurvivesRestart(t *testing.T) {
	storetest.Run(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		s := open(t, dsn)
		c, a, err := s.Reserve(ctx, "alice", "k1", "fp", 0)
		if err != nil || c == nil || a != nil {
			t.Fatalf("first Reserve = %v, %v, %v; want a reservation", c, a, err)
		}
		if err := c.Finish(ctx, store.Ownership{Session: "s1", Artifact: issue(7)}); err != nil {
			t.Fatalf("Finish: %v", err)
		}
		var tables int
		if err := s.DB().QueryRowContext(ctx, "SELECT COUNT(*) FROM "+store.VersionTable).Scan(&tables); err != nil {
			t.Fatalf("version table %s: %v", store.VersionTable, err)
		}
		s.Close()

		// A second Open on the same database applies nothing new and
		// still replays the finished create.
		s2 := open(t, dsn)
		c, a, err = s2.Reserve(ctx, "alice", "k1", "fp", 0)
		if err != nil || c != nil || a == nil {
			t.Fatalf("Reserve after restart = %v, %v, %v; want the recorded artifact", c, a, err)
		}
		if *a != issue(7) {
			t.Errorf("replayed %+v, want %+v", *a, issue(7))
		}
	})
}

func TestReserveWaitsForTheHolder(t *testing.T) {
	storetest.Run(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		// Two stores on one database stand for two gateway replicas.
		s1, s2 := open(t, dsn), open(t, dsn)
		c, _, err := s1.Reserve(ctx, "alice", "k", "fp", 0)
		if err != nil || c == nil {
			t.Fatalf("Reserve: %v", err)
		}

		// While the holder is alive, a second attempt waits until its
		// context ends.
		short, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
		defer cancel()
		if c2, a, err := s2.Reserve(short, "alice", "k", "fp", 0); !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("Reserve while held = %v, %v, %v; want DeadlineExceeded", c2, a, err)
		}

		// Waiters on both replicas get the holder's result once it
		// finishes.
		const waiters = 20
		var wg sync.WaitGroup
		results := make(chan error, waiters)
		for i := range waiters {
			s := []*store.Store{s1, s2}[i%2]
			wg.Go(func() {
				c, a, err := s.Reserve(ctx, "alice", "k", "fp", 0)
				switch {
				case err != nil:
					results <- err
				case c != nil:
					results <- errors.New("a waiter won the reservation")
				case *a != issue(42):
					results <- errors.New("a waiter replayed the wrong artifact")
				default:
					results <- nil
				}
			})
		}
		if err := c.Finish(ctx, store.Ownership{Session: "s1", Artifact: issue(42)}); err != nil {
			t.Fatalf("Finish: %v", err)
		}
		wg.Wait()
		close(results)
		for err := range results {
			if err != nil {
				t.Error(err)
			}
		}
	})
}

func TestConcurrentClaimsHaveOneWinner(t *testing.T) {
	storetest.Run(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		s1, s2 := open(t, dsn), open(t, dsn)
		var won atomic.Int32
		var wg sync.WaitGroup
		for i := range 30 {
			s := []*store.Store{s1, s2}[i%2]
			wg.Go(func() {
				c, a, err := s.Reserve(ctx, "bob", "same", "fp", 0)
				if err != nil {
					t.Errorf("Reserve: %v", err)
					return
				}
				if c != nil {
					won.Add(1)
					if err := c.Finish(ctx, store.Ownership{Session: "s", Artifact: issue(9)}); err != nil {
						t.Errorf("Finish: %v", err)
					}
					return
				}
				if a.Number != 9 {
					t.Errorf("replayed #%d, want #9", a.Number)
				}
			})
		}
		wg.Wait()
		if won.Load() != 1 {
			t.Fatalf("%d attempts won the reservation, want exactly 1", won.Load())
		}
		owned, err := s1.Owned(ctx, "bob")
		if err != nil || len(owned) != 1 {
			t.Fatalf("Owned = %v, %v; want one record", owned, err)
		}
	})
}

func TestAbandonLetsTheNextAttemptCreate(t *testing.T) {
	storetest.Run(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		s := open(t, dsn)
		c, _, err := s.Reserve(ctx, "a", "k", "fp", 0)
		if err != nil {
			t.Fatal(err)
		}
		if err := c.Abandon(ctx); err != nil {
			t.Fatalf("Abandon: %v", err)
		}
		c2, a, err := s.Reserve(ctx, "a", "k", "fp", 0)
		if err != nil || c2 == nil || a != nil {
			t.Fatalf("Reserve after Abandon = %v, %v, %v; want a new reservation", c2, a, err)
		}
		// The abandoned reservation can no longer finish into the new one.
		if err := c.Finish(ctx, store.Ownership{Session: "s", Artifact: issue(1)}); !errors.Is(err, store.ErrReservationLost) {
			t.Fatalf("Finish of abandoned reservation = %v, want ErrReservationLost", err)
		}
		if err := c2.Finish(ctx, store.Ownership{Session: "s", Artifact: issue(2)}); err != nil {
			t.Fatal(err)
		}
		if _, a, _ := s.Reserve(ctx, "a", "k", "fp", 0); a == nil || a.Number != 2 {
			t.Fatalf("replay = %+v, want #2", a)
		}
	})
}

func TestKeysAreScopedToTheAccountAndTheRequest(t *testing.T) {
	storetest.Run(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		s := open(t, dsn)
		c, _, err := s.Reserve(ctx, "alice", "k", "fp-a", 0)
		if err != nil {
			t.Fatal(err)
		}
		// A different request under a pending key fails at once rather
		// than waiting for an unrelated result.
		if _, _, err := s.Reserve(ctx, "alice", "k", "fp-b", 0); !errors.Is(err, store.ErrKeyReused) {
			t.Fatalf("Reserve with another fingerprint while pending = %v, want ErrKeyReused", err)
		}
		if err := c.Finish(ctx, store.Ownership{Session: "s", Artifact: issue(3)}); err != nil {
			t.Fatal(err)
		}
		if _, _, err := s.Reserve(ctx, "alice", "k", "fp-b", 0); !errors.Is(err, store.ErrKeyReused) {
			t.Fatalf("Reserve with another fingerprint when done = %v, want ErrKeyReused", err)
		}
		// The same key from another account is a different create.
		c, a, err := s.Reserve(ctx, "bob", "k", "fp-b", 0)
		if err != nil || c == nil || a != nil {
			t.Fatalf("bob's Reserve = %v, %v, %v; want his own reservation", c, a, err)
		}
		c.Abandon(ctx)
	})
}

func TestExpiredClaimIsTakenOver(t *testing.T) {
	storetest.Run(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		clk := newClock()
		opts := store.Options{Now: clk.now, Lease: time.Minute}
		crashed := open(t, dsn, opts)
		first, _, err := crashed.Reserve(ctx, "a", "k", "fp", 0)
		if err != nil {
			t.Fatal(err)
		}
		if first.TookOver() {
			t.Fatal("a fresh claim says it took over")
		}
		crashed.Close() // the gateway dies mid-create: no Finish, no heartbeat

		s := open(t, dsn, opts)
		clk.advance(59 * time.Second)
		short, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
		defer cancel()
		if _, _, err := s.Reserve(short, "a", "k", "fp", 0); !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("Reserve within the lease = %v, want DeadlineExceeded", err)
		}

		clk.advance(2 * time.Second)
		c, a, err := s.Reserve(ctx, "a", "k", "fp", 0)
		if err != nil || c == nil || a != nil || !c.TookOver() {
			t.Fatalf("Claim after the lease = %v, %v, %v; want a takeover", c, a, err)
		}
		if err := c.Finish(ctx, store.Ownership{Session: "s2", Artifact: issue(5)}); err != nil {
			t.Fatal(err)
		}
		if _, a, _ := s.Reserve(ctx, "a", "k", "fp", 0); a == nil || a.Number != 5 {
			t.Fatalf("replay = %+v, want #5", a)
		}

		// A holder that was only slow, not dead, finds its reservation lost: its
		// artifact is still owned, but replays return the new holder's.
		slow := open(t, dsn, opts)
		late, _, err := slow.Reserve(ctx, "a", "k2", "fp", 0)
		if err != nil {
			t.Fatal(err)
		}
		clk.advance(2 * time.Minute)
		c, _, err = s.Reserve(ctx, "a", "k2", "fp", 0)
		if err != nil || c == nil {
			t.Fatalf("takeover of a slow reservation = %v, %v", c, err)
		}
		if err := late.Finish(ctx, store.Ownership{Session: "slow", Artifact: issue(6)}); !errors.Is(err, store.ErrReservationLost) {
			t.Fatalf("Finish of a lost reservation = %v, want ErrReservationLost", err)
		}
		if err := c.Finish(ctx, store.Ownership{Session: "s2", Artifact: issue(7)}); err != nil {
			t.Fatal(err)
		}
		if _, a, _ := s.Reserve(ctx, "a", "k2", "fp", 0); a == nil || a.Number != 7 {
			t.Fatalf("replay = %+v, want #7", a)
		}
		owned, err := s.Owned(ctx, "a")
		if err != nil || len(owned) != 3 {
			t.Fatalf("Owned = %+v, %v; want #5, #6 and #7", owned, err)
		}
	})
}

func TestHeartbeatKeepsTheClaim(t *testing.T) {
	storetest.Run(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		clk := newClock()
		s := open(t, dsn, store.Options{Now: clk.now, Lease: 90 * time.Millisecond})
		c, _, err := s.Reserve(ctx, "a", "k", "fp", 0)
		if err != nil {
			t.Fatal(err)
		}
		// Move the clock far past the first lease; the heartbeat (every
		// 30ms of real time) renews from the moved clock.
		clk.advance(time.Hour)
		want := clk.now().UnixMilli()
		deadline := time.Now().Add(20 * time.Second)
		for {
			var until int64
			if err := s.DB().QueryRowContext(ctx, "SELECT lease_until_ms FROM gateway_create_memo").Scan(&until); err != nil {
				t.Fatal(err)
			}
			if until > want {
				break
			}
			if time.Now().After(deadline) {
				t.Fatal("the heartbeat never renewed the lease")
			}
			time.Sleep(10 * time.Millisecond)
		}
		short, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
		defer cancel()
		if _, _, err := s.Reserve(short, "a", "k", "fp", 0); !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("Reserve against a renewed lease = %v, want DeadlineExceeded", err)
		}
		c.Abandon(ctx)
	})
}

func TestReserveEndsWhenTheStoreCloses(t *testing.T) {
	s, err := store.Open(context.Background(), storetest.SQLite(t))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, _, err := s.Reserve(ctx, "a", "k", "fp", 0); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, _, err := s.Reserve(ctx, "a", "k", "fp", 0)
		done <- err
	}()
	s.Close()
	if err := <-done; err == nil {
		t.Fatal("a waiting Reserve succeeded on a closed store")
	}
}

// A window bounds how long a finished create replays: inside it the same key
// replays, past it the key reserves afresh; a zero window replays for good.
func TestReplayWindow(t *testing.T) {
	storetest.Run(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		clk := newClock()
		s := open(t, dsn, store.Options{Now: clk.now})
		const window = 10 * time.Minute
		c, _, err := s.Reserve(ctx, "alice", "auto:1", "fp", window)
		if err != nil || c == nil {
			t.Fatalf("first Reserve = %v, %v", c, err)
		}
		if err := c.Finish(ctx, store.Ownership{Session: "s", Artifact: issue(1)}); err != nil {
			t.Fatal(err)
		}
		clk.advance(window - time.Second)
		if c, a, err := s.Reserve(ctx, "alice", "auto:1", "fp", window); err != nil || c != nil || a == nil || a.Number != 1 {
			t.Fatalf("inside the window: %v, %+v, %v; want the replay of #1", c, a, err)
		}
		// The same key without a window still replays long after.
		if err := mustReserve(t, s, "alice", "forever", 0).Finish(ctx, store.Ownership{Session: "s", Artifact: issue(3)}); err != nil {
			t.Fatal(err)
		}
		clk.advance(2 * time.Second)
		c, a, err := s.Reserve(ctx, "alice", "auto:1", "fp", window)
		if err != nil || c == nil || a != nil {
			t.Fatalf("past the window: %v, %+v, %v; want a new reservation", c, a, err)
		}
		if err := c.Finish(ctx, store.Ownership{Session: "s", Artifact: issue(2)}); err != nil {
			t.Fatal(err)
		}
		if _, a, _ := s.Reserve(ctx, "alice", "auto:1", "fp", window); a == nil || a.Number != 2 {
			t.Fatalf("replay after the renewal = %+v, want #2", a)
		}
		clk.advance(24 * time.Hour)
		if _, a, _ := s.Reserve(ctx, "alice", "forever", "fp", 0); a == nil || a.Number != 3 {
			t.Fatalf("a key without a window = %+v, want the replay of #3 a day later", a)
		}
	})
}

func mustReserve(t *testing.T, s *store.Store, account, key string, window time.Duration) *store.Reservation {
	t.Helper()
	c, _, err := s.Reserve(context.Background(), account, key, "fp", window)
	if err != nil || c == nil {
		t.Fatalf("Reserve(%s) = %v, %v", key, c, err)
	}
	return c
}
