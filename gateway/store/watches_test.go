package store_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/forgetools/forgetools/gateway/store"
	"github.com/forgetools/forgetools/gateway/store/storetest"
)

func sync_(t *testing.T, s *store.Store, at time.Time) {
	t.Helper()
	if err := s.SyncWatches(context.Background(), github, func(store.Artifact) time.Time { return at }); err != nil {
		t.Fatal(err)
	}
}

func claim(t *testing.T, s *store.Store, owner string) []store.Watch {
	t.Helper()
	ws, err := s.ClaimWatches(context.Background(), store.Claim{
		Forge: github, Owner: owner, Interval: time.Minute, Lease: 30 * time.Second, Covered: time.Hour, Limit: 10,
	})
	if err != nil {
		t.Fatal(err)
	}
	return ws
}

func numbers(ws []store.Watch) string {
	out := ""
	for _, w := range ws {
		out += fmt.Sprintf("#%d ", w.Number)
	}
	return out
}

func TestWatchesFollowSubscriptions(t *testing.T) {
	storetest.Run(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		clk := newClock()
		s := open(t, dsn, store.Options{Now: clk.now})
		a := subscribeTo(t, s, "alice", issue(1))
		subscribeTo(t, s, "bob", issue(1)) // one watch for both
		subscribeTo(t, s, "alice", issue(2))
		sync_(t, s, clk.now().Add(10*time.Second))

		if ws := claim(t, s, "r1"); len(ws) != 0 {
			t.Fatalf("claimed %s before the first poll is due", numbers(ws))
		}
		clk.advance(10 * time.Second)
		ws := claim(t, s, "r1")
		if numbers(ws) != "#1 #2 " || ws[0].State != nil || ws[0].Polls != 1 {
			t.Fatalf("claimed %s %+v", numbers(ws), ws)
		}
		if again := claim(t, s, "r2"); len(again) != 0 {
			t.Fatalf("a second claimant got %s in the same interval", numbers(again))
		}
		if ok, err := s.FinishWatch(ctx, ws[0], []byte("etag-1"), time.Time{}); err != nil || !ok {
			t.Fatalf("FinishWatch = %v, %v", ok, err)
		}
		if ok, err := s.FinishWatch(ctx, ws[1], []byte("etag-2"), time.Time{}); err != nil || !ok {
			t.Fatalf("FinishWatch = %v, %v", ok, err)
		}
		clk.advance(59 * time.Second)
		if ws := claim(t, s, "r2"); len(ws) != 0 {
			t.Fatalf("claimed %s before the interval passed", numbers(ws))
		}
		clk.advance(time.Second)
		ws = claim(t, s, "r2")
		if numbers(ws) != "#1 #2 " || string(ws[0].State) != "etag-1" || ws[0].Polls != 2 {
			t.Fatalf("second interval claimed %s %+v", numbers(ws), ws)
		}
		// A lost lease stores nothing: the watch is another claimant's now.
		clk.advance(time.Minute)
		late := claim(t, s, "r3")
		if ok, err := s.FinishWatch(ctx, ws[0], []byte("stale"), time.Time{}); err != nil || ok {
			t.Fatalf("FinishWatch on a lost lease = %v, %v", ok, err)
		}
		for _, w := range late {
			if _, err := s.FinishWatch(ctx, w, w.State, time.Time{}); err != nil {
				t.Fatal(err)
			}
		}

		// Unsubscribing stops the polls: #2 at once, #1 when its last
		// subscriber leaves.
		subs, _ := s.Subscriptions(ctx, "alice")
		for _, sub := range subs {
			if sub.Number == 2 {
				if err := s.Unsubscribe(ctx, "alice", sub.ID); err != nil {
					t.Fatal(err)
				}
			}
		}
		if err := s.Unsubscribe(ctx, "alice", a.ID); err != nil {
			t.Fatal(err)
		}
		clk.advance(time.Minute)
		if ws := claim(t, s, "r1"); numbers(ws) != "#1 " {
			t.Fatalf("after unsubscribing #2: claimed %s", numbers(ws))
		}
		sync_(t, s, clk.now())
		subs, _ = s.Subscriptions(ctx, "bob")
		if err := s.Unsubscribe(ctx, "bob", subs[0].ID); err != nil {
			t.Fatal(err)
		}
		clk.advance(time.Hour)
		if ws := claim(t, s, "r1"); len(ws) != 0 {
			t.Fatalf("claimed %s with nothing subscribed", numbers(ws))
		}
	})
}

func TestWebhookCoverageAndBackoff(t *testing.T) {
	storetest.Run(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		clk := newClock()
		s := open(t, dsn, store.Options{Now: clk.now})
		subscribeTo(t, s, "alice", issue(1))
		sync_(t, s, clk.now())
		if err := s.CoverRepo(ctx, github, "Acme/Web"); err != nil {
			t.Fatal(err)
		}
		if ws := claim(t, s, "r1"); len(ws) != 0 {
			t.Fatalf("claimed %s although webhooks cover the repository", numbers(ws))
		}
		clk.advance(time.Hour + time.Second)
		if ws := claim(t, s, "r1"); numbers(ws) != "#1 " {
			t.Fatalf("webhooks silent for an hour: claimed %s", numbers(ws))
		}

		if fresh, err := s.RecordDelivery(ctx, github, "d-1"); err != nil || !fresh {
			t.Fatalf("first delivery: %v %v", fresh, err)
		}
		if fresh, err := s.RecordDelivery(ctx, github, "d-1"); err != nil || fresh {
			t.Fatalf("redelivery: %v %v", fresh, err)
		}
		if seen, err := s.Delivered(ctx, github, "d-1"); err != nil || !seen {
			t.Fatalf("Delivered = %v %v", seen, err)
		}

		until := clk.now().Add(10 * time.Minute)
		if err := s.SetPollBackoff(ctx, github, until); err != nil {
			t.Fatal(err)
		}
		if err := s.SetPollBackoff(ctx, github, clk.now().Add(time.Minute)); err != nil {
			t.Fatal(err)
		}
		if got, err := s.PollBackoff(ctx, github); err != nil || !got.Equal(until.UTC()) {
			t.Fatalf("PollBackoff = %v %v, want the later %v", got, err, until)
		}
		clk.advance(10 * time.Minute)
		if got, err := s.PollBackoff(ctx, github); err != nil || !got.IsZero() {
			t.Fatalf("PollBackoff after it passed = %v %v", got, err)
		}
	})
}

// Two replicas on one PostgreSQL claim at the same moment, over and over:
// every due watch goes to exactly one of them each interval.
func TestConcurrentClaimsNeverOverlap(t *testing.T) {
	dsn := storetest.Postgres(t)
	ctx := context.Background()
	clk := newClock()
	replicas := []*store.Store{open(t, dsn, store.Options{Now: clk.now}), open(t, dsn, store.Options{Now: clk.now})}
	const artifacts = 40
	for n := range artifacts {
		subscribeTo(t, replicas[0], "alice", issue(uint64(n+1)))
	}
	sync_(t, replicas[0], clk.now())
	for interval := range 3 {
		counts := map[uint64]int{}
		var mu sync.Mutex
		var wg sync.WaitGroup
		for r, s := range replicas {
			for range 4 {
				wg.Go(func() {
					ws, err := s.ClaimWatches(ctx, store.Claim{Forge: github, Owner: fmt.Sprintf("r%d", r), Interval: time.Minute, Lease: 30 * time.Second, Limit: 7})
					if err != nil {
						t.Error(err)
						return
					}
					mu.Lock()
					defer mu.Unlock()
					for _, w := range ws {
						counts[w.Number]++
					}
				})
			}
		}
		wg.Wait()
		// 2 replicas x 4 claims x 7 = 56 slots for 40 watches.
		for n := uint64(1); n <= artifacts; n++ {
			if counts[n] != 1 {
				t.Fatalf("interval %d: watch #%d claimed %d times", interval, n, counts[n])
			}
		}
		clk.advance(time.Minute)
	}
}
