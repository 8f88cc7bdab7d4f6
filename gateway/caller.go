// Package gateway is the AgentGateway's ForgeCaller: the one chokepoint every
// forge call from an agent passes through. For the account bound to the
// connection it validates the request, enforces the account's repository
// scope, resolves the forge, stamps attribution into what it writes,
// deduplicates creates, records what it created and maps every failure to an
// in-band ForgeCallError.
//
// The listeners that bind connections to identities live in
// gateway/server; the state in gateway/store; the owner header grammar in
// gateway/attribution.
package gateway

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"buf.build/go/protovalidate"
	"github.com/forgetools/forgetools/gateway/store"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"google.golang.org/protobuf/proto"
)

// ForgeCaller performs forge calls for gateway accounts. It is safe for
// concurrent use.
type ForgeCaller struct {
	cfg       *checked
	store     *store.Store
	log       *slog.Logger
	validator protovalidate.Validator
}

// New validates cfg and returns its ForgeCaller. The caller does not own
// cfg.Store: close it after the last call.
func New(cfg Config) (*ForgeCaller, error) {
	c, err := checkConfig(cfg)
	if err != nil {
		return nil, err
	}
	v, err := protovalidate.New()
	if err != nil {
		return nil, fmt.Errorf("gateway: validator: %w", err)
	}
	log := cfg.Logger
	if log == nil {
		log = slog.Default()
	}
	return &ForgeCaller{cfg: c, store: cfg.Store, log: log, validator: v}, nil
}

// Forge performs one call for id. It always returns a result: domain
// failures (bad request, out of scope, unknown forge, provider errors) are
// its error arm. The result echoes req.call_id.
func (c *ForgeCaller) Forge(ctx context.Context, id Identity, req *gatewayv1.ForgeCallRequest) *gatewayv1.ForgeCallResult {
	start := time.Now()
	x := &call{id: id, req: req, arm: armName(req)}
	res, cause := c.dispatch(ctx, x)
	res.CallId = req.GetCallId()
	c.logCall(ctx, x, res, cause, time.Since(start))
	return res
}

// Transport adapts the caller to runtime.TransportFunc for in-process use
// (no socket) as id: runtime.TransportFunc(caller.Transport(id)).
func (c *ForgeCaller) Transport(id Identity) func(context.Context, proto.Message) (proto.Message, error) {
	return func(ctx context.Context, m proto.Message) (proto.Message, error) {
		req, ok := m.(*gatewayv1.ForgeCallRequest)
		if !ok {
			return nil, fmt.Errorf("gateway: in-process transport got %T, want *gatewayv1.ForgeCallRequest", m)
		}
		return c.Forge(ctx, id, req), nil
	}
}

// call is the state of one Forge call as it moves through dispatch; the
// logged fields are filled in as they become known.
type call struct {
	id     Identity
	acct   *account
	req    *gatewayv1.ForgeCallRequest
	arm    string
	repo   string
	forge  string // described coordinate, once resolved
	replay bool
}

// logCall writes the one line per call: who, what, where, outcome and how
// long. Never a body, title or credential; an unexpected cause is logged
// redacted.
func (c *ForgeCaller) logCall(ctx context.Context, x *call, res *gatewayv1.ForgeCallResult, cause error, d time.Duration) {
	outcome, level := "ok", slog.LevelInfo
	if fe := res.GetError(); fe != nil {
		outcome = codeName(fe.GetCode())
	}
	attrs := []slog.Attr{
		slog.String("account", x.id.Account),
		slog.String("session", x.id.Session),
		slog.String("call_id", x.req.GetCallId()),
		slog.String("tool", toolName(x.req)),
		slog.String("forge", x.forge),
		slog.String("repo", x.repo),
		slog.String("outcome", outcome),
		slog.Int64("duration_ms", d.Milliseconds()),
	}
	if x.replay {
		attrs = append(attrs, slog.Bool("replay", true))
	}
	if cause != nil {
		level = slog.LevelError
		attrs = append(attrs, slog.String("cause", c.redact(cause.Error())))
	}
	c.log.LogAttrs(ctx, level, "forge call", attrs...)
}

// codeName is the wire spelling of a code ("permission_denied").
func codeName(code gatewayv1.ErrorCode) string {
	name, ok := gatewayv1.ErrorCode_name[int32(code)]
	if !ok || code == gatewayv1.ErrorCode_ERROR_CODE_UNSPECIFIED {
		return "unspecified"
	}
	const prefix = len("ERROR_CODE_")
	b := []byte(name[prefix:])
	for i, ch := range b {
		if 'A' <= ch && ch <= 'Z' {
			b[i] = ch + 'a' - 'A'
		}
	}
	return string(b)
}

// errResult wraps an in-band error.
func errResult(fe *gatewayv1.ForgeCallError) *gatewayv1.ForgeCallResult {
	return &gatewayv1.ForgeCallResult{Result: &gatewayv1.ForgeCallResult_Error{Error: fe}}
}

// errNoResult is a provider breaking its contract: no error and no result.
var errNoResult = errors.New("provider returned neither a result nor an error")
