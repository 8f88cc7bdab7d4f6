// Package providertest is what the REST providers' tests share: checking
// an in-band error's code and wording, and paging a directory. Only tests
// import it.
package providertest

import (
	"strings"
	"testing"

	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/toolserver"
)

// WantCode fails t unless err is a *toolserver.Error with code whose message
// says every one of parts, and returns it.
func WantCode(t testing.TB, err error, code gatewayv1.ErrorCode, parts ...string) *toolserver.Error {
	t.Helper()
	e, ok := toolserver.AsError(err)
	if !ok {
		t.Fatalf("err = %v, want a handler error with %s", err, code)
	}
	if gatewayv1.ErrorCode(e.Code) != code { // the two enums share numbers (gateway TestErrorCodesMatch)
		t.Fatalf("code = %s (%s), want %s", e.Code, e.Message, code)
	}
	for _, p := range parts {
		if !strings.Contains(e.Message, p) {
			t.Errorf("message %q does not say %q", e.Message, p)
		}
	}
	return e
}
