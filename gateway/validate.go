package gateway

import (
	"errors"
	"strings"

	"buf.build/go/protovalidate"
	"google.golang.org/protobuf/proto"

	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/violation"
)

// validate checks a request envelope against the same buf.validate rules
// the tool schemas were generated from, worded as the runtime words them
// but naming fields by their wire path ("create_issue.repo: must not be
// blank"): a caller of the gateway sent the wire request.
func (s *Service) validate(req proto.Message) error {
	err := envelopeCheckOf(req.ProtoReflect().Descriptor()).validate(s.validator, req)
	if err == nil {
		return nil
	}
	var ve *protovalidate.ValidationError
	if !errors.As(err, &ve) {
		// A rule that could not be evaluated is the gateway's fault, not
		// the caller's; still refuse the call.
		return refuse(gatewayv1.ErrorCode_ERROR_CODE_INTERNAL, "the request could not be validated")
	}
	lines := violation.All(req.ProtoReflect().Descriptor(), ve, violation.FieldNames)
	return refuse(gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT, "invalid request: %s", strings.Join(lines, "; "))
}
