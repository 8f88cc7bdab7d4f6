package gateway

import (
	"context"
	"fmt"
	"strings"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/forgetools/forgetools/gateway/attribution"
	"github.com/forgetools/forgetools/gateway/store"
	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/toolserver"
)

// storeGrace bounds the store writes made after a forge write succeeded;
// they run even when the caller has gone, so the record matches the forge.
const storeGrace = 10 * time.Second

// run performs the arm on provider p (every check has passed): the
// attribution policy on a copy of the request, then the provider call,
// once per idempotency key when the arm carries one.
func (s *Service) run(ctx context.Context, o *operation, p Provider) (proto.Message, error) {
	req := o.req
	// An approved call runs as parked: its texts were stamped then.
	if o.arm.Texts != nil && o.approved == "" {
		req = proto.Clone(o.req)
		if err := s.attribute(o, req); err != nil {
			return nil, err
		}
	}
	if o.arm.IdempotencyKey && (o.env.ClientRequestID != "" || s.cfg.dedupWindow > 0) {
		return s.once(ctx, o, p, req)
	}
	out, err := s.serve(ctx, o, p, o.call(), req)
	if err == nil && o.arm.OwnsResult {
		s.own(ctx, o, s.ownership(o, p, out))
	}
	return out, err
}

// call is who the provider call is for.
func (o *operation) call() toolserver.Call {
	c := toolserver.Call{
		Account: o.acct.Name, Session: o.id.Session,
		AgentHandle: o.acct.AgentHandle, OwnerHandle: o.acct.OwnerHandle,
		PushToDefaultBranch: o.acct.PushToDefaultBranch,
	}
	if o.arm.IdempotencyKey {
		c.ClientRequestID = o.env.ClientRequestID
	}
	c.Repos = o.repos
	if o.scope == toolserver.ScopeOwnState {
		c.InScope = func(sel proto.Message, repo string) bool {
			ref, ok := sel.(*forgev1.ForgeRef)
			return ok && o.sc.allowsRepo(ref, repo)
		}
	}
	return c
}

// serve calls the provider and prepares its answer for the caller.
func (s *Service) serve(ctx context.Context, o *operation, p Provider, c toolserver.Call, req proto.Message) (proto.Message, error) {
	out, err := o.arm.Serve(ctx, p, c, req)
	if err != nil {
		return nil, explain(o, p, err)
	}
	finish(out.ProtoReflect(), p.Ref())
	if searchesScope(o.arm) {
		s.keepInScope(ctx, o, out.ProtoReflect())
	}
	// Redacted here, before anything is made of it: the ownership row and
	// the dedup memo are written from this answer.
	s.redactMessage(out.ProtoReflect())
	return out, nil
}

// attribute applies the arm's attribution policy to its text fields: a
// stamped field gets the caller's owner header (replacing any the agent
// wrote), a stripped one loses an agent-written header. Text that was
// nothing but a header is refused rather than published bare.
func (s *Service) attribute(o *operation, req proto.Message) error {
	owner := &forgev1.Attribution{AgentHandle: o.acct.AgentHandle, OwnerHandle: o.acct.OwnerHandle, SessionId: o.id.Session}
	for _, t := range o.arm.Texts(req) {
		text := *t.Value
		stripped := attribution.Strip(text)
		if strings.TrimSpace(stripped) == "" && strings.TrimSpace(text) != "" {
			return refuse(gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT,
				"%s.%s is only an attribution header: write the text itself, the gateway adds the header", o.arm.Name, t.Path)
		}
		if t.Attribution == toolserver.Strip {
			*t.Value = stripped
			continue
		}
		stamped, err := attribution.Stamp(owner, text)
		if err != nil {
			return err
		}
		*t.Value = stamped
	}
	return nil
}

// own records an artifact the call created. The artifact exists whatever
// happens here, so a failure is logged, not returned: failing the call
// would invite a retry that posts it twice.
func (s *Service) own(ctx context.Context, o *operation, rec store.Ownership) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), storeGrace)
	defer cancel()
	if err := s.store.RecordOwnership(ctx, rec); err != nil {
		s.log.ErrorContext(ctx, "ownership not recorded", "account", o.acct.Name, "tool", o.tool,
			"repo", rec.Repo, "number", rec.Number, "cause", s.redact(fmt.Sprint(err)))
	}
}
