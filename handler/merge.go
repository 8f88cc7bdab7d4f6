package handler

import (
	"context"

	"google.golang.org/protobuf/proto"
)

// MergeReviewer is implemented by a provider that can tell the gateway,
// before a push-level call runs, whether it merges a pull request into the
// repository's default branch and who other than the caller approved it.
// The gateway's unreviewed-merge rule asks it; a provider without it is
// held by the push rule alone.
type MergeReviewer interface {
	// MergeFacts describes req (any push-level request; Merges is false
	// for one that merges nothing) as seen by c's identity on the forge.
	MergeFacts(ctx context.Context, c Call, req proto.Message) (MergeFacts, error)
}

// MergeFacts is what the unreviewed-merge rule needs about a merge.
type MergeFacts struct {
	// Merges: the request merges a pull request.
	Merges bool
	// Number and Base are the pull request and the branch it merges into.
	Number uint64
	Base   string
	// IntoDefault: Base is the repository's default branch.
	IntoDefault bool
	// HeadSHA is the head the reviews were read at.
	HeadSHA string
	// ApprovedBy lists the identities other than the caller's whose
	// latest review approves the pull request.
	ApprovedBy []string
}
