package server

import (
	"crypto/tls"
	"errors"
	"fmt"
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
		return nil, fmt.Errorf("server: %w", err)
	}
	if s.opts.TLS != nil {
		l = tls.NewListener(l, s.opts.TLS)
	}
	h := s.bearer(s.handler)
	if len(s.opts.Public) > 0 {
		mux := http.NewServeMux()
		mux.Handle("/", h)
		for path, p := range s.opts.Public {
			mux.Handle(path, p)
		}
		h = mux
	}
	srv := s.newHTTPServer(h, nil)
	s.log.Info("gateway listening", "tcp", l.Addr().String(), "tls", s.opts.TLS != nil)
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
