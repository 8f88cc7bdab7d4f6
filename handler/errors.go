package handler

import (
	"errors"
	"fmt"
	"time"

	optionsv1 "github.com/forgetools/forgetools/gen/forgetools/options/v1"
	"github.com/forgetools/forgetools/vocab"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// Code is an in-band error code: a value of optionsv1.ErrorCode, the
// contract's own vocabulary, or of any enum whose values carry the same
// model names ((forgetools.options.v1.value).name: "not_found"). The forge
// table's gatewayv1.ErrorCode is one, so a provider written against it
// needs no change; what a code means is its model name (CodeOf).
type Code interface {
	protoreflect.Enum
	String() string
}

// CodeOf is c in the contract's vocabulary, by model name;
// ERROR_CODE_UNSPECIFIED for nil or a value whose name is no code (which
// the gateway answers as internal).
func CodeOf(c Code) optionsv1.ErrorCode {
	switch v := c.(type) {
	case nil:
		return optionsv1.ErrorCode_ERROR_CODE_UNSPECIFIED
	case optionsv1.ErrorCode:
		return v
	}
	return codesByName[vocab.Name(c)]
}

// codesByName is optionsv1.ErrorCode by model name.
var codesByName = func() map[string]optionsv1.ErrorCode {
	values := optionsv1.ErrorCode(0).Descriptor().Values()
	m := make(map[string]optionsv1.ErrorCode, values.Len())
	for i := range values.Len() {
		c := optionsv1.ErrorCode(values.Get(i).Number())
		m[vocab.Name(c)] = c
	}
	return m
}()

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
