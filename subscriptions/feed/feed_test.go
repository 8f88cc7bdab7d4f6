package feed_test

import (
	"context"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/forgetools/forgetools/gateway/store"
	"github.com/forgetools/forgetools/gateway/store/storetest"
	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	"github.com/forgetools/forgetools/internal/redact"
	"github.com/forgetools/forgetools/internal/testkit"
	"github.com/forgetools/forgetools/subscriptions/feed"
	"github.com/forgetools/forgetools/toolserver/notify"
)

const feedSecret = "ghp_FeedEch0Secr3t8Hj2Kl4Zx6Cv9Bn1Mq5"

// TestRecordRedactsThePayload: an event a forge filled with a credential
// (its actor, a label) is stored redacted, and the caller's event is left
// as it was.
func TestRecordRedactsThePayload(t *testing.T) {
	ctx := context.Background()
	st, err := store.Open(ctx, storetest.SQLite(t))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	st.SetRedactor(redact.New(feedSecret))
	gh := store.Forge{Provider: forgev1.ForgeProvider_FORGE_PROVIDER_GITHUB, Host: "github.com"}
	sub, err := st.Subscribe(ctx, store.Subscription{Account: "alice", Forge: gh, Repo: "acme/web", Kind: store.KindIssue, Number: 3})
	if err != nil {
		t.Fatal(err)
	}
	f := feed.New(st, feed.Options{})
	defer f.Close()
	ev := &forgev1.Event{Type: forgev1.EventType_EVENT_TYPE_COMMENT, Actor: "bot " + feedSecret,
		LabelsAdded: []string{testkit.Echoes(feedSecret)["fullwidth"]}}
	if err := f.Record(ctx, store.Artifact{Forge: gh, Repo: "acme/web", Kind: store.KindIssue, Number: 3},
		notify.Change{Event: ev, Key: "comment:" + feedSecret}); err != nil {
		t.Fatal(err)
	}
	if ev.GetActor() != "bot "+feedSecret {
		t.Errorf("the caller's event was changed: %v", ev)
	}
	page, err := st.ReadEvents(ctx, store.EventQuery{Account: "alice", Session: "s", SubscriptionID: sub.ID, Limit: 10})
	if err != nil || len(page.Events) != 1 {
		t.Fatalf("read: %+v, %v", page, err)
	}
	got := &forgev1.Event{}
	if err := proto.Unmarshal(page.Events[0].Payload, got); err != nil {
		t.Fatal(err)
	}
	if l := testkit.Leak(feedSecret, got.String()+string(page.Events[0].Payload)); l != "" {
		t.Errorf("the stored event shows %q: %v", l, got)
	}
	if got.GetActor() != "bot "+redact.Marker {
		t.Errorf("actor stored as %q", got.GetActor())
	}
}
