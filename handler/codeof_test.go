package handler_test

import (
	"testing"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	optionsv1 "github.com/forgetools/forgetools/gen/forgetools/options/v1"
	"github.com/forgetools/forgetools/handler"
)

// A code means its model name, whichever enum spells it: the forge
// table's codes land on the contract's, and an enum value that names no
// code (a forge provider, numbered 1 like invalid_argument) is no code.
func TestCodeOf(t *testing.T) {
	for _, tc := range []struct {
		code handler.Code
		want optionsv1.ErrorCode
	}{
		{nil, optionsv1.ErrorCode_ERROR_CODE_UNSPECIFIED},
		{optionsv1.ErrorCode_ERROR_CODE_NOT_FOUND, optionsv1.ErrorCode_ERROR_CODE_NOT_FOUND},
		{gatewayv1.ErrorCode_ERROR_CODE_NOT_FOUND, optionsv1.ErrorCode_ERROR_CODE_NOT_FOUND},
		{gatewayv1.ErrorCode_ERROR_CODE_PENDING_APPROVAL, optionsv1.ErrorCode_ERROR_CODE_PENDING_APPROVAL},
		{forgev1.ForgeProvider_FORGE_PROVIDER_GITHUB, optionsv1.ErrorCode_ERROR_CODE_UNSPECIFIED},
	} {
		if got := handler.CodeOf(tc.code); got != tc.want {
			t.Errorf("CodeOf(%v) = %s, want %s", tc.code, got, tc.want)
		}
	}
	e := handler.Errorf(gatewayv1.ErrorCode_ERROR_CODE_ALREADY_EXISTS, "issue %d exists", 7)
	if handler.CodeOf(e.Code) != optionsv1.ErrorCode_ERROR_CODE_ALREADY_EXISTS || e.Error() != "issue 7 exists" {
		t.Errorf("Errorf = %+v", e)
	}
}
