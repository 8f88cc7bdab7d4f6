package gateway

import (
	"context"
	"errors"

	"connectrpc.com/connect"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/gen/forgetools/gateway/v1/gatewayv1connect"
)

// Handler serves AgentGateway over Connect for the identity the listener
// bound to the request's context (WithIdentity). Mount it with
// gatewayv1connect.NewAgentGatewayHandler; gateway/server does.
type Handler struct {
	caller *ForgeCaller
}

var _ gatewayv1connect.AgentGatewayHandler = (*Handler)(nil)

// NewHandler returns the Connect handler for caller.
func NewHandler(caller *ForgeCaller) *Handler { return &Handler{caller: caller} }

// Forge implements AgentGatewayHandler. Failures of the connection itself
// are Connect errors (no caller: unavailable; a connection its listener
// refused, or no bound identity: permission_denied); everything about the
// call is in the result.
func (h *Handler) Forge(ctx context.Context, req *connect.Request[gatewayv1.ForgeCallRequest]) (*connect.Response[gatewayv1.ForgeCallResult], error) {
	if h == nil || h.caller == nil {
		return nil, connect.NewError(connect.CodeUnavailable, errors.New("no forge caller is configured on this gateway"))
	}
	if reason := refusalFrom(ctx); reason != "" {
		return nil, connect.NewError(connect.CodePermissionDenied, errors.New(reason))
	}
	id, ok := IdentityFrom(ctx)
	if !ok {
		return nil, connect.NewError(connect.CodePermissionDenied, errors.New("this connection is not bound to an agent session"))
	}
	return connect.NewResponse(h.caller.Forge(ctx, id, req.Msg)), nil
}
