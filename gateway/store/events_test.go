package store_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/forgetools/forgetools/gateway/store"
	"github.com/forgetools/forgetools/gateway/store/storetest"
	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
)

func subscribeTo(t *testing.T, s *store.Store, account string, a store.Artifact) store.Subscription {
	t.Helper()
	sub, err := s.Subscribe(context.Background(), store.Subscription{Account: account, Forge: a.Forge, Repo: a.Repo, Kind: a.Kind, Number: a.Number})
	if err != nil {
		t.Fatal(err)
	}
	return sub
}

func change(typ, key string) store.Change {
	return store.Change{Type: typ, DedupKey: key, Payload: []byte(key)}
}

func record(t *testing.T, s *store.Store, a store.Artifact, cs ...store.Change) []store.Recorded {
	t.Helper()
	got, err := s.RecordChanges(context.Background(), a, cs)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

func read(t *testing.T, s *store.Store, q store.EventQuery) store.EventPage {
	t.Helper()
	if q.Limit == 0 {
		q.Limit = 20
	}
	page, err := s.ReadEvents(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	return page
}

// payloads is what a page holds, as "<subscription repo#number>:<payload>".
func payloads(p store.EventPage) []string {
	var out []string
	for _, e := range p.Events {
		out = append(out, fmt.Sprintf("%s#%d:%s", e.Subscription.Repo, e.Subscription.Number, e.Payload))
	}
	return out
}

func ptr(v uint64) *uint64 { return &v }

func TestEventsAreReadUntilAcknowledged(t *testing.T) {
	storetest.Run(t, func(t *testing.T, dsn string) {
		s := open(t, dsn)
		alice := subscribeTo(t, s, "alice", issue(1))
		bob := subscribeTo(t, s, "bob", issue(1))
		subscribeTo(t, s, "alice", issue(2))

		got := record(t, s, issue(1), change("comment", "c1"), change("review", "r1"))
		if len(got) != 4 || got[0].Cursor >= got[1].Cursor || got[3].Cursor != got[0].Cursor+3 {
			t.Fatalf("recorded = %+v", got)
		}
		if subs := []string{got[0].SubscriptionID, got[1].SubscriptionID}; !slices.Contains(subs, alice.ID) || !slices.Contains(subs, bob.ID) {
			t.Fatalf("recorded for %v, want alice's and bob's subscriptions", subs)
		}
		// Nothing watches #3: nothing is stored.
		if got := record(t, s, issue(3), change("comment", "c9")); len(got) != 0 {
			t.Fatalf("recorded %v for an artifact nobody watches", got)
		}

		q := store.EventQuery{Account: "alice", Session: "s1"}
		first := read(t, s, q)
		if want := []string{"acme/web#1:c1", "acme/web#1:r1"}; !slices.Equal(payloads(first), want) || first.More {
			t.Fatalf("first read = %v (more %v), want %v", payloads(first), first.More, want)
		}
		// Reading again without acknowledging returns the same page.
		if again := read(t, s, q); !slices.Equal(payloads(again), payloads(first)) || again.Next != first.Next {
			t.Fatalf("second read = %v next %d, want the first page again", payloads(again), again.Next)
		}
		record(t, s, issue(2), change("state", "closed"))
		q.After = ptr(first.Next)
		next := read(t, s, q)
		if want := []string{"acme/web#2:closed"}; !slices.Equal(payloads(next), want) {
			t.Fatalf("after acknowledging = %v, want %v", payloads(next), want)
		}
		// Bob's stream is his own.
		if b := read(t, s, store.EventQuery{Account: "bob", Session: "b1"}); len(b.Events) != 2 || b.Events[0].Subscription.ID != bob.ID {
			t.Fatalf("bob reads %v", payloads(b))
		}
		// So is another session's, and one subscription's stream.
		if other := read(t, s, store.EventQuery{Account: "alice", Session: "s2"}); len(other.Events) != 3 {
			t.Fatalf("a second session reads %v, want all three", payloads(other))
		}
		one := read(t, s, store.EventQuery{Account: "alice", Session: "s1", SubscriptionID: alice.ID})
		if want := []string{"acme/web#1:c1", "acme/web#1:r1"}; !slices.Equal(payloads(one), want) {
			t.Fatalf("one subscription's stream = %v, want %v", payloads(one), want)
		}
	})
}

func TestEventPagesAndCursorBounds(t *testing.T) {
	storetest.Run(t, func(t *testing.T, dsn string) {
		s := open(t, dsn)
		subscribeTo(t, s, "alice", issue(1))
		record(t, s, issue(1), change("comment", "a"), change("comment", "b"), change("comment", "c"))

		q := store.EventQuery{Account: "alice", Session: "s", Limit: 2}
		p1 := read(t, s, q)
		if !slices.Equal(payloads(p1), []string{"acme/web#1:a", "acme/web#1:b"}) || !p1.More {
			t.Fatalf("page 1 = %v more=%v", payloads(p1), p1.More)
		}
		q.After = ptr(p1.Next)
		p2 := read(t, s, q)
		if !slices.Equal(payloads(p2), []string{"acme/web#1:c"}) || p2.More {
			t.Fatalf("page 2 = %v more=%v", payloads(p2), p2.More)
		}
		// An acknowledgement never moves backwards...
		q.After = ptr(0)
		if p := read(t, s, q); !slices.Equal(payloads(p), []string{"acme/web#1:c"}) {
			t.Fatalf("after=0 moved the cursor back: %v", payloads(p))
		}
		// ...nor past the last event recorded, which would hide what comes.
		q.After = ptr(1 << 40)
		if p := read(t, s, q); len(p.Events) != 0 || p.Next != p2.Next {
			t.Fatalf("after=2^40: %v next %d", payloads(p), p.Next)
		}
		record(t, s, issue(1), change("comment", "d"))
		q.After = nil
		if p := read(t, s, q); !slices.Equal(payloads(p), []string{"acme/web#1:d"}) {
			t.Fatalf("an event after a far-future acknowledgement was hidden: %v", payloads(p))
		}
		// The same change reported twice is stored once.
		if got := record(t, s, issue(1), change("comment", "d")); len(got) != 0 {
			t.Fatalf("a repeated dedup key was stored again: %v", got)
		}
	})
}

func TestOwnEventsAndScope(t *testing.T) {
	storetest.Run(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		s := open(t, dsn)
		subscribeTo(t, s, "alice", issue(1))
		subscribeTo(t, s, "bob", issue(1))
		other := store.Artifact{Forge: github, Repo: "tools/cli", Kind: store.KindIssue, Number: 4}
		subscribeTo(t, s, "alice", other)
		if err := s.RecordOwnership(ctx, store.Ownership{Account: "alice", Session: "s",
			Artifact: store.Artifact{Forge: github, Repo: "acme/web", Kind: store.KindIssueComment, Number: 1, ID: "77"}}); err != nil {
			t.Fatal(err)
		}
		mine := store.Change{Type: "comment", ArtifactKind: store.KindIssueComment, ArtifactID: "77", DedupKey: "c77", Payload: []byte("mine")}
		// Same id, another kind: not what alice owns.
		review := store.Change{Type: "review", ArtifactKind: store.KindReview, ArtifactID: "77", DedupKey: "r77", Payload: []byte("review")}
		local := store.Change{Type: "comment", ActorAccount: "bob", DedupKey: "c78", Payload: []byte("bob's")}
		record(t, s, issue(1), mine, review, local)
		record(t, s, other, change("labels", "l1"))

		own := func(p store.EventPage) []string {
			var out []string
			for _, e := range p.Events {
				out = append(out, fmt.Sprintf("%s=%v", e.Payload, e.Own))
			}
			return out
		}
		if got, want := own(read(t, s, store.EventQuery{Account: "alice", Session: "s"})), []string{"mine=true", "review=false", "bob's=false", "l1=false"}; !slices.Equal(got, want) {
			t.Fatalf("alice: %v, want %v", got, want)
		}
		if got, want := own(read(t, s, store.EventQuery{Account: "bob", Session: "s"})), []string{"mine=false", "review=false", "bob's=true"}; !slices.Equal(got, want) {
			t.Fatalf("bob: %v, want %v", got, want)
		}
		// A narrowed scope hides the other repository's events, and the
		// page still fills.
		q := store.EventQuery{Account: "alice", Session: "s", Limit: 1, InScope: func(_ *forgev1.ForgeRef, repo string) bool { return repo == "tools/cli" }}
		if p := read(t, s, q); !slices.Equal(payloads(p), []string{"tools/cli#4:l1"}) || p.More {
			t.Fatalf("in scope: %v more=%v", payloads(p), p.More)
		}
	})
}

func TestUnsubscribeAndPruneRemoveEvents(t *testing.T) {
	storetest.Run(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		clk := newClock()
		s := open(t, dsn, store.Options{Now: clk.now})
		gone := subscribeTo(t, s, "alice", issue(1))
		subscribeTo(t, s, "alice", issue(2))
		record(t, s, issue(1), change("comment", "old-1"))
		record(t, s, issue(2), change("comment", "old-2"))
		clk.advance(48 * time.Hour)
		record(t, s, issue(2), change("comment", "new-2"))

		latest, subs, err := s.Pending(ctx, "alice", "s", "", nil)
		if err != nil || latest == 0 || len(subs) != 2 {
			t.Fatalf("Pending = %d %v %v", latest, subs, err)
		}
		if err := s.Unsubscribe(ctx, "alice", gone.ID); err != nil {
			t.Fatal(err)
		}
		n, err := s.PruneEvents(ctx, clk.now().Add(-24*time.Hour))
		if err != nil || n != 1 {
			t.Fatalf("PruneEvents = %d, %v; want the one old event left", n, err)
		}
		if p := read(t, s, store.EventQuery{Account: "alice", Session: "s"}); !slices.Equal(payloads(p), []string{"acme/web#2:new-2"}) {
			t.Fatalf("after unsubscribe and prune: %v", payloads(p))
		}
		if l, subs, err := s.Pending(ctx, "alice", "s", "", ptr(latest)); err != nil || l != latest || len(subs) != 0 {
			t.Fatalf("Pending after the latest = %d %v %v", l, subs, err)
		}
	})
}

// A subscription and an event source may spell a repository in different
// cases (the model's "ACME/Web", the forge's "acme/web"): the event still
// reaches the subscription, which keeps its own spelling.
func TestEventsMatchRepositoriesIgnoringCase(t *testing.T) {
	storetest.Run(t, func(t *testing.T, dsn string) {
		s := open(t, dsn)
		shouted := issue(1)
		shouted.Repo = "ACME/Web"
		subscribeTo(t, s, "alice", shouted)
		if got := record(t, s, issue(1), change("comment", "c1")); len(got) != 1 {
			t.Fatalf("recorded %+v, want one event for the subscription spelled otherwise", got)
		}
		if got := payloads(read(t, s, store.EventQuery{Account: "alice", Session: "s1"})); !slices.Equal(got, []string{"ACME/Web#1:c1"}) {
			t.Fatalf("alice reads %v", got)
		}
	})
}
