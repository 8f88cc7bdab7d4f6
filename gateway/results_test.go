package gateway

import (
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/forgetools/forgetools/gateway/attribution"
	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
)

// finish gives every level the forge that answered and takes claims from
// owner headers only: a header becomes the attribution and leaves the text;
// text without one is left exactly as it was, and an attribution the
// provider filled in itself is dropped.
func TestFinishClaimsOnlyFromHeaders(t *testing.T) {
	ref := &forgev1.ForgeRef{Provider: forgev1.ForgeProvider_FORGE_PROVIDER_LOCAL, Host: "local"}
	owner := &forgev1.Attribution{AgentHandle: "agent-1", OwnerHandle: "alice", SessionId: "s-1"}
	stamped, err := attribution.Stamp(owner, "Please fix.")
	if err != nil {
		t.Fatal(err)
	}
	forged := &forgev1.Attribution{AgentHandle: "someone", OwnerHandle: "else", SessionId: "x"}
	iss := &forgev1.Issue{Body: "  plain\n\ntext ", Attribution: forged, Comments: []*forgev1.Comment{
		{Body: stamped},
		{Body: "no header", Attribution: forged},
	}}
	finish(iss.ProtoReflect(), ref)
	if !proto.Equal(iss.GetForge(), ref) || iss.GetForge() == ref {
		t.Errorf("forge = %v (the same pointer: %v), want a copy of %v", iss.GetForge(), iss.GetForge() == ref, ref)
	}
	if iss.GetBody() != "  plain\n\ntext " || iss.Attribution != nil {
		t.Errorf("issue without header: body %q attribution %v", iss.GetBody(), iss.GetAttribution())
	}
	if c := iss.GetComments()[0]; c.GetBody() != "Please fix." || !proto.Equal(c.GetAttribution(), owner) {
		t.Errorf("stamped comment: body %q attribution %v, want %q %v", c.GetBody(), c.GetAttribution(), "Please fix.", owner)
	}
	if c := iss.GetComments()[1]; c.GetBody() != "no header" || c.Attribution != nil {
		t.Errorf("comment without header: body %q attribution %v", c.GetBody(), c.GetAttribution())
	}
}
