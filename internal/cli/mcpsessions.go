package cli

import (
	"log/slog"
	"net/http"
	"slices"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"

	"github.com/forgetools/forgetools/gateway"
)

// Defaults of mcp --http's session limits.
const (
	defaultSessionIdle = 30 * time.Minute
	defaultMaxSessions = 16
)

// sessionLimits are the bounds on MCP HTTP sessions: each closes after
// idle with no request (the SDK's SessionTimeout), and a token holds at
// most max open at once. A new session past the cap evicts the token's
// idlest (the one whose last request is oldest) rather than being refused:
// MCP clients commonly drop a session without DELETE when they restart
// (the conformance suite opens one per scenario and closes none), and a
// refusal would lock such a client out until an old session idled out.
// Eviction gives nothing away: the sessions of one token are one
// principal's, who could end any of them with DELETE anyway.
type sessionLimits struct {
	idle time.Duration
	max  int
	now  func() time.Time // the clock of last use; time.Now unless a test sets it
	log  *slog.Logger

	mu    sync.Mutex
	gates map[gateway.Identity]*sync.Mutex
	// seen is when each session of an identity last had a request.
	seen map[gateway.Identity]map[string]time.Time
}

func newSessionLimits(idle time.Duration, max int, log *slog.Logger) *sessionLimits {
	return &sessionLimits{idle: idle, max: max, now: time.Now, log: log,
		gates: map[gateway.Identity]*sync.Mutex{}, seen: map[gateway.Identity]map[string]time.Time{}}
}

// gate serializes session creation per identity, so that concurrent
// initializations cannot all pass the count.
func (l *sessionLimits) gate(id gateway.Identity) *sync.Mutex {
	l.mu.Lock()
	defer l.mu.Unlock()
	g, ok := l.gates[id]
	if !ok {
		g = &sync.Mutex{}
		l.gates[id] = g
	}
	return g
}

// touch records a request on session sid of id.
func (l *sessionLimits) touch(id gateway.Identity, sid string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if m := l.seen[id]; m != nil {
		if _, ok := m[sid]; ok {
			m[sid] = l.now()
		}
	}
}

// wrap records every request's session and enforces the cap on requests
// that would open one (a POST without Mcp-Session-Id), before the SDK
// handler; server is the identity's MCP server, whose open sessions are
// counted.
func (l *sessionLimits) wrap(server func(*http.Request) *mcp.Server, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		info := auth.TokenInfoFromContext(r.Context())
		if info == nil {
			next.ServeHTTP(w, r)
			return
		}
		id, _ := info.Extra[identityKey].(gateway.Identity)
		if sid := r.Header.Get("Mcp-Session-Id"); sid != "" || r.Method != http.MethodPost {
			l.touch(id, sid)
			next.ServeHTTP(w, r)
			return
		}
		srv := server(r)
		if srv == nil {
			next.ServeHTTP(w, r)
			return
		}
		g := l.gate(id)
		g.Lock()
		defer g.Unlock()
		if l.max > 0 {
			l.evict(id, srv)
		}
		next.ServeHTTP(w, r)
		l.record(id, srv)
	})
}

// evict closes the idlest sessions of id until a new one fits the cap.
func (l *sessionLimits) evict(id gateway.Identity, srv *mcp.Server) {
	live := l.record(id, srv)
	for len(live) >= l.max {
		l.mu.Lock()
		seen := l.seen[id]
		idlest := 0
		for i, s := range live {
			if seen[s.ID()].Before(seen[live[idlest].ID()]) {
				idlest = i
			}
		}
		delete(seen, live[idlest].ID())
		l.mu.Unlock()
		l.log.Info("closed the idlest MCP session of a token at --max-sessions", "account", id.Account, "session", id.Session, "max_sessions", l.max)
		_ = live[idlest].Close()
		live = slices.Delete(live, idlest, idlest+1)
	}
}

// record notes the open sessions of id (a new one as used now), forgets
// the closed ones, and returns the open ones.
func (l *sessionLimits) record(id gateway.Identity, srv *mcp.Server) []*mcp.ServerSession {
	live := slices.Collect(srv.Sessions())
	l.mu.Lock()
	defer l.mu.Unlock()
	old := l.seen[id]
	m := make(map[string]time.Time, len(live))
	for _, s := range live {
		if t, ok := old[s.ID()]; ok {
			m[s.ID()] = t
		} else {
			m[s.ID()] = l.now()
		}
	}
	l.seen[id] = m
	return live
}

// mcpHTTPFlags are mcp --http's browser and session settings.
type mcpHTTPFlags struct {
	allowOrigin []string
	idle        time.Duration
	max         int
}

func (hf *mcpHTTPFlags) register(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.StringSliceVar(&hf.allowOrigin, "allow-origin", nil, "with --http: a browser origin (scheme://host[:port]) allowed besides loopback ones; repeatable, or comma-separated")
	fl.DurationVar(&hf.idle, "session-idle", defaultSessionIdle, "with --http: close an MCP session after this long with no request (0: never)")
	fl.IntVar(&hf.max, "max-sessions", defaultMaxSessions, "with --http: open MCP sessions a token may hold; a new one past it closes the token's idlest (0: no cap)")
}
