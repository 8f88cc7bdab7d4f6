package cli

import (
	"context"
	"io"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"

	"github.com/forgetools/forgetools/internal/mcpserver"
)

func newMCP() *cobra.Command {
	var f toolFlags
	cmd := &cobra.Command{
		Use:   "mcp",
		Short: "Serve the forge tools to an agent runtime over MCP (stdio)",
		Long: `Serve the forge tools as a Model Context Protocol server on stdin/stdout.

Calls go to a running gateway with --gateway (a session's Unix socket, or an
http(s) address with --token-env), or, with no --gateway, to an in-process
gateway on the embedded local forge and the same store 'forgetools serve'
uses by default. Tool results are text; a failed call is an isError result
whose text says why. Logs go to stderr.

Each subscription (forge_subscribe) is also a resource,
forge://subscriptions/<id>: resources/read returns what forge_get_events
returns for it, and a client that subscribes to the resource gets
notifications/resources/updated when its events change. An in-process
gateway also polls subscribed GitHub artifacts while the server runs.`,
		Example: `  forgetools mcp
  forgetools mcp --read-only
  forgetools mcp --gateway unix:///run/forgetools/release-bot-1.sock --exclude-tools forge_submit_review

  # Claude Desktop / any MCP client configuration:
  {"mcpServers": {"forge": {"command": "forgetools", "args": ["mcp"]}}}`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			s, err := f.open(cmd.Context(), cmd.ErrOrStderr())
			if err != nil {
				return err
			}
			defer s.close()
			ctx, stop := context.WithCancel(cmd.Context())
			if s.sys != nil {
				// An in-process gateway delivers notifications itself.
				done := s.sys.background(ctx)
				defer done()
			}
			defer stop()
			log, _ := f.logger(cmd.ErrOrStderr())
			srv := mcpserver.New(s.tools, Version, mcpserver.Options{Events: s.events, Context: ctx, Logger: log})
			return srv.Run(ctx, &mcp.IOTransport{
				Reader: io.NopCloser(cmd.InOrStdin()),
				Writer: nopWriteCloser{cmd.OutOrStdout()},
			})
		},
	}
	f.register(cmd, "warn")
	return cmd
}

// nopWriteCloser leaves stdout open when the MCP session ends.
type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }
