package gateway

import (
	"context"
	"errors"
	"net/http"

	"connectrpc.com/connect"
	"google.golang.org/protobuf/proto"

	"github.com/forgetools/forgetools/gen/forgetools/gateway/v1/gatewayv1handler"
	"github.com/forgetools/forgetools/toolserver"
)

// wire lets one Connect handler carry any table's envelopes: it is a
// proto.Message by embedding one, so Connect's codecs unmarshal into the
// request the table's NewRequest supplies (see the request initializer)
// and marshal the result it wraps.
type wire struct{ proto.Message }

// Handlers returns the Connect handler of every table svc serves, keyed by
// procedure path. Each serves the identity the listener bound to the
// request's context (WithIdentity); a request without one fails closed.
// A nil svc mounts the forge table's procedure answering unavailable.
func Handlers(svc *Service, opts ...connect.HandlerOption) map[string]http.Handler {
	tables := []*toolserver.Table{gatewayv1handler.ForgeTable}
	if svc != nil {
		tables = svc.Tables()
	}
	out := map[string]http.Handler{}
	for _, t := range tables {
		newRequest := connect.WithRequestInitializer(func(_ connect.Spec, m any) error {
			w, ok := m.(*wire)
			if !ok {
				return errors.New("unexpected request holder")
			}
			w.Message = t.NewRequest()
			return nil
		})
		out[t.Procedure] = connect.NewUnaryHandler(t.Procedure, serve(svc), append([]connect.HandlerOption{newRequest}, opts...)...)
	}
	return out
}

// serve is one table's unary function. Failures of the connection itself
// are Connect errors (no service: unavailable; a connection its listener
// refused, or no bound identity: permission_denied); everything about the
// call is in the result.
func serve(svc *Service) func(context.Context, *connect.Request[wire]) (*connect.Response[wire], error) {
	return func(ctx context.Context, req *connect.Request[wire]) (*connect.Response[wire], error) {
		if svc == nil {
			return nil, connect.NewError(connect.CodeUnavailable, errors.New("no forge gateway is configured on this server"))
		}
		if reason := refusalFrom(ctx); reason != "" {
			return nil, connect.NewError(connect.CodePermissionDenied, errors.New(reason))
		}
		id, ok := IdentityFrom(ctx)
		if !ok {
			return nil, connect.NewError(connect.CodePermissionDenied, errors.New("this connection is not bound to an agent session"))
		}
		res, err := svc.Call(ctx, id, req.Msg.Message)
		if err != nil {
			return nil, connect.NewError(connect.CodeInvalidArgument, err)
		}
		return connect.NewResponse(&wire{res}), nil
	}
}
