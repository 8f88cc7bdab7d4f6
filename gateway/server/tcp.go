package server

import (
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strings"

	"connectrpc.com/connect"
	"github.com/forgetools/forgetools/gateway"
)

// ListenTCP listens on addr ("127.0.0.1:7777"; port 0 picks one) and starts
// serving calls whose Authorization: Bearer token maps to an account. It
// returns the bound address.
func (s *Server) ListenTCP(addr string) (net.Addr, error) {
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("%w", err)
	}
	if s.opts.TLS != nil {
		l = tls.NewListener(l, s.opts.TLS)
	}
	h := s.bearer(uncompressedFor(loopback, s.handler))
	if len(s.opts.Public) > 0 {
		// Paths served without a bearer token (webhook receivers, which
		// authenticate each delivery by its signature).
		mux := http.NewServeMux()
		mux.Handle("/", h)
		for path, p := range s.opts.Public {
			mux.Handle(path, p)
		}
		h = mux
	}
	srv := s.newHTTPServer(h, nil)
	s.log.Info("gateway listening", "tcp", l.Addr().String(), "tls", s.opts.TLS != nil)
	WarnExposure(s.log, "gateway TCP listener", l.Addr(), s.opts.TLS != nil, s.svc != nil && s.svc.HasTokens())
	s.serve(srv, l)
	return l.Addr(), nil
}

// bearer binds the identity of the request's bearer token, or rejects the
// request with Connect unauthenticated (in the caller's protocol). The
// token itself is never logged.
func (s *Server) bearer(next http.Handler) http.Handler {
	errw := connect.NewErrorWriter()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if s.svc == nil {
			errw.Write(w, r, connect.NewError(connect.CodeUnavailable, errors.New("no forge gateway is configured on this server")))
			return
		}
		token, ok := bearerToken(r.Header.Get("Authorization"))
		var id gateway.Identity
		if ok {
			id, ok = s.svc.Authenticate(token)
		}
		if !ok {
			s.log.Warn("rejected a TCP call without a valid bearer token", "remote", r.RemoteAddr)
			errw.Write(w, r, connect.NewError(connect.CodeUnauthenticated,
				errors.New("a valid bearer token is required (Authorization: Bearer <token>)")))
			return
		}
		next.ServeHTTP(w, r.WithContext(gateway.WithIdentity(r.Context(), id)))
	})
}

// bearerToken extracts the token of an "Authorization: Bearer <token>"
// header; the scheme is case-insensitive (RFC 9110).
func bearerToken(header string) (string, bool) {
	scheme, token, ok := strings.Cut(header, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return "", false
	}
	token = strings.TrimSpace(token)
	return token, token != ""
}

// WarnExposure logs what an operator must know about a bearer-token
// listener at start: a non-loopback address without TLS sends tokens in
// clear text, and with no account token configured every call is refused.
func WarnExposure(log *slog.Logger, what string, addr net.Addr, withTLS, tokens bool) {
	if !withTLS && !IsLoopback(addr) {
		log.Warn(what+" is on a non-loopback address without TLS: bearer tokens cross the network in clear text; set tls_cert and tls_key (or --tls-cert and --tls-key)",
			"addr", addr.String())
	}
	if !tokens {
		log.Warn(what+" has no account token configured: every call on it will be refused; give an account token_envs",
			"addr", addr.String())
	}
}

// IsLoopback reports whether addr only accepts connections from this
// machine.
func IsLoopback(addr net.Addr) bool {
	tcp, ok := addr.(*net.TCPAddr)
	return ok && tcp.IP.IsLoopback()
}
