package cli

import (
	"fmt"
	"net/http"
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
// most max open at once. Past the cap a new session is refused (429) and
// the open ones are left alone: evicting the idlest would let one client
// of a token silently end another's session, where a refusal says at
// once what to do (close one with DELETE, or wait for one to idle out).
type sessionLimits struct {
	idle time.Duration
	max  int

	// mu serializes session creation per identity, so that concurrent
	// initializations cannot all pass the count.
	mu    sync.Mutex
	gates map[gateway.Identity]*sync.Mutex
}

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

// wrap enforces the cap on requests that would open a session (a POST
// without Mcp-Session-Id) before the SDK handler; server is the identity's
// MCP server, whose open sessions are counted.
func (l *sessionLimits) wrap(server func(*http.Request) *mcp.Server, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if l.max <= 0 || r.Method != http.MethodPost || r.Header.Get("Mcp-Session-Id") != "" {
			next.ServeHTTP(w, r)
			return
		}
		info := auth.TokenInfoFromContext(r.Context())
		if info == nil {
			next.ServeHTTP(w, r)
			return
		}
		id, _ := info.Extra[identityKey].(gateway.Identity)
		g := l.gate(id)
		g.Lock()
		defer g.Unlock()
		if srv := server(r); srv != nil && countSessions(srv) >= l.max {
			http.Error(w, fmt.Sprintf("Too Many Requests: this token already has %d open MCP sessions (--max-sessions); end one with DELETE or let one idle out (--session-idle %s)", l.max, l.idle), http.StatusTooManyRequests)
			return
		}
		next.ServeHTTP(w, r)
	})
}

func countSessions(srv *mcp.Server) int {
	n := 0
	for range srv.Sessions() {
		n++
	}
	return n
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
	fl.IntVar(&hf.max, "max-sessions", defaultMaxSessions, "with --http: open MCP sessions a token may hold; past it a new session is refused (429); 0: no cap")
}
