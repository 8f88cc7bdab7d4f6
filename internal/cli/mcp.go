package cli

import (
	"context"
	"fmt"
	"io"
	"slices"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"

	"github.com/forgetools/forgetools/gateway"
	"github.com/forgetools/forgetools/internal/config"
	"github.com/forgetools/forgetools/internal/mcpserver"
)

func newMCP() *cobra.Command {
	var f toolFlags
	var tf tlsFlags
	var httpAddr string
	var hf mcpHTTPFlags
	cmd := &cobra.Command{
		Use:   "mcp",
		Short: "Serve the forge tools to an agent runtime over MCP (stdio, or streamable HTTP)",
		Long: `Serve the forge tools as a Model Context Protocol server on stdin/stdout,
or with --http on MCP's streamable HTTP transport at http(s)://ADDR/mcp.

Calls go to a running gateway with --gateway (a session's Unix socket, or an
http(s) address with --token-env), or, with no --gateway, to an in-process
gateway on the embedded local forge and the same store 'forgetools serve'
uses by default. Tool results are text; a failed call is an isError result
whose text says why. Logs go to stderr.

With --http the gateway runs in-process and every request carries
"Authorization: Bearer <token>": the token names the account (its
token_envs in the config; --token-env adds one to the account of --session,
the first by default), and the tools act as that account. Bind it to
loopback, or give it --tls-cert and --tls-key. A request from a browser
page (an Origin header) is refused with 403 unless its origin is loopback
on a loopback listener or named by --allow-origin; "null" never passes.
A session closes after --session-idle with no request, and a token holds
at most --max-sessions open: a new one past that closes the token's
idlest session.

Each subscription (forge_subscribe) is also a resource,
forge://subscriptions/<id>: resources/read returns what forge_get_events
returns for it, and a client that subscribes to the resource gets
notifications/resources/updated when its events change. An in-process
gateway also polls subscribed GitHub artifacts while the server runs.`,
		Example: `  forgetools mcp
  forgetools mcp --read-only
  forgetools mcp --gateway unix:///run/forgetools/release-bot-1.sock --exclude-tools forge_submit_review
  GITHUB_TOKEN=... forgetools mcp --github --repo acme/app
  MCP_TOKEN=$(openssl rand -hex 32) forgetools mcp --http 127.0.0.1:8080 --token-env MCP_TOKEN

  # Claude Desktop / any MCP client configuration:
  {"mcpServers": {"forge": {"command": "forgetools", "args": ["mcp"]}}}`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if httpAddr != "" {
				return runMCPHTTP(cmd, &f, &tf, &hf, httpAddr)
			}
			if tf.cert != "" || tf.key != "" {
				return usageError{fmt.Errorf("--tls-cert and --tls-key are for --http")}
			}

			s, err := f.open(cmd.Context(), cmd.ErrOrStderr())
			if err != nil {
				return err
			}
			defer s.close()
			ctx, stop := context.WithCancel(cmd.Context())
			log, _ := f.logger(cmd.ErrOrStderr())
			if s.sys != nil {
				// An in-process gateway delivers notifications itself.
				done := s.sys.background(ctx)
				defer done()
				log = s.sys.log
			}
			defer stop()
			opts := mcpserver.Options{Events: s.events, Context: ctx, Logger: log}
			if s.sys != nil {
				opts.Decider = s.sys.decider(s.id)
			}
			srv := mcpserver.New(s.tools, Version, opts)
			return srv.Run(ctx, &mcp.IOTransport{
				Reader: io.NopCloser(cmd.InOrStdin()),
				Writer: nopWriteCloser{cmd.OutOrStdout()},
			})
		},
	}
	f.register(cmd, "warn")
	tf.register(cmd)
	cmd.Flags().StringVar(&httpAddr, "http", "", "serve MCP over streamable HTTP on this address (e.g. 127.0.0.1:8080) instead of stdio; needs bearer tokens")
	hf.register(cmd)
	return cmd
}

// runMCPHTTP serves MCP over HTTP for the in-process gateway's accounts.
func runMCPHTTP(cmd *cobra.Command, f *toolFlags, tf *tlsFlags, hf *mcpHTTPFlags, addr string) error {
	if f.gateway != "" {
		return usageError{fmt.Errorf("--http serves the in-process gateway's accounts by their tokens: drop --gateway")}
	}
	if hf.idle < 0 || hf.max < 0 {
		return usageError{fmt.Errorf("--session-idle and --max-sessions: 0 for no limit, or a positive value")}
	}
	log, err := f.logger(cmd.ErrOrStderr())
	if err != nil {
		return err
	}
	cfg, err := f.load()
	if err != nil {
		return err
	}
	if f.tokenEnv != "" {
		i, err := accountOf(cfg, f.session)
		if err != nil {
			return err
		}
		cfg.Accounts[i].TokenEnvs = append(cfg.Accounts[i].TokenEnvs, f.tokenEnv)
	}
	sys, tlsConfig, err := openListening(cmd.Context(), cfg, log, tf)
	if err != nil {
		return err
	}
	defer sys.Close()
	f.served = servedOf(cfg)
	// Check the filter flags once, before anyone connects.
	if _, err := f.build(noTransport); err != nil {
		return err
	}
	// The in-process gateway delivers change notifications while it serves.
	ctx, stop := context.WithCancel(cmd.Context())
	done := sys.background(ctx)
	defer done()
	defer stop()
	h := &mcpHTTP{sys: sys, ctx: ctx, options: f.build, log: sys.log, servers: map[gateway.Identity]*mcp.Server{},
		allowOrigin: hf.allowOrigin, limits: newSessionLimits(hf.idle, hf.max, sys.log)}
	return serveMCPHTTP(ctx, h, addr, tlsConfig, cmd.OutOrStdout())
}

// accountOf is the index of the account a session belongs to, or of the
// first account when session is "".
func accountOf(cfg *config.Config, session string) (int, error) {
	for i, a := range cfg.Accounts {
		if session == "" || slices.ContainsFunc(a.Sessions, func(s config.Session) bool { return s.Name == session }) {
			return i, nil
		}
	}
	if session == "" {
		return 0, fmt.Errorf("the configuration has no account to give --token-env to")
	}
	return 0, usageError{fmt.Errorf("--session %q is not configured", session)}
}

// nopWriteCloser leaves stdout open when the MCP session ends.
type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }
