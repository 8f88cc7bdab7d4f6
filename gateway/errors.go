package gateway

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	optionsv1 "github.com/forgetools/forgetools/gen/forgetools/options/v1"
	"github.com/forgetools/forgetools/toolserver"
)

// failure is an in-band error.
func failure(code gatewayv1.ErrorCode, format string, args ...any) *gatewayv1.ForgeCallError {
	return &gatewayv1.ForgeCallError{Code: code, Message: fmt.Sprintf(format, args...)}
}

// inBand carries an error the gateway itself decided on (unimplemented,
// invalid argument) through an error return unchanged.
type inBand struct{ *gatewayv1.ForgeCallError }

func (e inBand) Error() string { return e.Message }

func refuse(code gatewayv1.ErrorCode, format string, args ...any) error {
	return inBand{failure(code, format, args...)}
}

// internalMessage is all a caller learns about an unexpected failure; the
// details go to the log (redacted), never into a tool result.
const internalMessage = "internal error in the forge gateway"

// mapError turns a gateway, provider or store failure into the in-band
// error the caller sees, and says whether it was unexpected (and so worth
// an error log line with the cause).
func (s *Service) mapError(err error) (fe *gatewayv1.ForgeCallError, unexpected bool) {
	var ib inBand
	if errors.As(err, &ib) {
		return ib.ForgeCallError, false
	}
	if pe, ok := toolserver.AsError(err); ok {
		// The contract's codes are the forge table's, number for number
		// (TestErrorCodesMatch).
		code := gatewayv1.ErrorCode(pe.Code)
		if code == gatewayv1.ErrorCode_ERROR_CODE_UNSPECIFIED {
			code = gatewayv1.ErrorCode_ERROR_CODE_INTERNAL
		}
		return &gatewayv1.ForgeCallError{
			Code:         code,
			Message:      s.redact(pe.Message),
			RetryAfterMs: retryAfterMillis(pe.RetryAfter),
		}, false
	}
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		return failure(gatewayv1.ErrorCode_ERROR_CODE_UNAVAILABLE,
			"the forge call was cancelled or timed out before it finished"), false
	}
	return failure(gatewayv1.ErrorCode_ERROR_CODE_INTERNAL, internalMessage), true
}

// explain words a provider's answer for an arm it does not serve: in the
// provider's own terms when it has them (toolserver.Explainer), else "gitea
// has no pull requests, so create_pull_request cannot run on forge
// gitea/git.example.com". Other errors pass through.
func explain(o *operation, p Provider, err error) error {
	var u *toolserver.UnimplementedError
	if !errors.As(err, &u) {
		return err
	}
	if e, ok := p.(toolserver.Explainer); ok {
		if why := e.Unsupported(u.Capability); why != "" {
			return refuse(gatewayv1.ErrorCode_ERROR_CODE_UNIMPLEMENTED, "%s, so %s cannot run on forge %s", why, u.Arm, o.forge)
		}
	}
	return refuse(gatewayv1.ErrorCode_ERROR_CODE_UNIMPLEMENTED, "%s has no %s, so %s cannot run on forge %s",
		providerName(p.Ref().GetProvider()), strings.ReplaceAll(u.Capability, "_", " "), u.Arm, o.forge)
}

// callError is fe in the contract's vocabulary, for a table's Error.
func callError(fe *gatewayv1.ForgeCallError) *optionsv1.CallError {
	return &optionsv1.CallError{Code: optionsv1.ErrorCode(fe.GetCode()), Message: fe.GetMessage(), RetryAfterMs: fe.GetRetryAfterMs()}
}

// retryAfterMillis rounds up, so a wait of 1.2ms is never reported as 1ms
// (retrying early just earns another rate limit).
func retryAfterMillis(d time.Duration) uint64 {
	if d <= 0 {
		return 0
	}
	return uint64((d + time.Millisecond - 1) / time.Millisecond)
}
