package gateway

import (
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/internal/gitref"
)

// checkRefs holds every branch, tag and commit name the arm's request
// carries (the fields (param).git_ref marks) to git's ref-name rules,
// for every forge, before scope, approval or any provider: providers put
// refs into request paths, and an HTTP client that resolves "../" in one
// would climb out of the repository with the account's credential. A
// refusal is invalid_argument naming the field and the rule.
func checkRefs(o *operation) error {
	if o.arm.Refs == nil {
		return nil
	}
	for _, r := range o.arm.Refs(o.req) {
		if *r.Value == "" {
			continue // the field's own rules say whether it may be omitted
		}
		if why := gitref.Problem(*r.Value); why != "" {
			return refuse(gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT, "%s.%s: %q is not a branch, tag or commit name git accepts: %s", o.arm.Name, r.Path, *r.Value, why)
		}
	}
	return nil
}
