package store_test

import (
	"context"
	"slices"
	"testing"

	"github.com/forgetools/forgetools/gateway/store"
	"github.com/forgetools/forgetools/gateway/store/storetest"
	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
)

// An account's approval stream is one subscription, made once; a decision
// recorded twice is stored once; its events share the cursor counter with
// forge events, come through a scope that refuses everything (they answer
// the account's own calls) and reach no other account; an unsubscribed
// stream is made again by the next decision.
func TestApprovalStream(t *testing.T) {
	storetest.Run(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		s := open(t, dsn)
		stream, err := s.ApprovalStream(ctx, "alice")
		if err != nil {
			t.Fatal(err)
		}
		if again, err := s.ApprovalStream(ctx, "alice"); err != nil || again.ID != stream.ID || stream.Kind != store.KindApproval {
			t.Fatalf("ApprovalStream again = %+v, %v; first %+v", again, err, stream)
		}
		a := store.Artifact{Forge: store.Forge{Provider: forgev1.ForgeProvider_FORGE_PROVIDER_GITHUB, Host: "github.com"}, Repo: "acme/web", Kind: store.KindIssue, Number: 1}
		subscribeTo(t, s, "alice", a)
		record(t, s, a, change("comment", "c1"))
		for range 2 {
			if _, err := s.RecordDecision(ctx, "alice", change("state", "approval:ap-1:denied")); err != nil {
				t.Fatal(err)
			}
		}
		page := read(t, s, store.EventQuery{Account: "alice", Session: "s", InScope: func(*forgev1.ForgeRef, string) bool { return false }})
		if got := payloads(page); !slices.Equal(got, []string{"#0:approval:ap-1:denied"}) || page.Next != 2 {
			t.Fatalf("through a scope refusing all: %v (next %d)", got, page.Next)
		}
		if bob := read(t, s, store.EventQuery{Account: "bob", Session: "s"}); len(bob.Events) != 0 {
			t.Fatalf("bob read alice's decisions: %v", payloads(bob))
		}
		if err := s.Unsubscribe(ctx, "alice", stream.ID); err != nil {
			t.Fatal(err)
		}
		got, err := s.RecordDecision(ctx, "alice", change("state", "approval:ap-2:done"))
		if err != nil || len(got) != 1 || got[0].SubscriptionID == stream.ID {
			t.Fatalf("RecordDecision after unsubscribing = %v, %v", got, err)
		}
	})
}
