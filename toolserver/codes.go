package toolserver

import (
	"fmt"

	optionsv1 "github.com/forgetools/forgetools/gen/forgetools/options/v1"
)

// The constructors below are the one spelling of each in-band error code
// for Go code: a provider writes toolserver.NotFound("%s has no issue %d",
// repo, n), never the generated enum's full name or an alias of its own.
// Each formats as fmt.Errorf does, so a %w verb both words the cause in the
// message and keeps it for errors.Is and errors.As (see Unwrap); %v words
// it without keeping it.
//
// ERROR_CODE_PENDING_APPROVAL has no constructor on purpose: only the
// gateway's approval policy parks a call, and a provider that answered it
// would tell the caller a call waits for an operator when none does.

// InvalidArgument is the caller's input the forge or the provider refused.
func InvalidArgument(format string, args ...any) *Error {
	return coded(optionsv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT, format, args...)
}

// NotFound is an artifact that does not exist, or that the credential
// cannot see.
func NotFound(format string, args ...any) *Error {
	return coded(optionsv1.ErrorCode_ERROR_CODE_NOT_FOUND, format, args...)
}

// PermissionDenied is a call the credential may not make.
func PermissionDenied(format string, args ...any) *Error {
	return coded(optionsv1.ErrorCode_ERROR_CODE_PERMISSION_DENIED, format, args...)
}

// Unauthenticated is a credential the forge does not accept.
func Unauthenticated(format string, args ...any) *Error {
	return coded(optionsv1.ErrorCode_ERROR_CODE_UNAUTHENTICATED, format, args...)
}

// NotImplemented is an operation the forge (or this instance of it) cannot
// do, in the provider's words. (Unimplemented is the generated handlers'
// answer for an arm the provider does not serve at all.)
func NotImplemented(format string, args ...any) *Error {
	return coded(optionsv1.ErrorCode_ERROR_CODE_UNIMPLEMENTED, format, args...)
}

// ResourceExhausted is a limit reached: a rate limit (set RetryAfter when
// the forge names a wait), a quota, an answer past a size cap.
func ResourceExhausted(format string, args ...any) *Error {
	return coded(optionsv1.ErrorCode_ERROR_CODE_RESOURCE_EXHAUSTED, format, args...)
}

// Unavailable is a forge that did not answer, or failed in a way a retry
// may mend.
func Unavailable(format string, args ...any) *Error {
	return coded(optionsv1.ErrorCode_ERROR_CODE_UNAVAILABLE, format, args...)
}

// Internal is a failure that is neither the caller's nor the forge's
// passing trouble: a bug, or an answer the provider cannot read.
func Internal(format string, args ...any) *Error {
	return coded(optionsv1.ErrorCode_ERROR_CODE_INTERNAL, format, args...)
}

// AlreadyExists is a create whose artifact exists already.
func AlreadyExists(format string, args ...any) *Error {
	return coded(optionsv1.ErrorCode_ERROR_CODE_ALREADY_EXISTS, format, args...)
}

// FailedPrecondition is a call the artifact's present state forbids: a
// merge that cannot happen, a head that moved, a repository that moved.
func FailedPrecondition(format string, args ...any) *Error {
	return coded(optionsv1.ErrorCode_ERROR_CODE_FAILED_PRECONDITION, format, args...)
}

// Unwrap is what a constructor's %w kept (nil when the format had none),
// so errors.Is and errors.As see through an in-band error to its cause.
func (e *Error) Unwrap() error { return e.cause }

// coded formats the message as fmt.Errorf does and keeps what it wrapped.
func coded(code Code, format string, args ...any) *Error {
	f := fmt.Errorf(format, args...)
	e := &Error{Code: code, Message: f.Error()}
	// fmt.Errorf's error unwraps to what a %w named (one or several); one
	// without %w has nothing behind it and is not kept.
	switch f.(type) {
	case interface{ Unwrap() error }, interface{ Unwrap() []error }:
		e.cause = f
	}
	return e
}
