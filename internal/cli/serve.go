package cli

import (
	"context"
	"fmt"
	"maps"
	"net/http"
	"slices"

	"github.com/spf13/cobra"

	"github.com/forgetools/forgetools/gateway"
	"github.com/forgetools/forgetools/gateway/server"
)

func newServe() *cobra.Command {
	var g gatewayFlags
	var tf tlsFlags
	var socketDir, listen, consoleAddr string
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Run the gateway: per-session Unix sockets and/or a TCP listener",
		Long: `Run the AgentGateway. Every configured session gets its own Unix socket,
<socket-dir>/<session>.sock: the socket a call arrives on is the caller's
identity. With --listen, a TCP listener also serves bearer-token clients
(Authorization: Bearer <token>, the tokens of the accounts' token_envs);
give it a certificate with --tls-cert and --tls-key (or tls_cert and
tls_key) unless it is bound to loopback.

With no --config, serve runs the embedded local forge on a SQLite file in the
data directory, with one demo account (session "demo") scoped to every
repository. Stop it with Ctrl-C; in-flight calls finish first.

The gateway decides every call: each account's policy (policy: in the
configuration) lets it run, parks it for an operator or denies it. The
default, the embedded account's too: reads and writes run; pushes (branches,
commits, merges), high-risk calls and a merge into the default branch no one
else approved wait for an operator, who decides with "forgetools approvals"
on the same store.

serve also delivers change notifications: the local forge's own writes
become events at once; subscribed issues and pull requests on GitHub are
polled (events.poll_interval, one conditional request each) unless their
repository's signed webhooks arrive on the TCP listener
(forges[].webhook_secret_env); events older than events.retention are pruned.
Agents read them with forge_get_events; Go runtimes wait for them with the
WaitEvents RPC (runtime/events).

With --console (or console.listen) serve also runs the operator's web
console: the parked calls waiting for a decision, approve and deny, the
audit of what agents created and each account's scope. Operators sign in
with the tokens of console.operator_token_envs, never an agent's; an
address without a host binds 127.0.0.1, and another address needs TLS.`,
		Example: `  forgetools serve
  forgetools serve --config examples/forgetools.yaml
  forgetools serve --store postgres://forgetools@localhost/forgetools --socket-dir /run/forgetools
  forgetools call forge_list_issues '{"repo":"demo/app"}' --gateway unix://$HOME/.local/share/forgetools/sockets/demo.sock`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			log, err := g.logger(cmd.ErrOrStderr())
			if err != nil {
				return err
			}
			cfg, err := g.load()
			if err != nil {
				return err
			}
			if socketDir != "" {
				cfg.SocketDir = socketDir
			}
			if listen != "" {
				cfg.Listen = listen
			}
			if consoleAddr != "" {
				cfg.Console.Listen = consoleAddr
			}
			sys, tlsConfig, err := openListening(cmd.Context(), cfg, log, &tf)
			if err != nil {
				return err
			}
			defer sys.Close()
			sessions := len(sys.svc.Sessions()) > 0
			if !sessions && cfg.Listen == "" {
				// Token accounts alone need the TCP listener: without it
				// serve would run forever with nothing to call it on.
				return usageError{fmt.Errorf("nothing to listen on: no account has sessions (Unix sockets) and there is no TCP address: set listen or --listen")}
			}
			path, wait := sys.feed.Handler(gateway.CallerFrom)
			srv := server.New(sys.svc, server.Options{
				Logger: sys.log, TLS: tlsConfig, Handlers: map[string]http.Handler{path: wait}, Public: sys.webhooks,
			})
			// Open every listener before announcing any, and close them all
			// (which removes the socket files) if one fails.
			var targets []string
			if sessions {
				if cfg.SocketDir == "" {
					return usageError{fmt.Errorf("sessions are configured but there is no socket directory: set socket_dir or --socket-dir")}
				}
				paths, err := srv.ListenSockets(cfg.SocketDir)
				if err != nil {
					return err
				}
				for _, p := range paths {
					targets = append(targets, "unix://"+p)
				}
			}
			if cfg.Listen != "" {
				addr, err := srv.ListenTCP(cfg.Listen)
				if err != nil {
					srv.Close()
					return err
				}
				base := scheme(tlsConfig) + "://" + addr.String()
				targets = append(targets, base)
				for _, path := range slices.Sorted(maps.Keys(sys.webhooks)) {
					fmt.Fprintf(cmd.OutOrStdout(), "webhooks on %s%s\n", base, path)
				}
			}
			if cfg.Console.Listen != "" {
				url, err := startConsole(sys, cfg, srv, tlsConfig, cfg.Console.Listen)
				if err != nil {
					srv.Close()
					return err
				}
				fmt.Fprintf(cmd.OutOrStdout(), "console on %s\n", url)
			}
			for _, t := range targets {
				fmt.Fprintf(cmd.OutOrStdout(), "listening on %s\n", t)
			}
			// Deferred in this order, the background work is told to stop,
			// then waited for, before the store closes.
			ctx, stop := context.WithCancel(cmd.Context())
			done := sys.background(ctx)
			defer done()
			defer stop()
			// Long polls (WaitEvents) end at once when the server stops.
			context.AfterFunc(cmd.Context(), sys.feed.Close)
			return srv.Run(cmd.Context())
		},
	}
	g.register(cmd, "info")
	tf.register(cmd)
	cmd.Flags().StringVar(&socketDir, "socket-dir", "", "directory for the per-session Unix sockets (overrides the config)")
	cmd.Flags().StringVar(&listen, "listen", "", "TCP address for bearer-token clients, e.g. 127.0.0.1:7443 (overrides the config)")
	cmd.Flags().StringVar(&consoleAddr, "console", "", "TCP address of the operator's web console, e.g. :7780 for 127.0.0.1:7780 (overrides console.listen)")
	return cmd
}
