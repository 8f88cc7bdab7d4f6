// Package events is the agent side of change notifications: a Go agent
// runtime waits here, between turns, until a subscription the agent made
// with forge_subscribe has news, then has the events read with
// forge_get_events through its Toolset, so the model sees them rendered
// like any read (fenced text, claimed attribution, its own writes marked).
//
//	w, err := events.Dial("unix:///run/forgetools/release-bot-1.sock")
//	news, stopped := events.Watch(ctx, w, "") // every subscription of the session
//	for range news {
//		res := tools.Execute(ctx, runtime.Call{ID: nextID(), Name: "forge_get_events", Args: json.RawMessage(`{}`)})
//		// hand res.Text to the model; it passes next_cursor as after once it has read the page
//	}
//	err = stopped()
//
// Waiting costs the forge nothing: the gateway answers from its own store,
// where the poll driver, webhooks and the local forge put the events.
package events

import (
	"context"
	"errors"
	"time"

	"connectrpc.com/connect"

	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/gen/forgetools/gateway/v1/gatewayv1connect"
	"github.com/forgetools/forgetools/runtime"
)

// Round is how long one WaitEvents request waits at most; Wait and Watch
// wait in rounds, so no request stays open long enough for a proxy or an
// idle timeout to cut it.
const Round = 50 * time.Second

// Waiter is the gateway's WaitEvents RPC: a Connect client of a running
// gateway (Dial), or the gateway's feed in-process (feed.Feed.For).
type Waiter interface {
	WaitEvents(ctx context.Context, req *gatewayv1.WaitEventsRequest) (*gatewayv1.WaitEventsResponse, error)
}

// Dial returns a Waiter calling the gateway at target, as
// runtime.DialGateway does: "unix:///path/to/session.sock" (the socket is
// the session) or "http(s)://host:port" with a bearer-token interceptor in
// opts.
func Dial(target string, opts ...connect.ClientOption) (Waiter, error) {
	hc, base, err := runtime.Endpoint(target)
	if err != nil {
		return nil, err
	}
	return client{gatewayv1connect.NewAgentGatewayClient(hc, base, opts...)}, nil
}

type client struct {
	c gatewayv1connect.AgentGatewayClient
}

func (c client) WaitEvents(ctx context.Context, req *gatewayv1.WaitEventsRequest) (*gatewayv1.WaitEventsResponse, error) {
	res, err := c.c.WaitEvents(ctx, connect.NewRequest(req))
	if err != nil {
		return nil, err
	}
	return res.Msg, nil
}

// Pending is news: the subscriptions with events after the cursor a wait
// started from, and the newest cursor among them.
type Pending struct {
	Cursor          uint64
	SubscriptionIDs []string
}

// Wait blocks until the session has events it has not acknowledged, on
// subscriptionID or on any subscription of its account when that is "",
// or ctx ends (returning its error).
func Wait(ctx context.Context, w Waiter, subscriptionID string) (Pending, error) {
	return waitAfter(ctx, w, subscriptionID, nil)
}

func waitAfter(ctx context.Context, w Waiter, subscriptionID string, after *uint64) (Pending, error) {
	for {
		res, err := w.WaitEvents(ctx, &gatewayv1.WaitEventsRequest{
			SubscriptionId: subscriptionID, After: after, TimeoutMs: uint32(Round.Milliseconds()),
		})
		if ctx.Err() != nil {
			return Pending{}, ctx.Err()
		}
		if err != nil {
			return Pending{}, err
		}
		if len(res.GetSubscriptionIds()) > 0 {
			return Pending{Cursor: res.GetCursor(), SubscriptionIDs: res.GetSubscriptionIds()}, nil
		}
	}
}

// Watch reports news on the returned channel until ctx ends: first what
// the session has not acknowledged, then each time events arrive after the
// last ones it reported. A wait that fails because the gateway is
// unreachable is retried after a pause; one the gateway refuses (an
// unknown subscription, a connection bound to no session) ends the watch.
// The channel is closed when the watch ends, and stopped then returns why
// (nil when ctx ended it). A consumer that falls behind gets the newest
// news, never a backlog.
func Watch(ctx context.Context, w Waiter, subscriptionID string) (news <-chan Pending, stopped func() error) {
	ch := make(chan Pending, 1)
	done := make(chan struct{})
	var cause error
	go func() {
		defer close(done)
		defer close(ch)
		var after *uint64
		pause := time.Second
		for {
			p, err := waitAfter(ctx, w, subscriptionID, after)
			switch {
			case ctx.Err() != nil:
				return
			case permanent(err):
				cause = err
				return
			case err != nil:
				select {
				case <-ctx.Done():
					return
				case <-time.After(pause):
				}
				pause = min(2*pause, 30*time.Second)
				continue
			}
			pause = time.Second
			after = &p.Cursor
			select {
			case <-ch: // drop unread news: the newer supersedes it
			default:
			}
			ch <- p
		}
	}()
	return ch, func() error { <-done; return cause }
}

// permanent reports whether waiting again could not help.
func permanent(err error) bool {
	if err == nil {
		return false
	}
	switch connect.CodeOf(err) {
	case connect.CodeNotFound, connect.CodeInvalidArgument, connect.CodePermissionDenied, connect.CodeUnauthenticated, connect.CodeUnimplemented:
		return true
	}
	return errors.Is(err, context.Canceled)
}
