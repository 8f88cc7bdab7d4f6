package gateway

import "github.com/forgetools/forgetools/internal/gitref"

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
	return checkFields(o, o.arm.Refs(o.req), gitref.Problem, "ref", "is not a branch, tag or commit name git accepts")
}
