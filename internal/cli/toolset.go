package cli

import (
	"context"
	"fmt"
	"io"
	"strings"

	"connectrpc.com/connect"
	"github.com/spf13/cobra"

	"github.com/forgetools/forgetools/gateway"
	"github.com/forgetools/forgetools/gen/forgetools/gateway/v1/gatewayv1tools"
	"github.com/forgetools/forgetools/internal/config"
	"github.com/forgetools/forgetools/providers/gitea"
	"github.com/forgetools/forgetools/providers/github"
	"github.com/forgetools/forgetools/providers/gitlab"
	"github.com/forgetools/forgetools/providers/linear"
	"github.com/forgetools/forgetools/providers/local"
	"github.com/forgetools/forgetools/runtime"
	"github.com/forgetools/forgetools/runtime/events"
)

// toolFlags select where tool calls go and which tools exist.
type toolFlags struct {
	gatewayFlags
	gateway  string
	tokenEnv string
	session  string
	filterFlags
	// nonce, when set, replaces the broker's per-process random nonce, so
	// a create's client_request_id depends only on what the user gave
	// (see call --id).
	nonce string
	// served are the forges of the in-process gateway; the tools are
	// narrowed to them. nil for a remote gateway (whose forges are not
	// known here): the full vocabulary.
	served []runtime.Forge
}

func (f *toolFlags) register(cmd *cobra.Command, defaultLevel string) {
	f.gatewayFlags.register(cmd, defaultLevel)
	fl := cmd.Flags()
	fl.StringVar(&f.gateway, "gateway", "", "gateway to call: a session socket, unix://<socket_dir>/<session>.sock as serve prints it, or http(s)://host:port; default: run the gateway in-process")
	fl.StringVar(&f.tokenEnv, "token-env", "", "environment variable holding a bearer token: sent to an http(s) --gateway; with mcp --http, a token MCP clients present")
	fl.StringVar(&f.session, "session", "", "in-process only: the configured session to act as (default: the first)")
	f.filterFlags.register(cmd)
}

// filterFlags choose which tools a toolset has and how it offers them.
type filterFlags struct {
	readOnly bool
	allow    []string
	deny     []string
	shape    string
	aliases  bool
}

func (f *filterFlags) register(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.BoolVar(&f.readOnly, "read-only", false, "expose only the read tools (and, grouped, the read actions)")
	fl.StringSliceVar(&f.allow, "tools", nil, "expose only these tools (comma-separated names; a grouped tool's name, e.g. forge_ci, means all its actions)")
	fl.StringSliceVar(&f.deny, "exclude-tools", nil, "hide these tools (comma-separated names, grouped names too)")
	fl.StringVar(&f.shape, "shape", "flat", "flat: one tool per operation (forge_get_issue, ...); grouped: one tool per group with an action parameter (forge_issue, ...), about half the bytes per turn")
	fl.BoolVar(&f.aliases, "aliases", false, "also list each renamed tool under its earlier names (calls under them run either way)")
}

// options are the runtime options the flags ask for.
func (f *filterFlags) options() ([]runtime.Option, error) {
	shape, err := runtime.ParseShape(f.shape)
	if err != nil {
		return nil, usageError{fmt.Errorf("--%w", err)}
	}
	opts := []runtime.Option{runtime.WithShape(shape)}
	if f.readOnly {
		opts = append(opts, runtime.WithReadOnly())
	}
	if len(f.allow) > 0 {
		opts = append(opts, runtime.WithAllow(f.allow...))
	}
	if len(f.deny) > 0 {
		opts = append(opts, runtime.WithDeny(f.deny...))
	}
	if f.aliases {
		opts = append(opts, runtime.WithAliases())
	}
	return opts, nil
}

// toolset builds the toolset the flags describe. close releases the
// in-process gateway, if one was started.
func (f *toolFlags) toolset(ctx context.Context, stderr io.Writer) (ts *runtime.Toolset, close func() error, err error) {
	s, err := f.open(ctx, stderr)
	if err != nil {
		return nil, nil, err
	}
	return s.tools, s.close, nil
}

// session is where a command's tool calls go: the toolset, the event
// waiter of the same session, and the in-process gateway (nil with
// --gateway).
type session struct {
	tools  *runtime.Toolset
	events events.Waiter
	sys    *system
	// id is the in-process gateway's identity the tools call as.
	id    gateway.Identity
	close func() error
}

// open connects the flags' session: to a running gateway, or to one it
// starts in-process.
func (f *toolFlags) open(ctx context.Context, stderr io.Writer) (*session, error) {
	log, err := f.logger(stderr)
	if err != nil {
		return nil, err
	}
	var transport runtime.Transport
	s := &session{close: func() error { return nil }}
	if f.gateway != "" {
		if f.configured() || f.store != "" || f.session != "" {
			return nil, usageError{fmt.Errorf("--gateway calls a running gateway: --config, --github, --store and --session apply only in-process")}
		}
		if transport, s.events, err = f.dial(); err != nil {
			return nil, err
		}
	} else {
		if f.tokenEnv != "" {
			return nil, usageError{fmt.Errorf("--token-env is the bearer token of an http(s) --gateway (or, for mcp --http, of an account): without either it would be ignored")}
		}
		cfg, err := f.load()
		if err != nil {
			return nil, err
		}
		sys, err := open(ctx, cfg, log)
		if err != nil {
			return nil, err
		}
		f.served = servedOf(cfg)
		id, err := pickSession(sys, f.session)
		if err != nil {
			sys.Close()
			return nil, err
		}
		transport = runtime.TransportFunc(sys.svc.Transport(id))
		s.events, s.sys, s.id, s.close = sys.feed.For(id.Account, id.Session), sys, id, sys.Close
	}
	if s.tools, err = f.build(transport); err != nil {
		s.close()
		return nil, err
	}
	return s, nil
}

// build is the toolset the filter flags describe, calling through
// transport.
func (f *toolFlags) build(transport runtime.Transport) (*runtime.Toolset, error) {
	opts, err := f.options()
	if err != nil {
		return nil, err
	}
	if f.served != nil {
		opts = append(opts, runtime.WithForges(f.served...))
	}
	var brokerOpts []runtime.BrokerOption
	if f.nonce != "" {
		brokerOpts = append(brokerOpts, runtime.WithNonce(f.nonce))
	}
	ts, err := runtime.NewToolset(gatewayv1tools.ForgeTools, runtime.NewBroker(transport, brokerOpts...), opts...)
	if err != nil {
		return nil, usageError{err}
	}
	return ts, nil
}

// servedOf is the forges a configuration serves, as the tools' selector
// spells them: the hosts are the ones the providers report, so a host the
// model copies from the schema resolves.
func servedOf(cfg *config.Config) []runtime.Forge {
	defaults := map[string]string{
		"github": github.DefaultHost, "gitlab": gitlab.DefaultHost, "gitea": gitea.Gitea.DefaultHost(),
		"forgejo": gitea.Forgejo.DefaultHost(), "linear": linear.DefaultHost, "local": local.DefaultHost,
	}
	var out []runtime.Forge
	for _, f := range cfg.Forges {
		host := strings.ToLower(f.Host)
		if host == "" {
			host = defaults[f.Provider]
		}
		out = append(out, runtime.Forge{Provider: f.Provider, Host: host, Default: f.Default})
	}
	return out
}

// dial connects to the running gateway --gateway names: its forge calls and
// its WaitEvents RPC.
func (f *toolFlags) dial() (runtime.Transport, events.Waiter, error) {
	var opts []connect.ClientOption
	if f.tokenEnv != "" {
		if strings.HasPrefix(f.gateway, "unix://") {
			return nil, nil, usageError{fmt.Errorf("--token-env: a unix socket is its own identity; tokens are for http(s) gateways")}
		}
		token, err := config.Secret(f.tokenEnv)
		if err != nil {
			return nil, nil, err
		}
		opts = append(opts, connect.WithInterceptors(bearer(token)))
	}
	t, err := runtime.DialGateway(gatewayv1tools.ForgeTools, f.gateway, opts...)
	if err != nil {
		return nil, nil, usageError{err}
	}
	w, err := events.Dial(f.gateway, opts...)
	if err != nil {
		return nil, nil, usageError{err}
	}
	return t, w, nil
}

// pickSession is the identity an in-process gateway acts as.
func pickSession(sys *system, session string) (id gateway.Identity, err error) {
	sessions := sys.svc.Sessions()
	if session == "" {
		if len(sessions) == 0 {
			return id, fmt.Errorf("the configuration has no sessions to act as in-process")
		}
		return sessions[0], nil
	}
	if id, ok := sys.svc.SessionIdentity(session); ok {
		return id, nil
	}
	var names []string
	for _, s := range sessions {
		names = append(names, s.Session)
	}
	return id, usageError{fmt.Errorf("--session %q is not configured; sessions: %s", session, strings.Join(names, ", "))}
}

// bearer adds the Authorization header to every outgoing request.
func bearer(token string) connect.UnaryInterceptorFunc {
	return func(next connect.UnaryFunc) connect.UnaryFunc {
		return func(ctx context.Context, req connect.AnyRequest) (connect.AnyResponse, error) {
			req.Header().Set("Authorization", "Bearer "+token)
			return next(ctx, req)
		}
	}
}
