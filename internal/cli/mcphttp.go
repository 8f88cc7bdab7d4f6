package cli

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/forgetools/forgetools/gateway"
	"github.com/forgetools/forgetools/gateway/server"
	"github.com/forgetools/forgetools/internal/mcpserver"
	"github.com/forgetools/forgetools/runtime"
)

// mcpPath is where the MCP HTTP listener serves the streamable transport.
const mcpPath = "/mcp"

// identityKey carries the authenticated identity from the bearer check to
// the MCP server picker.
const identityKey = "forgetools.identity"

// mcpHTTP serves MCP's streamable HTTP transport for the accounts of an
// in-process gateway: each request's bearer token names the account and
// session, and each identity gets its own MCP server over a toolset that
// calls the gateway as that identity.
type mcpHTTP struct {
	sys *system
	// ctx bounds the goroutines that follow subscribed resources.
	ctx     context.Context
	options func(runtime.Transport) (*runtime.Toolset, error)
	log     *slog.Logger

	// allowOrigin are the --allow-origin entries; limits bound sessions.
	allowOrigin []string
	limits      *sessionLimits

	mu      sync.Mutex
	servers map[gateway.Identity]*mcp.Server
}

// handler is the MCP endpoint behind the Origin check, the bearer check
// and the session cap, for a listener on addr.
func (h *mcpHTTP) handler(addr net.Addr) (http.Handler, error) {
	origins, err := newOriginPolicy(addr, h.allowOrigin)
	if err != nil {
		return nil, err
	}
	mcpHandler := mcp.NewStreamableHTTPHandler(h.server, &mcp.StreamableHTTPOptions{Logger: h.log, SessionTimeout: h.limits.idle})
	verify := func(_ context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
		id, ok := h.sys.svc.Authenticate(token)
		if !ok {
			h.log.Warn("rejected an MCP HTTP request without a valid bearer token")
			return nil, fmt.Errorf("%w: not a token of any account", auth.ErrInvalidToken)
		}
		// The SDK binds each MCP session to UserID: a session id presented
		// with another account's token is refused.
		return &auth.TokenInfo{UserID: id.Account + "/" + id.Session, Extra: map[string]any{identityKey: id}}, nil
	}
	mux := http.NewServeMux()
	bearer := auth.RequireBearerToken(verify, &auth.RequireBearerTokenOptions{AllowMissingExpiration: true})
	mux.Handle(mcpPath, origins.wrap(bearer(h.limits.wrap(h.server, mcpHandler))))
	return mux, nil
}

// server is the MCP server of the request's identity, built on first use.
func (h *mcpHTTP) server(r *http.Request) *mcp.Server {
	info := auth.TokenInfoFromContext(r.Context())
	if info == nil {
		return nil // unreachable behind RequireBearerToken
	}
	id, _ := info.Extra[identityKey].(gateway.Identity)
	h.mu.Lock()
	defer h.mu.Unlock()
	if srv, ok := h.servers[id]; ok {
		return srv
	}
	ts, err := h.options(runtime.TransportFunc(h.sys.svc.Transport(id)))
	if err != nil {
		h.log.Error("building the toolset", "cause", err.Error())
		return nil
	}
	srv := mcpserver.New(ts, Version, mcpserver.Options{Events: h.sys.feed.For(id.Account, id.Session), Context: h.ctx, Logger: h.log, Decider: h.sys.decider(id)})
	h.servers[id] = srv
	return srv
}

// serveMCPHTTP listens on addr and serves until ctx ends, announcing the
// endpoint URL on out.
func serveMCPHTTP(ctx context.Context, h *mcpHTTP, addr string, tlsConfig *tls.Config, out io.Writer) error {
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	handler, err := h.handler(l.Addr())
	if err != nil {
		l.Close()
		return err
	}
	if tlsConfig != nil {
		l = tls.NewListener(l, tlsConfig)
	}
	server.WarnExposure(h.log, "MCP HTTP listener", l.Addr(), tlsConfig != nil, h.sys.svc.HasTokens())
	srv := &http.Server{
		Handler:           handler,
		ReadHeaderTimeout: 10 * time.Second,
		ErrorLog:          slog.NewLogLogger(h.log.Handler(), slog.LevelWarn),
	}
	fmt.Fprintf(out, "listening on %s://%s%s\n", scheme(tlsConfig), l.Addr(), mcpPath)
	errs := make(chan error, 1)
	go func() { errs <- srv.Serve(l) }()
	select {
	case err := <-errs:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), server.DefaultShutdownTimeout)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return nil
}
