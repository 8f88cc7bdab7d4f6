package toolserver

import (
	"context"
	"slices"
	"strings"

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

// OtherApprovers lists, in the order they first reviewed, the authors of
// reviews (oldest first) whose latest verdict is "approve", leaving out
// every identity in self (the caller's own, on each credential the
// provider holds: a second credential of the same account is not someone
// else). A "comment" review changes no one's verdict.
//
// A review is anything with an author and a verdict in the tool
// vocabulary (a *forgev1.Review).
func OtherApprovers[R Review](reviews []R, self ...string) []string {
	verdict := map[string]string{}
	var order []string
	for _, r := range reviews {
		who := strings.ToLower(r.GetAuthor())
		if who == "" || r.GetVerdict() == "comment" {
			continue
		}
		if _, seen := verdict[who]; !seen {
			order = append(order, r.GetAuthor())
		}
		verdict[who] = r.GetVerdict()
	}
	var out []string
	for _, a := range order {
		if verdict[strings.ToLower(a)] == "approve" && !slices.ContainsFunc(self, func(s string) bool { return strings.EqualFold(s, a) }) {
			out = append(out, a)
		}
	}
	return out
}

// Review is what OtherApprovers reads of a review.
type Review interface {
	GetAuthor() string
	GetVerdict() string
}
