package server

import (
	"crypto/tls"
	"fmt"
	"net"
	"net/http"
)

// ConsoleAddr is addr with a loopback host where it names none (":7780"
// becomes "127.0.0.1:7780"): the console is on loopback unless the
// operator names another address.
func ConsoleAddr(addr string) (string, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "", fmt.Errorf("console address %q: want HOST:PORT or :PORT: %w", addr, err)
	}
	if host == "" {
		host = "127.0.0.1"
	}
	return net.JoinHostPort(host, port), nil
}

// ListenConsole serves h, the operator's web console, on addr (see
// ConsoleAddr), with TLS when the server has it. A console bound to a
// non-loopback address without TLS is refused: its sign-in token and
// session cookie would cross the network in clear text.
func (s *Server) ListenConsole(addr string, h http.Handler) (net.Addr, error) {
	addr, err := ConsoleAddr(addr)
	if err != nil {
		return nil, err
	}
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("console: %w", err)
	}
	if s.opts.TLS == nil && !IsLoopback(l.Addr()) {
		l.Close()
		return nil, fmt.Errorf("console: %s is not a loopback address and there is no TLS: operator tokens and session cookies would cross the network in clear text; set tls_cert and tls_key, or bind the console to 127.0.0.1", addr)
	}
	if s.opts.TLS != nil {
		l = tls.NewListener(l, s.opts.TLS)
	}
	srv := s.newHTTPServer(h, nil)
	s.log.Info("console listening", "tcp", l.Addr().String(), "tls", s.opts.TLS != nil)
	s.serve(srv, l)
	return l.Addr(), nil
}
