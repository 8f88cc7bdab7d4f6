package server_test

import (
	"context"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/forgetools/forgetools/gateway"
	"github.com/forgetools/forgetools/gateway/server"
	"github.com/forgetools/forgetools/gateway/store"
	"github.com/forgetools/forgetools/gateway/store/storetest"
	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/subscriptions"
)

// withState gives the gateway its state provider: the caller's own
// subscriptions and events.
func withState(c *gateway.Config, _ *server.Options) { c.State = subscriptions.State(c.Store) }

func getEvents(sub string, after *uint64) *gatewayv1.ForgeCallRequest {
	return &gatewayv1.ForgeCallRequest{Call: &gatewayv1.ForgeCallRequest_GetEvents{GetEvents: &gatewayv1.GetEventsRequest{SubscriptionId: sub, After: after}}}
}

// recordComment stores a comment event for every subscription to the
// artifact, as a source would.
func recordComment(t *testing.T, st *store.Store, a store.Artifact, body string) {
	t.Helper()
	payload, err := proto.Marshal(&forgev1.Event{Type: forgev1.EventType_EVENT_TYPE_COMMENT, Actor: "hubot", Body: body})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.RecordChanges(context.Background(), a, []store.Change{{Type: "comment", DedupKey: body, Payload: payload}}); err != nil {
		t.Fatal(err)
	}
}

func bodies(l *forgev1.EventList) []string {
	var out []string
	for _, e := range l.GetEvents() {
		out = append(out, e.GetRepo()+":"+e.GetBody())
	}
	return out
}

// A call that names no subscription is scoped by the caller's own state:
// the gateway sends it to the state provider (never a forge), refuses a
// selector on it, and the provider leaves out what the account's scope no
// longer covers.
func TestGetEventsScopedByOwnState(t *testing.T) {
	storetest.Run(t, func(t *testing.T, dsn string) {
		h := start(t, dsn, withState)
		n := h.call("alice-1", createIssue("acme/web", "watched", "", "")).GetIssue().GetNumber()
		m := h.call("alice-1", createIssue("tools/cli", "watched too", "", "")).GetIssue().GetNumber()
		sub := h.call("alice-1", subscribe("acme/web", gatewayv1.SubscriptionKind_SUBSCRIPTION_KIND_ISSUE, n)).GetSubscribed()
		h.call("alice-1", subscribe("tools/cli", gatewayv1.SubscriptionKind_SUBSCRIPTION_KIND_ISSUE, m))
		github := store.Forge{Provider: forgev1.ForgeProvider_FORGE_PROVIDER_GITHUB, Host: "github.com"}
		recordComment(t, h.store, store.Artifact{Forge: github, Repo: "acme/web", Kind: store.KindIssue, Number: n}, "one")
		recordComment(t, h.store, store.Artifact{Forge: github, Repo: "tools/cli", Kind: store.KindIssue, Number: m}, "two")

		calls := h.github.Total()
		all := h.call("alice-1", getEvents("", nil)).GetEvents()
		if got := bodies(all); len(got) != 2 || got[0] != "acme/web:one" || got[1] != "tools/cli:two" {
			t.Fatalf("every subscription: %v", got)
		}
		if h.github.Total() != calls {
			t.Errorf("reading events reached the forge")
		}
		// One subscription's stream, scoped by the stored subscription.
		if got := bodies(h.call("alice-2", getEvents(sub.GetSubscriptionId(), nil)).GetEvents()); len(got) != 1 || got[0] != "acme/web:one" {
			t.Fatalf("one subscription: %v", got)
		}
		wantError(t, h.call("bob-1", getEvents(sub.GetSubscriptionId(), nil)), gatewayv1.ErrorCode_ERROR_CODE_NOT_FOUND, sub.GetSubscriptionId())
		// Bob has none: an empty page, not an error.
		if got := h.call("bob-1", getEvents("", nil)).GetEvents(); got == nil || len(got.GetEvents()) != 0 {
			t.Fatalf("bob's events: %v", got)
		}
		wantError(t, h.call("alice-1", withForge(getEvents("", nil), forgev1.ForgeProvider_FORGE_PROVIDER_GITHUB, "")),
			gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT, "omit forge_provider and forge_host")
		h.stop()

		narrowed := start(t, dsn, withState, scope("acme/web"))
		if got := bodies(narrowed.call("alice-1", getEvents("", nil)).GetEvents()); len(got) != 1 || got[0] != "acme/web:one" {
			t.Fatalf("with the scope narrowed to acme/web: %v", got)
		}
		subs, _ := narrowed.store.Subscriptions(context.Background(), "alice")
		for _, s := range subs {
			if s.Repo == "tools/cli" {
				wantError(t, narrowed.call("alice-1", getEvents(s.ID, nil)), gatewayv1.ErrorCode_ERROR_CODE_PERMISSION_DENIED, "tools/cli")
			}
		}
	})
}

// A gateway configured without a state provider says so.
func TestGetEventsWithoutStateProvider(t *testing.T) {
	h := start(t, storetest.SQLite(t))
	wantError(t, h.call("alice-1", getEvents("", nil)), gatewayv1.ErrorCode_ERROR_CODE_UNIMPLEMENTED,
		"forge_get_events reads state this gateway does not keep")
}
