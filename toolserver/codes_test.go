package toolserver_test

import (
	"context"
	"errors"
	"io/fs"
	"testing"

	optionsv1 "github.com/forgetools/forgetools/gen/forgetools/options/v1"
	"github.com/forgetools/forgetools/toolserver"
)

func TestConstructorsCarryTheirCode(t *testing.T) {
	for _, c := range []struct {
		make func(string, ...any) *toolserver.Error
		code toolserver.Code
	}{
		{toolserver.InvalidArgument, optionsv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT},
		{toolserver.NotFound, optionsv1.ErrorCode_ERROR_CODE_NOT_FOUND},
		{toolserver.PermissionDenied, optionsv1.ErrorCode_ERROR_CODE_PERMISSION_DENIED},
		{toolserver.Unauthenticated, optionsv1.ErrorCode_ERROR_CODE_UNAUTHENTICATED},
		{toolserver.NotImplemented, optionsv1.ErrorCode_ERROR_CODE_UNIMPLEMENTED},
		{toolserver.ResourceExhausted, optionsv1.ErrorCode_ERROR_CODE_RESOURCE_EXHAUSTED},
		{toolserver.Unavailable, optionsv1.ErrorCode_ERROR_CODE_UNAVAILABLE},
		{toolserver.Internal, optionsv1.ErrorCode_ERROR_CODE_INTERNAL},
		{toolserver.AlreadyExists, optionsv1.ErrorCode_ERROR_CODE_ALREADY_EXISTS},
		{toolserver.FailedPrecondition, optionsv1.ErrorCode_ERROR_CODE_FAILED_PRECONDITION},
	} {
		e := c.make("issue %d of %s", 7, "o/r")
		if e.Code != c.code || e.Message != "issue 7 of o/r" {
			t.Errorf("%v: got code %v message %q", c.code, e.Code, e.Message)
		}
		if e.Unwrap() != nil {
			t.Errorf("%v: a message without %%w unwraps to %v", c.code, e.Unwrap())
		}
	}
}

func TestWrappedCauseIsSeenThrough(t *testing.T) {
	e := toolserver.Unavailable("GitHub did not answer: %w", context.DeadlineExceeded)
	if e.Message != "GitHub did not answer: "+context.DeadlineExceeded.Error() {
		t.Errorf("message %q", e.Message)
	}
	if !errors.Is(e, context.DeadlineExceeded) {
		t.Error("errors.Is does not see the wrapped cause")
	}
	var pe *fs.PathError
	both := toolserver.Internal("%w and %w", context.Canceled, &fs.PathError{Op: "open", Path: "x", Err: fs.ErrNotExist})
	if !errors.Is(both, context.Canceled) || !errors.As(both, &pe) || !errors.Is(both, fs.ErrNotExist) {
		t.Error("errors.Is/As do not see each of two wrapped causes")
	}
	// %v words the cause and keeps nothing: a provider chooses what the
	// caller may match on.
	if errors.Is(toolserver.Unavailable("%v", context.Canceled), context.Canceled) {
		t.Error("a cause worded by the v verb is kept")
	}
	// The in-band error stays the outermost one errors.As finds.
	if got, ok := toolserver.AsError(e); !ok || got != e {
		t.Errorf("AsError = %v, %v", got, ok)
	}
}
