package console

import (
	"context"
	"crypto/sha256"
	"embed"
	"errors"
	"fmt"
	"html/template"
	"log/slog"
	"net/http"
	"time"

	"github.com/forgetools/forgetools/gateway/scopeedit"
	"github.com/forgetools/forgetools/gateway/store"
)

// Operator is one person (or role) who may sign in: the name decisions are
// recorded under and the secret token.
type Operator struct {
	Name  string
	Token string
}

// Account is what the scope page shows of one account.
type Account struct {
	Name      string
	Scope     []string
	Sessions  []string
	Approvers []string
}

// Options configure a Console.
type Options struct {
	// Operators may sign in; at least one is required.
	Operators []Operator
	// IsAgentToken reports whether a token authenticates an agent account;
	// such a sign-in is refused and logged as an attack. Nil: no check
	// beyond the operator tokens.
	IsAgentToken func(token string) bool
	// Queue is the gateway's approval gate; nil shows an empty queue
	// that says no gate is configured.
	Queue Queue
	// Audit lists what agents created (the gateway store's ownership
	// records).
	Audit func(ctx context.Context, f store.AuditFilter) ([]store.Ownership, error)
	// Accounts are shown on the scope page.
	Accounts []Account
	// Scopes, if set, is where the scope page reads each account's
	// effective scope and its editor changes it (the same editor as
	// forgetools scope add|remove); nil shows Accounts' scopes, read-only.
	Scopes *scopeedit.Editor
	// Secure marks the session cookie Secure: set it when serving TLS.
	Secure bool
	// LoopbackOnly makes the console accept only a loopback Host header
	// (127.0.0.1, ::1, localhost), the DNS-rebinding defence of a console
	// bound to loopback.
	LoopbackOnly bool
	// SessionTTL is how long a sign-in lasts; zero = 12 hours.
	SessionTTL time.Duration
	Logger     *slog.Logger
}

// Console serves the operator's pages.
type Console struct {
	opts      Options
	log       *slog.Logger
	operators []operatorDigest
	sessions  *sessions
	pages     *template.Template
	mux       *http.ServeMux
}

type operatorDigest struct {
	name   string
	digest [sha256.Size]byte
}

//go:embed templates/*.html templates/console.css
var files embed.FS

// New builds a Console.
func New(opts Options) (*Console, error) {
	if len(opts.Operators) == 0 {
		return nil, errors.New("console: no operator token is configured, so no one could sign in: set console.operator_token_envs")
	}
	if opts.SessionTTL <= 0 {
		opts.SessionTTL = 12 * time.Hour
	}
	log := opts.Logger
	if log == nil {
		log = slog.Default()
	}
	c := &Console{opts: opts, log: log, sessions: newSessions(opts.SessionTTL)}
	for _, o := range opts.Operators {
		if len(o.Token) < 16 {
			return nil, fmt.Errorf("console: operator %s's token is shorter than 16 bytes", o.Name)
		}
		if opts.IsAgentToken != nil && opts.IsAgentToken(o.Token) {
			return nil, fmt.Errorf("console: operator %s's token is an agent's bearer token: an operator token must be its own secret", o.Name)
		}
		c.operators = append(c.operators, operatorDigest{name: o.Name, digest: sha256.Sum256([]byte(o.Token))})
	}
	pages, err := template.New("").Funcs(funcs).ParseFS(files, "templates/*.html")
	if err != nil {
		return nil, err
	}
	c.pages = pages
	c.routes()
	return c, nil
}

// ServeHTTP answers every console request, behind the headers and checks
// every page gets.
func (c *Console) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	// No script source at all: forge content that slipped past escaping
	// still could not run.
	h.Set("Content-Security-Policy", "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
	h.Set("X-Frame-Options", "DENY")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "same-origin")
	h.Set("Cache-Control", "no-store")
	if c.opts.LoopbackOnly && !loopbackHost(r.Host) {
		c.log.Warn("console refused a request for a non-loopback host name (DNS rebinding?)", "remote", r.RemoteAddr)
		http.Error(w, "this console answers only to a loopback address such as 127.0.0.1", http.StatusMisdirectedRequest)
		return
	}
	if r.Method == http.MethodPost {
		if err := sameOrigin(r); err != nil {
			c.log.Warn("console refused a cross-origin POST", "remote", r.RemoteAddr, "path", r.URL.Path, "cause", err.Error())
			http.Error(w, "refused: "+err.Error(), http.StatusForbidden)
			return
		}
	}
	c.mux.ServeHTTP(w, r)
}

func (c *Console) routes() {
	m := http.NewServeMux()
	m.HandleFunc("GET /static/console.css", c.css)
	m.HandleFunc("GET /signin", c.signinPage)
	m.HandleFunc("POST /signin", c.signin)
	m.Handle("POST /signout", c.authed(c.signout))
	m.Handle("GET /{$}", c.authed(c.queuePage))
	m.Handle("GET /approvals/{id}", c.authed(c.approvalPage))
	m.Handle("POST /approvals/{id}/approve", c.authed(c.approve))
	m.Handle("POST /approvals/{id}/deny", c.authed(c.deny))
	m.Handle("GET /audit", c.authed(c.auditPage))
	m.Handle("GET /scope", c.authed(c.scopePage))
	m.Handle("GET /scope/discover", c.authed(c.discoverPage))
	m.Handle("POST /scope/add", c.authed(c.scopeChange(store.ScopeAdd)))
	m.Handle("POST /scope/remove", c.authed(c.scopeChange(store.ScopeRemove)))
	c.mux = m
}

func (c *Console) css(w http.ResponseWriter, _ *http.Request) {
	data, _ := files.ReadFile("templates/console.css")
	w.Header().Set("Content-Type", "text/css; charset=utf-8")
	w.Write(data)
}
