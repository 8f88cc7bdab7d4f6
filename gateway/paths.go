package gateway

import (
	"google.golang.org/protobuf/proto"

	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/internal/gitpath"
	"github.com/forgetools/forgetools/toolserver"
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
	return checkFields(o, o.arm.Paths(o.req), gitpath.Problem, "path", "is one git refuses")
}

// checkFields refuses the first non-empty field that problem finds
// fault with: invalid_argument naming the arm's field, the value (a noun
// before it, a verdict after) and problem's reason. An empty value is
// left to the field's own rules (the root, the default branch, omitted).
func checkFields(o *operation, fields []toolserver.CheckedField, problem func(string) string, noun, verdict string) error {
	for _, f := range fields {
		if *f.Value == "" {
			continue
		}
		if why := problem(*f.Value); why != "" {
			return refuse(gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT, "%s.%s: %s %q %s: %s", o.arm.Name, f.Path, noun, *f.Value, verdict, why)
		}
	}
	return nil
}
