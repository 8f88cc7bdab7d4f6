package store

import (
	"fmt"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	"github.com/forgetools/forgetools/toolserver/notify"
)

// Kind is what sort of artifact a row is about (the kinds of the forge
// table are handler/notify's; the store adds KindApproval).
type Kind = notify.Kind

const (
	KindIssue        = notify.KindIssue
	KindPullRequest  = notify.KindPullRequest
	KindIssueComment = notify.KindIssueComment
	KindPRComment    = notify.KindPRComment
	KindReview       = notify.KindReview
)

// Forge is a forge coordinate as the store keeps it.
type Forge = notify.Forge

// ForgeOf copies a wire coordinate.
func ForgeOf(ref *forgev1.ForgeRef) Forge { return notify.ForgeOf(ref) }

// providerColumn is how a provider is stored: its stable enum value name,
// readable in SQL and independent of the enum's numbering.
func providerColumn(p forgev1.ForgeProvider) string { return p.String() }

func parseProvider(s string) (forgev1.ForgeProvider, error) {
	v, ok := forgev1.ForgeProvider_value[s]
	if !ok {
		return 0, fmt.Errorf("unknown forge provider %q in a stored row", s)
	}
	return forgev1.ForgeProvider(v), nil
}

// Artifact identifies something on a forge.
type Artifact = notify.Artifact
