package feed

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"buf.build/go/protovalidate"
	"connectrpc.com/connect"

	"github.com/forgetools/forgetools/gateway/store"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/gen/forgetools/gateway/v1/gatewayv1connect"
)

// DefaultWait is how long WaitEvents waits when the request names no
// timeout.
const DefaultWait = time.Minute

// Wait blocks until the session has events after a cursor (nil: the
// session's acknowledged cursor of the stream) on subscription sub (""
// for every subscription of the account), ctx ends or the feed closes.
// It returns the newest cursor of the stream and the subscriptions with
// news, none when the wait ended without.
func (f *Feed) Wait(ctx context.Context, account, session, sub string, after *uint64) (uint64, []string, error) {
	t := time.NewTicker(f.opts.Check)
	defer t.Stop()
	for {
		// Take the wake channel before looking, so a Record between the
		// look and the select still wakes this wait.
		wake := f.woken()
		latest, subs, err := f.store.Pending(ctx, account, session, sub, after)
		if ctx.Err() != nil {
			return latest, nil, nil
		}
		if err != nil || len(subs) > 0 {
			return latest, subs, err
		}
		select {
		case <-ctx.Done():
			return latest, nil, nil
		case <-f.done:
			return latest, nil, nil
		case <-wake:
		case <-t.C:
		}
	}
}

// Session is the feed as one caller waits on it in-process: what the
// WaitEvents RPC serves, without a socket in between.
type Session struct {
	feed             *Feed
	account, session string
}

// For is the feed for the agent session of an account, as the gateway
// identified the caller.
func (f *Feed) For(account, session string) *Session {
	return &Session{feed: f, account: account, session: session}
}

// WaitEvents is the WaitEvents RPC for this session. Failures are Connect
// errors: invalid_argument for a bad request, not_found for a subscription
// the account does not have.
func (s *Session) WaitEvents(ctx context.Context, req *gatewayv1.WaitEventsRequest) (*gatewayv1.WaitEventsResponse, error) {
	if err := protovalidate.Validate(req); err != nil {
		return nil, connect.NewError(connect.CodeInvalidArgument, err)
	}
	if id := req.GetSubscriptionId(); id != "" {
		_, err := s.feed.store.Subscription(ctx, s.account, id)
		if errors.Is(err, store.ErrNotFound) {
			return nil, connect.NewError(connect.CodeNotFound, fmt.Errorf("subscription %q not found for this account", id))
		}
		if err != nil {
			return nil, connect.NewError(connect.CodeUnavailable, errors.New("the gateway store did not answer"))
		}
	}
	wait := DefaultWait
	if ms := req.GetTimeoutMs(); ms > 0 {
		wait = time.Duration(ms) * time.Millisecond
	}
	ctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	latest, subs, err := s.feed.Wait(ctx, s.account, s.session, req.GetSubscriptionId(), req.After)
	if err != nil {
		s.feed.log.ErrorContext(ctx, "waiting for events failed", "account", s.account, "cause", err.Error())
		return nil, connect.NewError(connect.CodeUnavailable, errors.New("the gateway store did not answer"))
	}
	return &gatewayv1.WaitEventsResponse{Cursor: latest, SubscriptionIds: subs}, nil
}

// Handler serves the WaitEvents RPC for the caller identify finds in a
// request's context: the account and session the gateway's listener bound
// to the connection (gateway.CallerFrom; gateway/server mounts the handler
// beside the forge table's procedure). A request without one fails closed.
// The gateway is asked, not imported: it sits above this package.
func (f *Feed) Handler(identify func(context.Context) (account, session string, ok bool), opts ...connect.HandlerOption) (string, http.Handler) {
	path := gatewayv1connect.AgentGatewayWaitEventsProcedure
	return path, connect.NewUnaryHandler(path, func(ctx context.Context, req *connect.Request[gatewayv1.WaitEventsRequest]) (*connect.Response[gatewayv1.WaitEventsResponse], error) {
		account, session, ok := identify(ctx)
		if !ok {
			return nil, connect.NewError(connect.CodePermissionDenied, errors.New("this connection is not bound to an agent session"))
		}
		res, err := f.For(account, session).WaitEvents(ctx, req.Msg)
		if err != nil {
			return nil, err
		}
		return connect.NewResponse(res), nil
	}, opts...)
}
