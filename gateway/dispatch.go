package gateway

import (
	"context"
	"errors"

	"google.golang.org/protobuf/proto"

	"github.com/forgetools/forgetools/gateway/store"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/handler"
)

// dispatch runs the checks every call passes, in order (identity, shape,
// validation, scope, forge), then the arm. It returns the result envelope,
// the in-band error it carries (nil on success) and, for an unexpected
// failure, its cause for the log. No provider is called before every check
// has passed.
func (s *Service) dispatch(ctx context.Context, o *operation, req proto.Message) (proto.Message, *gatewayv1.ForgeCallError, error) {
	p, err := s.check(ctx, o, req)
	if err != nil {
		return s.failed(o, err)
	}
	out, err := s.run(ctx, o, p)
	if err != nil {
		return s.failed(o, err)
	}
	s.redactMessage(out.ProtoReflect())
	return o.arm.Wrap(o.env.CallID, out), nil, nil
}

// check authenticates, validates and scopes the call and resolves its
// forge.
func (s *Service) check(ctx context.Context, o *operation, req proto.Message) (handler.Provider, error) {
	o.acct = s.cfg.accounts[o.id.Account]
	if o.acct == nil || !validName(o.id.Session) {
		return nil, refuse(gatewayv1.ErrorCode_ERROR_CODE_PERMISSION_DENIED,
			"this connection is not bound to a configured account and session")
	}
	if o.arm == nil || o.req == nil || !o.req.ProtoReflect().IsValid() {
		return nil, refuse(gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT,
			"the request names no operation (the call is unset, or is one this gateway does not know)")
	}
	if err := s.validate(req); err != nil {
		return nil, err
	}
	switch o.arm.Scope {
	case handler.ScopeRepository:
		return s.scopeRepository(o)
	case handler.ScopeSubscription:
		return s.scopeSubscription(ctx, o)
	}
	return nil, refuse(gatewayv1.ErrorCode_ERROR_CODE_INTERNAL,
		"%s names no repository, so the gateway cannot scope it", o.tool)
}

// scopeRepository scopes a call by the repository it names and resolves
// the forge its selector names.
func (s *Service) scopeRepository(o *operation) (handler.Provider, error) {
	o.repo = o.arm.ScopeKey(o.req)
	if !validRepo(o.repo) {
		return nil, refuse(gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT,
			"repo %q is not \"owner/name\" or a team key (letters, digits, '.', '_' and '-' between slashes)", o.repo)
	}
	if err := o.inScope(); err != nil {
		return nil, err
	}
	p, fe := s.cfg.registry.resolve(o.env.Forge)
	if fe != nil {
		return nil, inBand{fe}
	}
	o.forge = describe(p.Ref())
	return p, nil
}

// scopeSubscription scopes a call that names one of the account's
// subscriptions by the stored subscription's repository, and sends it to
// the subscription's forge: an account whose scope no longer covers it
// cannot touch it either.
func (s *Service) scopeSubscription(ctx context.Context, o *operation) (handler.Provider, error) {
	id := o.arm.ScopeKey(o.req)
	sub, err := s.store.Subscription(ctx, o.acct.Name, id)
	if errors.Is(err, store.ErrNotFound) {
		return nil, refuse(gatewayv1.ErrorCode_ERROR_CODE_NOT_FOUND, "subscription %q not found for this account", id)
	}
	if err != nil {
		return nil, err
	}
	o.repo, o.forge = sub.Repo, describe(sub.Forge.Ref())
	if err := o.inScope(); err != nil {
		return nil, err
	}
	p, fe := s.cfg.registry.resolve(sub.Forge.Ref())
	if fe != nil {
		return nil, inBand{fe}
	}
	return p, nil
}

func (o *operation) inScope() error {
	if !o.acct.scope.allows(o.repo) {
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
	return o.table.Error(o.env.CallID, fe), fe, cause
}
