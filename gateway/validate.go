package gateway

import (
	"errors"
	"strings"

	"buf.build/go/protovalidate"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"google.golang.org/protobuf/proto"
)

// validate checks a request against the same buf.validate rules the tool
// schemas were generated from. The message names every offending field by
// its path ("create_issue.repo: ...").
func validate(v protovalidate.Validator, req proto.Message) *gatewayv1.ForgeCallError {
	err := v.Validate(req)
	if err == nil {
		return nil
	}
	var ve *protovalidate.ValidationError
	if !errors.As(err, &ve) {
		// A rule that could not be evaluated is the gateway's fault, not
		// the caller's; still refuse the call.
		return failure(gatewayv1.ErrorCode_ERROR_CODE_INTERNAL, "the request could not be validated")
	}
	msgs := make([]string, 0, len(ve.Violations))
	for _, v := range ve.Violations {
		msgs = append(msgs, v.String())
	}
	return failure(gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT, "invalid request: %s", strings.Join(msgs, "; "))
}
