package subscriptions

import (
	"context"
	"fmt"

	"google.golang.org/protobuf/proto"

	"github.com/forgetools/forgetools/gateway/store"
	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/gen/forgetools/gateway/v1/gatewayv1handler"
	"github.com/forgetools/forgetools/toolserver"
)

// DefaultLimit is how many events forge_get_events returns when the call
// gives no limit.
const DefaultLimit = 20

// State is the gateway's state provider (gateway.Config.State): it serves
// forge_get_events for a call that names no subscription, from every
// subscription of the caller's account still in its scope. It reaches no
// forge.
func State(st *store.Store) Provider {
	return &state{store: st}
}

type state struct {
	gatewayv1handler.UnimplementedForgeHandler
	store *store.Store
}

// Ref is no configured forge: the state spans all of them.
func (s *state) Ref() *forgev1.ForgeRef { return &forgev1.ForgeRef{} }

func (s *state) GetEvents(ctx context.Context, c toolserver.Call, req *gatewayv1.GetEventsRequest) (*forgev1.EventList, error) {
	return readEvents(ctx, s.store, c, req)
}

// inScope is the call's scope check for the store, which keys events by
// forge coordinate; nil when the call carries none.
func inScope(c toolserver.Call) func(*forgev1.ForgeRef, string) bool {
	if c.InScope == nil {
		return nil
	}
	return func(ref *forgev1.ForgeRef, repo string) bool { return c.InScope(ref, repo) }
}

// readEvents acknowledges what the call's after says was read, then
// returns the session's next page.
func readEvents(ctx context.Context, st *store.Store, c toolserver.Call, req *gatewayv1.GetEventsRequest) (*forgev1.EventList, error) {
	limit := int(req.GetLimit())
	if limit == 0 {
		limit = DefaultLimit
	}
	page, err := st.ReadEvents(ctx, store.EventQuery{
		Account: c.Account, Session: c.Session, SubscriptionID: req.GetSubscriptionId(),
		After: req.After, Limit: limit, InScope: inScope(c),
	})
	if err != nil {
		return nil, err
	}
	out := &forgev1.EventList{NextCursor: page.Next, More: page.More}
	for _, e := range page.Events {
		ev, err := Decode(e)
		if err != nil {
			return nil, err
		}
		out.Events = append(out.Events, ev)
	}
	return out, nil
}

// Decode is a stored event as its subscriber reads it: what the source
// described, with the cursor, the subscription, the artifact and whether
// the change was the subscriber's own.
func Decode(e store.Event) (*forgev1.Event, error) {
	ev := &forgev1.Event{}
	if err := proto.Unmarshal(e.Payload, ev); err != nil {
		return nil, fmt.Errorf("subscriptions: event %d: %w", e.Cursor, err)
	}
	ev.Cursor, ev.SubscriptionId, ev.Own = e.Cursor, e.Subscription.ID, e.Own
	if e.Subscription.Kind == store.KindApproval {
		// A decision on a parked call: the gateway wrote the repository
		// the call names; no forge, no artifact number.
		ev.Kind, ev.Forge, ev.Number = string(store.KindApproval), nil, 0
		return ev, nil
	}
	ev.Forge, ev.Repo, ev.Kind, ev.Number = e.Subscription.Forge.Ref(), e.Subscription.Repo, string(e.Subscription.Kind), e.Subscription.Number
	return ev, nil
}
