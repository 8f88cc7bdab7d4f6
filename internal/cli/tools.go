package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"
	"google.golang.org/protobuf/proto"

	"github.com/forgetools/forgetools/gen/forgetools/gateway/v1/gatewayv1tools"
	"github.com/forgetools/forgetools/runtime"
	"github.com/forgetools/forgetools/runtime/export"
)

func newTools() *cobra.Command {
	var format string
	var f filterFlags
	var g gatewayFlags
	var brk breakingFlags
	cmd := &cobra.Command{
		Use:   "tools",
		Short: "Print the tool definitions and schemas",
		Long: `Print the forge tools as a model or a person sees them, in one of:

  markdown   documentation for people (docs/tools.md is this output)
  json       every tool with approval, hints and input schema
  mcp        the MCP tools/list result, with the server instructions
  openai     an OpenAI Chat Completions request fragment: system message + tools
  openai-strict  the same with strict function schemas (structured outputs)
  openai-responses  an OpenAI Responses API request fragment: instructions + strict tools
  anthropic  an Anthropic Messages request fragment: system + tools

With --config (or --github) the tools are those a gateway with that
configuration serves: the forge selector lists only its forges (and
disappears with a single forge), and the instructions mention only them.
Without, the full vocabulary of the generated table is printed.

--shape grouped prints the grouped shape: one tool per group of the table
(forge_repo, forge_issue, forge_pull_request, forge_push, forge_ci,
forge_subscription) taking an "action" parameter, about half the bytes of
the flat tools; calls through it run the same arms with the same results.

With --breaking-against the tools are not printed but checked against a
baseline: a directory of tool snapshots (*.json, the json format's shape,
as in tests/toolsnaps), or a git revision, whose snapshots are read from
--snapshots at that revision. The check is of what the model sees, not the
wire: a removed or renamed tool (unless the new one lists the old name in
aliases), a removed parameter, a new required parameter, a tightened bound,
pattern or type, a removed enum value, a raised approval, and any change
the check does not model are breaking; additions, loosened bounds and
prose are compatible. One line per change, then a summary; the command
fails on a breaking change whose key (printed in brackets) is not listed
in the --declared file, and on a declared key that matches no break. The
same --read-only, --tools, --config and --shape apply to the side
checked; --snapshots defaults to the shape's snapshot directory
(tests/toolsnaps, or tests/toolsnaps/grouped).`,
		Example: `  forgetools tools
  forgetools tools --shape grouped --format mcp
  forgetools tools --format openai-strict --read-only
  forgetools tools --format mcp --config examples/forgetools.yaml
  forgetools tools --breaking-against tests/toolsnaps/release --declared tests/toolsnaps/release/declared-breaks
  forgetools tools --breaking-against main --snapshots tests/toolsnaps
  forgetools tools --shape grouped --breaking-against tests/toolsnaps/release/grouped`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			opts, err := f.options()
			if err != nil {
				return err
			}
			if g.configured() {
				cfg, err := g.load()
				if err != nil {
					return err
				}
				opts = append(opts, runtime.WithForges(servedOf(cfg)...))
			}
			// Listing calls nothing: a broker over a transport that refuses.
			ts, err := runtime.NewToolset(gatewayv1tools.ForgeTools, runtime.NewBroker(noTransport), opts...)
			if err != nil {
				return usageError{err}
			}
			if brk.active(cmd) {
				return brk.check(cmd, ts)
			}
			return printTools(cmd.OutOrStdout(), ts, format)
		},
	}
	cmd.Flags().StringVar(&format, "format", "markdown", formats)
	f.register(cmd)
	g.registerConfig(cmd)
	brk.register(cmd)
	skipEnv(cmd, "format")
	return cmd
}

// formats are the shapes printTools writes.
const formats = "markdown, json, mcp, openai, openai-strict, openai-responses or anthropic"

// noTransport backs a toolset that is only listed, never executed.
var noTransport = runtime.TransportFunc(func(context.Context, proto.Message) (proto.Message, error) {
	return nil, errors.New("listing only: no gateway")
})

func printTools(w io.Writer, ts *runtime.Toolset, format string) error {
	var v any
	switch format {
	case "markdown":
		md, err := export.Markdown(ts)
		if err != nil {
			return err
		}
		_, err = io.WriteString(w, md)
		return err
	case "json":
		v = export.Definitions(ts)
	case "mcp":
		v = export.MCP(ts)
	case "openai":
		v = export.OpenAI(ts)
	case "openai-strict":
		req, err := export.OpenAIStrict(ts)
		if err != nil {
			return err
		}
		v = req
	case "openai-responses":
		req, err := export.OpenAIResponses(ts)
		if err != nil {
			return err
		}
		v = req
	case "anthropic":
		v = export.Anthropic(ts)
	default:
		return usageError{fmt.Errorf("--format %q: want %s", format, formats)}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
