// Package gateway is the AgentGateway's Service: the one chokepoint every
// forge call from an agent passes through. For the account bound to the
// connection it validates the request, enforces the account's repository
// scope, resolves the forge, stamps attribution into what it writes,
// deduplicates creates, records what it created and maps every failure to an
// in-band ForgeCallError.
//
// The Service is generic over tables: it reads each arm's policy from the
// generated toolserver.Table (which field scopes the call, which texts are
// stamped, which arms carry the idempotency key and own their result) and
// dispatches through the table to the provider's generated handler method.
// No file here names an arm.
//
// The listeners that bind connections to identities live in
// gateway/server; the state in gateway/store; the owner header grammar in
// gateway/attribution.
package gateway

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"buf.build/go/protovalidate"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/forgetools/forgetools/enumname"
	"github.com/forgetools/forgetools/gateway/store"
	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/gen/forgetools/gateway/v1/gatewayv1handler"
	"github.com/forgetools/forgetools/toolserver"
)

// Service performs forge calls for gateway accounts. It is safe for
// concurrent use.
type Service struct {
	cfg       *checked
	store     *store.Store
	log       *slog.Logger
	validator protovalidate.Validator
	tables    []*toolserver.Table
	byRequest map[protoreflect.FullName]*toolserver.Table
	flow      *flowState
	scopes    scopeCache
}

// New validates cfg and returns its Service. The Service does not own
// cfg.Store: close it after the last call.
func New(cfg Config) (*Service, error) {
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
	s := &Service{cfg: c, store: cfg.Store, log: log, validator: v, byRequest: map[protoreflect.FullName]*toolserver.Table{}}
	// Whatever the store writes from here on is redacted with the
	// gateway's credentials (ownership rows, event keys, delivery ids).
	cfg.Store.SetRedactor(c.redactor)
	tables := cfg.Tables
	if len(tables) == 0 {
		tables = []*toolserver.Table{gatewayv1handler.ForgeTable}
	}
	for _, t := range tables {
		name := t.NewRequest().ProtoReflect().Descriptor().FullName()
		if _, dup := s.byRequest[name]; dup {
			return nil, fmt.Errorf("gateway: two tables take %s", name)
		}
		s.byRequest[name] = t
		s.tables = append(s.tables, t)
	}
	s.flow = newFlowState(s.tables)
	return s, nil
}

// Tables returns the tables the service serves, in configuration order.
func (s *Service) Tables() []*toolserver.Table { return append([]*toolserver.Table(nil), s.tables...) }

// Call performs one forge call for id and returns the table's result
// envelope, echoing the request's call id. Domain failures (bad request,
// out of scope, unknown forge, provider errors) are its error arm; the
// error return is only for a request of a type no table of this service
// takes.
func (s *Service) Call(ctx context.Context, id Identity, req proto.Message) (proto.Message, error) {
	if req == nil {
		return nil, fmt.Errorf("gateway: no request")
	}
	table, ok := s.byRequest[req.ProtoReflect().Descriptor().FullName()]
	if !ok {
		return nil, fmt.Errorf("gateway: no table of this gateway takes %s", req.ProtoReflect().Descriptor().FullName())
	}
	start := time.Now()
	o := &operation{id: id, table: table, envelope: req}
	o.arm, o.req, o.env = table.Split(req)
	if o.arm != nil {
		o.tool = o.arm.Tool
	}
	res, fe, cause := s.dispatch(ctx, o, req)
	s.logCall(ctx, o, fe, cause, time.Since(start))
	return res, nil
}

// Transport adapts the service to runtime.TransportFunc for in-process use
// (no socket) as id: runtime.TransportFunc(svc.Transport(id)).
func (s *Service) Transport(id Identity) func(context.Context, proto.Message) (proto.Message, error) {
	return func(ctx context.Context, m proto.Message) (proto.Message, error) {
		return s.Call(ctx, id, m)
	}
}

// operation is the state of one call as it moves through dispatch; the
// logged fields are filled in as they become known.
type operation struct {
	id    Identity
	acct  *account
	table *toolserver.Table
	arm   *toolserver.Arm
	req   proto.Message // the arm's request
	env   toolserver.Envelope
	tool  string           // as the model names it; "" until the arm is known
	scope toolserver.Scope // what scoped the call, once checked
	sc    scope            // the account's effective scope
	repo  string
	repos []string          // a search naming no repo: the scope's, on the forge
	forge string            // described coordinate, once resolved
	ref   *forgev1.ForgeRef // the resolved forge; nil for own state
	// replay marks a create answered from the dedup memo.
	replay bool
	// envelope is the request envelope as the caller sent it.
	envelope proto.Message
	// risk and escalations are the call's, once the policy computed them.
	risk        toolserver.Risk
	escalations []string
	// parked is the approval that holds (or answered) this call; approved
	// the approval this call runs for, which the gate lets through.
	parked, approved string
}

// logCall writes the one line per call: who, what, where, outcome and how
// long. Never a body, title or credential; an unexpected cause is logged
// redacted.
func (s *Service) logCall(ctx context.Context, o *operation, fe *gatewayv1.ForgeCallError, cause error, d time.Duration) {
	result, level := "ok", slog.LevelInfo
	if cause != nil {
		level = slog.LevelError
	}
	if !s.log.Enabled(ctx, level) {
		// Every read pays for this line; a gateway logging at warn
		// should not build what it drops.
		return
	}
	if fe != nil {
		result = enumname.Of(fe.GetCode())
	}
	// Room for every attribute up front: the line is built once, with no
	// regrowing of the slice as the optional ones are added.
	attrs := make([]slog.Attr, 0, 12)
	attrs = append(attrs,
		slog.String("account", o.id.Account),
		slog.String("session", o.id.Session),
		slog.String("call_id", o.env.CallID),
		slog.String("tool", o.tool),
		slog.String("forge", o.forge),
		slog.String("repo", o.repo),
		slog.String("outcome", result),
		slog.Int64("duration_ms", d.Milliseconds()),
	)
	if o.replay {
		attrs = append(attrs, slog.Bool("replay", true))
	}
	if o.parked != "" {
		attrs = append(attrs, slog.String("approval", o.parked))
	}
	if o.approved != "" {
		attrs = append(attrs, slog.String("approved", o.approved))
	}
	if cause != nil {
		attrs = append(attrs, slog.String("cause", s.redact(cause.Error())))
	}
	s.log.LogAttrs(ctx, level, "forge call", attrs...)
}
