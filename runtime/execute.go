package runtime

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"

	"connectrpc.com/connect"

	"github.com/forgetools/forgetools/runtime/args"
	"github.com/forgetools/forgetools/runtime/render"
	"github.com/forgetools/forgetools/violation"
)

// Call is one tool call as the model made it.
type Call struct {
	// ID is the model's tool call id; it becomes the envelope's call_id and,
	// on creates, the tail of the idempotency key.
	ID   string
	Name string
	Args json.RawMessage
}

// Result is what the model reads back. IsError marks a failed call; its
// Text is one line, "<tool> failed: <code>: <detail>".
type Result struct {
	Text    string
	IsError bool
}

// Execute runs one tool call: look the tool up, decode and validate the
// arguments, apply the text policy, ask the approver (writes and pushes), build
// the envelope, send it through the broker, check the result arm and render
// it. Every failure along the way, including a gateway that is down, is a
// Result with IsError set; Execute never panics on any input.
func (t *Toolset) Execute(ctx context.Context, c Call) (res Result) {
	tool, ok := t.Lookup(c.Name)
	if !ok {
		return t.unknown(c.Name)
	}
	// label names the tool in failures: the one the model called.
	label, data, via := tool.Name, []byte(c.Args), ""
	defer func() {
		// A panic here is a bug in generated or hand-built table code; it
		// must not take the agent's process down with it.
		if p := recover(); p != nil {
			slog.Error("forgetools: tool call panicked", "tool", tool.Name, "panic", p, "stack", string(debug.Stack()))
			res = failure(label, "internal", "the tool crashed; this is a bug in forgetools")
		}
	}()
	if g := t.groups[tool.Name]; g != nil {
		action, rest, err := g.resolve(data)
		if err != nil {
			return failure(label, "invalid_argument", err.Error())
		}
		via, tool, data = tool.Name, action, rest
		label = via + " " + action.Action
	}

	args, err := tool.Decode(data)
	if err != nil {
		return failure(label, "invalid_argument", t.decodeProblem(tool, err))
	}
	if err := t.validate(tool, args); err != nil {
		return failure(label, "invalid_argument", err.Error())
	}
	if r, failed := t.applyPolicy(ctx, tool, label, args); failed {
		return r
	}
	if tool.Approval != ApprovalRead && t.approver != nil {
		req := t.approvalRequest(tool, args)
		req.Via = via
		if err := t.approver.Approve(ctx, req); err != nil {
			return failure(label, "permission_denied", "not approved: "+err.Error())
		}
	}

	env := Envelope{CallID: c.ID}
	switch {
	case c.ID == "":
		// No tool-call id (MCP has none): the envelope still gets a unique
		// call id, but no idempotency key, since a retry would come with
		// another random one. The gateway derives the key from the call
		// itself and replays an identical create within its dedup window.
		env.CallID = "call-" + rand.Text()
	case tool.IdempotencyKey:
		env.ClientRequestID = t.broker.IdempotencyKey(c.ID)
	}
	out, err := t.broker.Call(ctx, tool.Build(args, env))
	if err != nil {
		code, msg := transportError(err)
		return failure(label, code, msg)
	}
	return t.render(tool, label, t.table.Unwrap(out))
}

// render checks the outcome against the arm the tool expects and renders it.
func (t *Toolset) render(tool *Tool, label string, o Outcome) Result {
	switch {
	case o.Err != nil:
		return Result{Text: render.Failure(label, o.Err.Code, o.Err.Message, o.Err.RetryAfterMs), IsError: true}
	case o.Arm != tool.ResultArm || o.Message == nil:
		return Result{Text: render.ProtocolViolation(label, tool.ResultArm, o.Arm), IsError: true}
	case tool.Ack != "":
		return Result{Text: render.Ack(tool.Ack, tool.ReplayAck, o.Message)}
	}
	return Result{Text: render.Read(o.Message)}
}

// validate runs protovalidate over the request and the selector.
func (t *Toolset) validate(_ *Tool, args Args) error {
	return validateArgs(t.table, args)
}

// applyPolicy runs the text policy over the request's agent-authored text,
// writing rewrites back into the request and validating again if anything
// changed: a rewrite must obey the same bounds as the model's own text.
func (t *Toolset) applyPolicy(ctx context.Context, tool *Tool, label string, args Args) (Result, bool) {
	if t.policy == nil || tool.Texts == nil {
		return Result{}, false
	}
	changed := false
	for _, tx := range tool.Texts(args.Request) {
		out, err := t.policy.Check(ctx, tool, tx.Param, *tx.Value)
		if err != nil {
			return failure(label, "invalid_argument", tx.Param+": rejected by text policy: "+err.Error()), true
		}
		if out != *tx.Value {
			*tx.Value = out
			changed = true
		}
	}
	if changed {
		if err := t.validate(tool, args); err != nil {
			return failure(label, "invalid_argument", "after text policy: "+err.Error()), true
		}
	}
	return Result{}, false
}

// unknown is the failure for a tool this toolset does not have: why, and
// for a name it never had, the ones it does, so the model can correct
// itself in one step.
func (t *Toolset) unknown(name string) Result {
	return Result{
		Text:    render.Failure(render.Attr(name), "invalid_argument", t.Refusal(name), 0),
		IsError: true,
	}
}

// decodeProblem phrases a decoder error for the model. A number outside
// its proto type's range is stated against the tool's bounds ("must be
// between 1 and 2147483647, got -1"), the same words protovalidate's
// violation of them gets, not against the type's.
func (t *Toolset) decodeProblem(tool *Tool, err error) string {
	var errs args.Errors
	if !errors.As(err, &errs) {
		return err.Error()
	}
	req := requestOf(t.dispatch, tool.Name)
	for _, e := range errs {
		if !e.OutOfRange || req == nil {
			continue
		}
		if fd := paramField(req, e.Param, t.table.paramName); fd != nil {
			if bounds := violation.Bounds(fd); bounds != "" {
				e.Message = bounds + ", got " + e.Got
			}
		}
	}
	return errs.Error()
}

// failure is a failed call's result; label names the tool the model called.
func failure(label, code, msg string) Result {
	return Result{Text: render.Failure(label, code, msg, 0), IsError: true}
}

// transportError spells a failed call's error as a code and message: a
// Connect error by its code's lowercase name (unavailable when the gateway
// is down), a cancelled context as canceled or deadline_exceeded, anything
// else from a custom transport as unavailable.
func transportError(err error) (code, msg string) {
	var ce *connect.Error
	switch {
	case errors.As(err, &ce):
		return ce.Code().String(), ce.Message()
	case errors.Is(err, context.Canceled):
		return "canceled", err.Error()
	case errors.Is(err, context.DeadlineExceeded):
		return "deadline_exceeded", err.Error()
	}
	return "unavailable", fmt.Sprint(err)
}
