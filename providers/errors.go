package providers

import (
	"errors"
	"fmt"
	"time"

	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
)

// Error is a provider failure the gateway returns in-band.
type Error struct {
	Code    gatewayv1.ErrorCode
	Message string
	// RetryAfter is set when the forge rate-limited the call.
	RetryAfter time.Duration
}

func (e *Error) Error() string { return e.Message }

// Errorf returns an *Error with a formatted message.
func Errorf(code gatewayv1.ErrorCode, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// AsError reports whether err carries an *Error.
func AsError(err error) (*Error, bool) {
	var e *Error
	ok := errors.As(err, &e)
	return e, ok
}
