package gateway

import (
	"google.golang.org/protobuf/proto"

	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/internal/gitpath"
)

// validateCall is validate plus the checks the table marks on the arm's
// fields: every repository path (param).repo_path marks is held to git's
// own rules, for every forge, before any provider runs, so a path no
// clone could check out (a .git look-alike, "..") is invalid_argument
// and reaches no forge; so is every git ref (param).git_ref marks
// (refs.go).
func (s *Service) validateCall(o *operation, req proto.Message) error {
	if err := s.validate(req); err != nil {
		return err
	}
	if err := checkRefs(o); err != nil {
		return err
	}
	if o.arm.Paths == nil {
		return nil
	}
	for _, p := range o.arm.Paths(o.req) {
		if *p.Value == "" {
			continue // the field's own rules say whether it may be omitted
		}
		if why := gitpath.Problem(*p.Value); why != "" {
			return refuse(gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT, "%s.%s: path %q is one git refuses: %s", o.arm.Name, p.Path, *p.Value, why)
		}
	}
	return nil
}
