package local

import (
	"context"

	"google.golang.org/protobuf/proto"

	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/toolserver"
)

var _ toolserver.MergeReviewer = (*Forge)(nil)

// MergeFacts tells the gateway's unreviewed-merge rule whether req merges
// a pull request into the repository's default branch, and which other
// accounts' latest reviews approve it (a review is by the account that
// made it, so the caller's own never counts).
func (f *Forge) MergeFacts(ctx context.Context, c toolserver.Call, req proto.Message) (toolserver.MergeFacts, error) {
	m, ok := req.(*gatewayv1.MergePullRequestRequest)
	if !ok {
		return toolserver.MergeFacts{}, nil
	}
	pr, err := f.GetPullRequest(ctx, c, &gatewayv1.GetPullRequestRequest{Repo: m.GetRepo(), PullNumber: m.GetPullNumber()})
	if err != nil {
		return toolserver.MergeFacts{}, err
	}
	r, err := f.repository(ctx, m.GetRepo())
	if err != nil {
		return toolserver.MergeFacts{}, err
	}
	return toolserver.MergeFacts{
		Merges: true, Number: pr.GetNumber(), Base: pr.GetBaseRef(), IntoDefault: pr.GetBaseRef() == r.defaultBranch,
		HeadSHA: pr.GetHeadSha(), ApprovedBy: toolserver.OtherApprovers(pr.GetReviews(), author(c)),
	}, nil
}
