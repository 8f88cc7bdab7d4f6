package gateway

import (
	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	"github.com/forgetools/forgetools/toolserver"
)

// Provider is a configured forge instance: it serves the arms whose
// generated handler interfaces it implements (the contract, package
// handler, says nothing of forges) and tells the gateway which forge it
// is, the coordinate calls are routed to it by.
type Provider interface {
	// Ref is the coordinate this provider serves.
	Ref() *forgev1.ForgeRef
}

// selectorOf is the forge a request envelope names; nil when it names none
// (or a table's selector is not a forge coordinate).
func selectorOf(env toolserver.Envelope) *forgev1.ForgeRef {
	ref, _ := env.Selector.(*forgev1.ForgeRef)
	return ref
}
