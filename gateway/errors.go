package gateway

import (
	"context"
	"errors"
	"fmt"
	"time"

	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/providers"
)

// failure is an in-band error.
func failure(code gatewayv1.ErrorCode, format string, args ...any) *gatewayv1.ForgeCallError {
	return &gatewayv1.ForgeCallError{Code: code, Message: fmt.Sprintf(format, args...)}
}

// internalMessage is all a caller learns about an unexpected failure; the
// details go to the log (redacted), never into a tool result.
const internalMessage = "internal error in the forge gateway"

// mapError turns a provider or store failure into the in-band error the
// caller sees, and says whether it was unexpected (and so worth an error
// log line with the cause).
func (c *ForgeCaller) mapError(err error) (fe *gatewayv1.ForgeCallError, unexpected bool) {
	if pe, ok := providers.AsError(err); ok {
		code := pe.Code
		if code == gatewayv1.ErrorCode_ERROR_CODE_UNSPECIFIED {
			code = gatewayv1.ErrorCode_ERROR_CODE_INTERNAL
		}
		return &gatewayv1.ForgeCallError{
			Code:         code,
			Message:      c.redact(pe.Message),
			RetryAfterMs: retryAfterMillis(pe.RetryAfter),
		}, false
	}
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		return failure(gatewayv1.ErrorCode_ERROR_CODE_UNAVAILABLE,
			"the forge call was cancelled or timed out before it finished"), false
	}
	return failure(gatewayv1.ErrorCode_ERROR_CODE_INTERNAL, internalMessage), true
}

// retryAfterMillis rounds up, so a wait of 1.2ms is never reported as 1ms
// (retrying early just earns another rate limit).
func retryAfterMillis(d time.Duration) uint64 {
	if d <= 0 {
		return 0
	}
	return uint64((d + time.Millisecond - 1) / time.Millisecond)
}
