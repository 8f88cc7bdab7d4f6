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
	"cmp"
	"context"
	"encoding/json"
	"log/slog"
	"slices"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
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
	// Decider, when set, asks the person at the client to decide a call
	// the gateway parked (elicit.go); nil = never asked.
	Decider Decider
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
		srv.AddTool(Tool(t), handler(ts, t.Name, o.Decider, cmp.Or(o.Logger, slog.Default())))
	}
	srv.AddReceivingMiddleware(tableOrder(ts), refuseFiltered(ts))
	if res != nil {
		res.srv = srv
		srv.AddResourceTemplate(res.template(), res.read)
	}
	return srv
}

// tableOrder lists the tools in the table's order (the SDK sorts them by
// name): the order the proto declares is the order a model reads them in,
// reads before writes.
func tableOrder(ts *runtime.Toolset) mcp.Middleware {
	rank := map[string]int{}
	for i, t := range ts.Tools() {
		rank[t.Name] = i
	}
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			res, err := next(ctx, method, req)
			if list, ok := res.(*mcp.ListToolsResult); ok && err == nil {
				slices.SortStableFunc(list.Tools, func(a, b *mcp.Tool) int { return cmp.Compare(rank[a.Name], rank[b.Name]) })
			}
			return res, err
		}
	}
}

// refuseFiltered answers a call of a tool the toolset filtered out with the
// same sentence every other surface gives ("forge_create_issue is a write
// tool and the toolset is read-only"), as the invalid-params error MCP uses
// for a tool the server does not list.
func refuseFiltered(ts *runtime.Toolset) mcp.Middleware {
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if call, ok := req.(*mcp.CallToolRequest); ok && call.Params != nil {
				if why := ts.Filtered(call.Params.Name); why != "" {
					return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: why}
				}
			}
			return next(ctx, method, req)
		}
	}
}

// Tool is the MCP definition of a generated tool.
func Tool(t *runtime.Tool) *mcp.Tool {
	destructive, openWorld := t.Hints.Destructive, t.Hints.OpenWorld
	return &mcp.Tool{
		Name:        t.Name,
		Title:       t.Title,
		Description: t.Description,
		InputSchema: json.RawMessage(t.InputSchema().JSON()),
		Annotations: &mcp.ToolAnnotations{
			Title:           t.Title,
			ReadOnlyHint:    t.Hints.ReadOnly,
			DestructiveHint: &destructive,
			IdempotentHint:  t.Hints.Idempotent,
			OpenWorldHint:   &openWorld,
		},
	}
}

func handler(ts *runtime.Toolset, name string, d Decider, log *slog.Logger) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		args := req.Params.Arguments
		if len(args) == 0 {
			args = json.RawMessage("{}")
		}
		// MCP carries no model tool-call id, so the call goes without one:
		// the gateway derives a create's dedup key from the session, the
		// tool and the arguments, and answers a client's retry of the same
		// create (within its dedup window) from the first.
		call := func() (string, bool) {
			res := ts.Execute(ctx, runtime.Call{Name: name, Args: args})
			return res.Text, res.IsError
		}
		if d != nil {
			return decide(ctx, req, d, call, log), nil
		}
		return textResult(call()), nil
	}
}
