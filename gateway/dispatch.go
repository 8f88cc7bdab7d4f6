package gateway

import (
	"context"
	"errors"

	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/providers"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// dispatch runs the checks every call passes, in order (identity, shape,
// unsubscribe's own path, repository, forge, the forge's repository shape,
// scope), then the arm. It
// returns the result and, for an unexpected failure, its cause for the log.
// No provider is called before every check has passed.
func (c *ForgeCaller) dispatch(ctx context.Context, x *call) (*gatewayv1.ForgeCallResult, error) {
	x.acct = c.cfg.accounts[x.id.Account]
	if x.acct == nil || !nameRE.MatchString(x.id.Session) {
		return errResult(failure(gatewayv1.ErrorCode_ERROR_CODE_PERMISSION_DENIED,
			"this connection is not bound to a configured account and session")), nil
	}
	if x.req.GetCall() == nil {
		return errResult(failure(gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT,
			"the request names no operation (the call is unset, or is one this gateway does not know)")), nil
	}
	if fe := validate(c.validator, x.req); fe != nil {
		return errResult(fe), nil
	}
	if u, ok := x.req.GetCall().(*gatewayv1.ForgeCallRequest_Unsubscribe); ok {
		return c.outcome(c.unsubscribe(ctx, x, u.Unsubscribe))
	}

	repo, ok := repoOf(x.req)
	if !ok {
		return errResult(failure(gatewayv1.ErrorCode_ERROR_CODE_INTERNAL,
			"%s names no repository, so the gateway cannot scope it", x.arm)), nil
	}
	x.repo = repo
	if !validRepo(x.repo) {
		return errResult(failure(gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT,
			"repo %q is not \"owner/name\" or a team key (letters, digits, '.', '_' and '-' between slashes)", x.repo)), nil
	}
	p, fe := c.cfg.registry.resolve(x.req.GetForge())
	if fe != nil {
		return errResult(fe), nil
	}
	x.forge = describe(p.Ref())
	if fe := repoShape(p.Ref().GetProvider(), x.repo); fe != nil {
		return errResult(fe), nil
	}
	if !x.acct.scope.allows(x.repo) {
		return errResult(failure(gatewayv1.ErrorCode_ERROR_CODE_PERMISSION_DENIED,
			"repository %q is outside the scope of account %q", x.repo, x.acct.Name)), nil
	}
	return c.outcome(c.run(ctx, x, p))
}

// outcome maps an arm's error to the in-band result.
func (c *ForgeCaller) outcome(res *gatewayv1.ForgeCallResult, err error) (*gatewayv1.ForgeCallResult, error) {
	if err == nil {
		if res == nil {
			err = errNoResult
		} else {
			c.redactMessage(res.ProtoReflect())
			return res, nil
		}
	}
	var ib inBand
	if errors.As(err, &ib) {
		return errResult(ib.ForgeCallError), nil
	}
	fe, unexpected := c.mapError(err)
	if unexpected {
		return errResult(fe), err
	}
	return errResult(fe), nil
}

// inBand carries an error the gateway itself decided on (unimplemented,
// invalid argument) through an arm's error return unchanged.
type inBand struct{ *gatewayv1.ForgeCallError }

func (e inBand) Error() string { return e.Message }

func refuse(code gatewayv1.ErrorCode, format string, args ...any) error {
	return inBand{failure(code, format, args...)}
}

// need asserts that p has capability T, or explains which forge cannot do
// what, in the provider's words when it has them (providers.Explainer),
// else "gitea has no pull requests, so create_pull_request cannot run on
// forge gitea/git.example.com".
func need[T any](p providers.Provider, x *call, noun string) (T, error) {
	t, ok := p.(T)
	if !ok {
		if e, ok := p.(providers.Explainer); ok {
			if why := e.Unsupported(noun); why != "" {
				return t, refuse(gatewayv1.ErrorCode_ERROR_CODE_UNIMPLEMENTED,
					"%s, so %s cannot run on forge %s", why, x.arm, x.forge)
			}
		}
		return t, refuse(gatewayv1.ErrorCode_ERROR_CODE_UNIMPLEMENTED,
			"%s has no %s, so %s cannot run on forge %s", providerName(p.Ref().GetProvider()), noun, x.arm, x.forge)
	}
	return t, nil
}

// armName is the oneof field name of the request's arm ("create_issue");
// the tool is "forge_" + armName.
func armName(req *gatewayv1.ForgeCallRequest) string {
	if fd := armField(req); fd != nil {
		return string(fd.Name())
	}
	return "unset"
}

func armField(req *gatewayv1.ForgeCallRequest) protoreflect.FieldDescriptor {
	if req == nil {
		return nil
	}
	m := req.ProtoReflect()
	return m.WhichOneof(m.Descriptor().Oneofs().ByName("call"))
}

// repoOf is the repository the arm names; every arm but unsubscribe has
// one, and an arm without one is refused rather than run unscoped.
func repoOf(req *gatewayv1.ForgeCallRequest) (string, bool) {
	fd := armField(req)
	if fd == nil || fd.Message() == nil {
		return "", false
	}
	r, ok := req.ProtoReflect().Get(fd).Message().Interface().(interface{ GetRepo() string })
	if !ok {
		return "", false
	}
	return r.GetRepo(), true
}
