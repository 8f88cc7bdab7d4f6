package gateway

import (
	"context"
	"errors"

	"google.golang.org/protobuf/proto"

	"github.com/forgetools/forgetools/gateway/store"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/toolserver"
)

// dispatch runs the checks every call passes, in order (identity, shape,
// validation, forge, the forge's repository shape, scope), then the
// approval gate (the account's policy and the session's flow rules: run,
// park or deny), then the arm within the account's limits, and records
// what a read showed the session. It returns the result envelope, the
// in-band error it carries (nil on success) and, for an unexpected
// failure, its cause for the log. No provider is called before every
// check has passed.
func (s *Service) dispatch(ctx context.Context, o *operation, req proto.Message) (proto.Message, *gatewayv1.ForgeCallError, error) {
	p, err := s.check(ctx, o, req)
	if err != nil {
		return s.failed(o, err)
	}
	// The approval gate (park.go): after scope, before any provider.
	if res, answered, err := s.gate(ctx, o, p); answered {
		if err != nil {
			return s.failed(o, err)
		}
		return o.arm.Wrap(o.env.CallID, res), nil, nil
	}
	out, err := s.limited(ctx, o, p)
	if err == nil {
		err = s.recordReads(ctx, o, out)
	}
	if err != nil {
		return s.failed(o, err)
	}
	s.redactMessage(out.ProtoReflect())
	return o.arm.Wrap(o.env.CallID, out), nil, nil
}

// check authenticates, validates and scopes the call and resolves its
// forge.
func (s *Service) check(ctx context.Context, o *operation, req proto.Message) (Provider, error) {
	o.acct = s.cfg.accounts[o.id.Account]
	if o.acct == nil || !validName(o.id.Session) {
		return nil, refuse(gatewayv1.ErrorCode_ERROR_CODE_PERMISSION_DENIED,
			"this connection is not bound to a configured account and session")
	}
	if o.arm == nil || o.req == nil || !o.req.ProtoReflect().IsValid() {
		return nil, refuse(gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT,
			"the request names no operation (the call is unset, or is one this gateway does not know)")
	}
	if err := s.validateCall(o, req); err != nil {
		return nil, err
	}
	var err error
	if o.sc, err = s.scopeOf(ctx, o.acct); err != nil {
		return nil, err
	}
	o.scope = o.arm.Scope
	if o.arm.ScopeWhenEmpty != toolserver.ScopeNone && (o.arm.ScopeKey == nil || o.arm.ScopeKey(o.req) == "") {
		o.scope = o.arm.ScopeWhenEmpty
	}
	switch o.scope {
	case toolserver.ScopeRepository:
		return s.scopeRepository(o)
	case toolserver.ScopeSubscription:
		return s.scopeSubscription(ctx, o)
	case toolserver.ScopeOwnState:
		return s.scopeOwnState(o)
	case toolserver.ScopeAccountRepositories:
		return s.scopeAccountRepositories(o)
	}
	return nil, refuse(gatewayv1.ErrorCode_ERROR_CODE_INTERNAL,
		"%s names no repository, so the gateway cannot scope it", o.tool)
}

// scopeRepository scopes a call by the repository it names and resolves
// the forge its selector names.
func (s *Service) scopeRepository(o *operation) (Provider, error) {
	o.repo = o.arm.ScopeKey(o.req)
	if !validRepo(o.repo) {
		return nil, refuse(gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT,
			"repo %q is not \"owner/name\", a nested \"group/sub/name\" (at most 22 segments) or a team key (letters, digits, '.', '_' and '-' between slashes)", o.repo)
	}
	p, fe := s.cfg.registry.resolve(selectorOf(o.env))
	if fe != nil {
		return nil, inBand{fe}
	}
	o.ref, o.forge = p.Ref(), describe(p.Ref())
	// The shape before the scope: a model that left out the owner learns
	// the shape the forge needs rather than reading a scope denial.
	if fe := repoShape(p.Ref().GetProvider(), o.repo); fe != nil {
		return nil, inBand{fe}
	}
	if err := o.inScope(); err != nil {
		return nil, err
	}
	return p, nil
}

// scopeSubscription scopes a call that names one of the account's
// subscriptions by the stored subscription's repository, and sends it to
// the subscription's forge: an account whose scope no longer covers it
// cannot touch it either.
func (s *Service) scopeSubscription(ctx context.Context, o *operation) (Provider, error) {
	id := o.arm.ScopeKey(o.req)
	sub, err := s.store.Subscription(ctx, o.acct.Name, id)
	if errors.Is(err, store.ErrNotFound) {
		return nil, refuse(gatewayv1.ErrorCode_ERROR_CODE_NOT_FOUND, "subscription %q not found for this account", id)
	}
	if err != nil {
		return nil, err
	}
	if sub.Kind == store.KindApproval {
		// The account's approval stream is its own gateway state, on no
		// forge: read like the account's other state, never changed.
		if o.arm.Approval != toolserver.ApprovalRead {
			return nil, refuse(gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT,
				"subscription %q is the gateway's stream of decisions on your parked calls: %s cannot change it, forge_get_events reads it", id, o.tool)
		}
		return s.scopeOwnState(o)
	}
	o.repo, o.ref, o.forge = sub.Repo, sub.Forge.Ref(), describe(sub.Forge.Ref())
	if err := o.inScope(); err != nil {
		return nil, err
	}
	p, fe := s.cfg.registry.resolve(sub.Forge.Ref())
	if fe != nil {
		return nil, inBand{fe}
	}
	return p, nil
}

// scopeOwnState sends a call about the caller's own gateway state to the
// state provider. It names no forge, so a selector is refused rather than
// silently ignored; what the provider reads is limited by Call.InScope.
func (s *Service) scopeOwnState(o *operation) (Provider, error) {
	if s.cfg.state == nil {
		return nil, refuse(gatewayv1.ErrorCode_ERROR_CODE_UNIMPLEMENTED,
			"%s reads state this gateway does not keep (it is configured without a state provider)", o.tool)
	}
	if sel := selectorOf(o.env); sel.GetProvider() != 0 || sel.GetHost() != "" {
		return nil, refuse(gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT,
			"%s without a subscription reads your own state across every forge: omit forge_provider and forge_host", o.tool)
	}
	return s.cfg.state, nil
}

func (o *operation) inScope() error {
	if !o.sc.allows(o.ref, o.repo) {
		return refuse(gatewayv1.ErrorCode_ERROR_CODE_PERMISSION_DENIED,
			"repository %q is outside the scope of account %q", o.repo, o.acct.Name)
	}
	return nil
}

// failed maps an error to the in-band error envelope, and returns the
// error as the cause when it was unexpected.
func (s *Service) failed(o *operation, err error) (proto.Message, *gatewayv1.ForgeCallError, error) {
	fe, unexpected := s.mapError(err)
	var cause error
	if unexpected {
		cause = err
	}
	return o.table.Error(o.env.CallID, callError(fe)), fe, cause
}
