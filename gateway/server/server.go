// Package server puts a gateway.Service on the network: one Unix socket
// per agent session (the socket names the session, hence the account) and
// an optional TCP listener where a bearer token names the account. Both
// serve the same Connect handler; neither takes identity from the request.
package server

import (
	"context"
	"crypto/tls"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"time"

	"connectrpc.com/connect"
	"github.com/forgetools/forgetools/gateway"
)

// DefaultMaxRequestBytes fits the largest request the validation rules
// allow (a review with 50 inline comments of 60,000 four-byte characters
// each is about 12 MiB), so anything larger can never be valid.
const DefaultMaxRequestBytes = 16 << 20

// DefaultShutdownTimeout is how long Run lets in-flight calls finish.
const DefaultShutdownTimeout = 10 * time.Second

// Options tune a Server; the zero value is the production configuration.
type Options struct {
	// MaxRequestBytes limits one request message; larger ones fail with
	// Connect resource_exhausted before the caller sees them. Zero means
	// DefaultMaxRequestBytes.
	MaxRequestBytes int
	// ShutdownTimeout bounds Run's graceful shutdown; zero means
	// DefaultShutdownTimeout.
	ShutdownTimeout time.Duration
	// TLS, when set, makes ListenTCP serve TLS. Without it TCP is plain
	// HTTP (h2c): bind it to loopback or put TLS in front, since bearer
	// tokens cross it.
	TLS *tls.Config
	// Logger receives listener lifecycle and rejected-connection lines;
	// nil means slog.Default().
	Logger *slog.Logger
	// Handlers are further Connect procedures (path -> handler) served
	// beside the tables' on every listener, behind the same identity
	// binding: the WaitEvents RPC, say.
	Handlers map[string]http.Handler
	// Public are handlers (path -> handler) the TCP listener serves
	// without a bearer token because they authenticate their own requests,
	// such as webhook receivers that check the forge's signature. The
	// session sockets never serve them.
	Public map[string]http.Handler
}

// Server serves one Service on any number of listeners. A Server is
// used once: after Shutdown or Close it serves nothing more.
type Server struct {
	svc     *gateway.Service
	opts    Options
	log     *slog.Logger
	handler http.Handler // the Connect handler, no binding of its own

	mu      sync.Mutex
	servers []*http.Server // one per listener kind in use
	wg      sync.WaitGroup
	errs    chan error
}

// New returns a Server for svc. A nil svc is allowed and answers every call
// with Connect unavailable.
func New(svc *gateway.Service, opts Options) *Server {
	if opts.MaxRequestBytes <= 0 {
		opts.MaxRequestBytes = DefaultMaxRequestBytes
	}
	if opts.ShutdownTimeout <= 0 {
		opts.ShutdownTimeout = DefaultShutdownTimeout
	}
	log := opts.Logger
	if log == nil {
		log = slog.Default()
	}
	mux := http.NewServeMux()
	for path, h := range gateway.Handlers(svc, connect.WithReadMaxBytes(opts.MaxRequestBytes), compression()) {
		mux.Handle(path, h)
	}
	for path, h := range opts.Handlers {
		mux.Handle(path, h)
	}
	return &Server{svc: svc, opts: opts, log: log, handler: mux, errs: make(chan error, 1)}
}

// Handler is the Connect handler without any identity binding: mounted on a
// listener of your own, every call fails closed with permission_denied
// unless your middleware binds one with gateway.WithIdentity.
func (s *Server) Handler() http.Handler { return s.handler }

// newHTTPServer registers an http.Server for one kind of listener.
func (s *Server) newHTTPServer(h http.Handler, connContext func(context.Context, net.Conn) context.Context) *http.Server {
	var protocols http.Protocols
	protocols.SetHTTP1(true)
	protocols.SetUnencryptedHTTP2(true) // gRPC clients over plain sockets
	protocols.SetHTTP2(true)
	srv := &http.Server{
		Handler:           h,
		ConnContext:       connContext,
		Protocols:         &protocols,
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          slog.NewLogLogger(s.log.Handler(), slog.LevelWarn),
	}
	s.mu.Lock()
	s.servers = append(s.servers, srv)
	s.mu.Unlock()
	return srv
}

// serve runs srv on l in the background; a listener failing (rather than
// being shut down) ends Run.
func (s *Server) serve(srv *http.Server, l net.Listener) {
	s.wg.Go(func() {
		if err := srv.Serve(l); err != nil && !errors.Is(err, http.ErrServerClosed) {
			select {
			case s.errs <- err:
			default:
			}
		}
	})
}

// Run blocks until ctx ends or a listener fails, then shuts down
// gracefully (in-flight calls get Options.ShutdownTimeout to finish). It
// returns nil after a shutdown ctx asked for.
func (s *Server) Run(ctx context.Context) error {
	var err error
	select {
	case <-ctx.Done():
	case err = <-s.errs:
		s.log.Error("gateway listener failed", "cause", err.Error())
	}
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), s.opts.ShutdownTimeout)
	defer cancel()
	return errors.Join(err, s.Shutdown(sctx))
}

// Shutdown stops accepting connections, removes the socket files and waits
// for in-flight calls to finish or ctx to end.
func (s *Server) Shutdown(ctx context.Context) error {
	var errs []error
	for _, srv := range s.snapshot() {
		errs = append(errs, srv.Shutdown(ctx))
	}
	s.wg.Wait()
	s.log.Info("gateway stopped")
	return errors.Join(errs...)
}

// Close stops everything at once, cutting in-flight calls.
func (s *Server) Close() error {
	var errs []error
	for _, srv := range s.snapshot() {
		errs = append(errs, srv.Close())
	}
	s.wg.Wait()
	return errors.Join(errs...)
}

func (s *Server) snapshot() []*http.Server {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]*http.Server(nil), s.servers...)
}
