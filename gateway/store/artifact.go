package store

import (
	"fmt"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
)

// Kind is what sort of artifact a row is about.
type Kind string

const (
	KindIssue        Kind = "issue"
	KindPullRequest  Kind = "pull_request"
	KindIssueComment Kind = "issue_comment"
	KindPRComment    Kind = "pr_comment"
	KindReview       Kind = "review"
)

// Forge is a forge coordinate as the store keeps it.
type Forge struct {
	Provider forgev1.ForgeProvider
	Host     string
}

// Ref is the coordinate as the wire type.
func (f Forge) Ref() *forgev1.ForgeRef {
	return &forgev1.ForgeRef{Provider: f.Provider, Host: f.Host}
}

// ForgeOf copies a wire coordinate.
func ForgeOf(ref *forgev1.ForgeRef) Forge {
	return Forge{Provider: ref.GetProvider(), Host: ref.GetHost()}
}

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
type Artifact struct {
	Forge Forge
	Repo  string
	Kind  Kind
	// Number is the issue or pull request number (for comments and reviews:
	// the one they were made on).
	Number uint64
	// ID is the forge's comment or review id; empty for issues and pull
	// requests.
	ID string
}
