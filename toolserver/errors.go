package toolserver

import (
	"errors"
	"fmt"
	"time"

	optionsv1 "github.com/forgetools/forgetools/gen/forgetools/options/v1"
	"google.golang.org/protobuf/proto"
)

// Code is an in-band error code in the contract's own vocabulary. A
// table with an error enum of its own gets the code by model name
// ((forgetools.options.v1.value).name: "not_found"), in its generated
// Error function; Go code spells each code one way, here.
type Code = optionsv1.ErrorCode

// Error is a provider failure the gateway returns in-band.
type Error struct {
	Code    Code
	Message string
	// RetryAfter is set when the forge rate-limited the call.
	RetryAfter time.Duration
	// cause is what the message's %w named (see Unwrap in codes.go).
	cause error
}

func (e *Error) Error() string { return e.Message }

// Errorf returns an *Error with a formatted message.
func Errorf(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// AsError reports whether err carries an *Error.
func AsError(err error) (*Error, bool) {
	var e *Error
	ok := errors.As(err, &e)
	return e, ok
}

// UnimplementedError is the answer for an arm a provider does not serve.
// The gateway words it for the model, in the provider's own terms when the
// provider is an Explainer.
type UnimplementedError struct {
	// Capability is the arm's capability as the proto names it ("issues").
	Capability string
	// Arm is the arm's name ("create_issue").
	Arm string
}

func (e *UnimplementedError) Error() string {
	return fmt.Sprintf("%s (capability %s) is not implemented", e.Arm, e.Capability)
}

// Unimplemented is what the generated unimplemented handlers return.
func Unimplemented(capability, arm string) error {
	return &UnimplementedError{Capability: capability, Arm: arm}
}

// ErrNoResult is a provider breaking its contract: no error and no result.
var ErrNoResult = errors.New("provider returned neither a result nor an error")

// Result adapts a handler method's typed answer for the table: a nil result
// without an error is ErrNoResult, never a nil message the gateway would
// have to guess about.
func Result[T proto.Message](out T, err error) (proto.Message, error) {
	if err != nil {
		return nil, err
	}
	if !out.ProtoReflect().IsValid() {
		return nil, ErrNoResult
	}
	return out, nil
}
