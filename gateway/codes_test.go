package gateway

import (
	"testing"

	"github.com/forgetools/forgetools/enumname"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	optionsv1 "github.com/forgetools/forgetools/gen/forgetools/options/v1"
)

// The forge table's error codes map onto the contract's (optionsv1) number
// for number and name for name: the gateway converts a provider's code by
// number (mapError, callError), the generated forge table's Error by model
// name, and both must land on the same code.
func TestErrorCodesMatch(t *testing.T) {
	forge := gatewayv1.ErrorCode(0).Descriptor().Values()
	contract := optionsv1.ErrorCode(0).Descriptor().Values()
	if forge.Len() != contract.Len() {
		t.Fatalf("gatewayv1.ErrorCode has %d values, optionsv1.ErrorCode %d", forge.Len(), contract.Len())
	}
	for i := range forge.Len() {
		f := gatewayv1.ErrorCode(forge.Get(i).Number())
		c := optionsv1.ErrorCode(f.Number())
		if c.Descriptor().Values().ByNumber(f.Number()) == nil {
			t.Errorf("%s (%d) has no contract code", f, f.Number())
			continue
		}
		if f.String() != c.String() || enumname.Of(f) != enumname.Of(c) || enumname.Of(f) == "" {
			t.Errorf("%d: forge %s (%q), contract %s (%q)", f.Number(), f, enumname.Of(f), c, enumname.Of(c))
		}
		got := callError(&gatewayv1.ForgeCallError{Code: f, Message: "m", RetryAfterMs: 7})
		if got.GetCode() != c || got.GetMessage() != "m" || got.GetRetryAfterMs() != 7 {
			t.Errorf("callError(%s) = %v", f, got)
		}
	}
}
