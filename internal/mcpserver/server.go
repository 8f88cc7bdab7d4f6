// Package mcpserver exposes a runtime.Toolset as a Model Context Protocol
// server, on the official MCP Go SDK.
//
// Each tool is registered with its generated JSON Schema verbatim and the
// MCP hints its approval implies; a call goes through Toolset.Execute, so an
// MCP client sees exactly the text a native agent would, and a tool failure
// is an isError result carrying the failure text (never a protocol error).
// With an event waiter, each subscription is also a resource a client can
// read and subscribe to (resources.go).
package mcpserver

import (
	"context"
	"encoding/json"
	"log/slog"

	"github.com/google/uuid"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/forgetools/forgetools/runtime"
	"github.com/forgetools/forgetools/runtime/events"
)

// Options extend the server beyond the tools.
type Options struct {
	// Events, when set and the toolset has forge_get_events, makes every
	// subscription of the session a resource, forge://subscriptions/<id>,
	// that clients can read and subscribe to.
	Events events.Waiter
	// Context bounds the goroutines that follow subscribed resources; nil
	// = they run until unsubscribed.
	Context context.Context
	Logger  *slog.Logger
}

// New returns an MCP server named "forgetools" serving every tool of ts, with
// the toolset's instructions as the server instructions.
func New(ts *runtime.Toolset, version string, opts ...Options) *mcp.Server {
	var o Options
	if len(opts) > 0 {
		o = opts[0]
	}
	sopts := &mcp.ServerOptions{Instructions: ts.Instructions()}
	var res *resources
	if _, ok := ts.Lookup(eventsTool); ok && o.Events != nil {
		res = &resources{tools: ts, waiter: o.Events, ctx: o.Context, log: o.Logger, watches: map[string]*watch{}}
		if res.ctx == nil {
			res.ctx = context.Background()
		}
		if res.log == nil {
			res.log = slog.Default()
		}
		sopts.SubscribeHandler, sopts.UnsubscribeHandler = res.subscribe, res.unsubscribe
	}
	srv := mcp.NewServer(&mcp.Implementation{Name: "forgetools", Version: version}, sopts)
	for _, t := range ts.Tools() {
		srv.AddTool(Tool(t), handler(ts, t.Name))
	}
	if res != nil {
		res.srv = srv
		srv.AddResourceTemplate(res.template(), res.read)
	}
	return srv
}

// Tool is the MCP definition of a generated tool.
func Tool(t *runtime.Tool) *mcp.Tool {
	destructive, openWorld := t.Hints.Destructive, t.Hints.OpenWorld
	return &mcp.Tool{
		Name:        t.Name,
		Description: t.Description,
		InputSchema: json.RawMessage(t.InputSchema),
		Annotations: &mcp.ToolAnnotations{
			ReadOnlyHint:    t.Hints.ReadOnly,
			DestructiveHint: &destructive,
			IdempotentHint:  t.Hints.Idempotent,
			OpenWorldHint:   &openWorld,
		},
	}
}

func handler(ts *runtime.Toolset, name string) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		args := req.Params.Arguments
		if len(args) == 0 {
			args = json.RawMessage("{}")
		}
		// MCP carries no model tool-call id. A fresh id per tools/call keeps
		// the envelope's call_id unique; a client that retries a create
		// sends a new request, which the gateway cannot tell from a new
		// create, exactly as with any MCP server.
		res := ts.Execute(ctx, runtime.Call{ID: "mcp-" + uuid.NewString(), Name: name, Args: args})
		return &mcp.CallToolResult{
			Content: []mcp.Content{&mcp.TextContent{Text: res.Text}},
			IsError: res.IsError,
		}, nil
	}
}
