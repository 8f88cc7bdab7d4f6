package github

import (
	"context"
	"fmt"

	gh "github.com/google/go-github/v84/github"
	"google.golang.org/protobuf/proto"

	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/toolserver"
)

var _ toolserver.MergeReviewer = (*Provider)(nil)

// MergeFacts tells the gateway's unreviewed-merge rule whether req merges
// a pull request into the repository's default branch, and which logins'
// latest reviews approve it. The logins of both credentials the provider
// holds (the author's and the reviewer's) are the caller's own: an agent's
// review made with its second token is not someone else's.
func (p *Provider) MergeFacts(ctx context.Context, _ toolserver.Call, req proto.Message) (toolserver.MergeFacts, error) {
	m, ok := req.(*gatewayv1.MergePullRequestRequest)
	if !ok {
		return toolserver.MergeFacts{}, nil
	}
	repo, n, err := parseNumbered(m.GetRepo(), m.GetPullNumber(), "pull request")
	if err != nil {
		return toolserver.MergeFacts{}, err
	}
	return call(ctx, p, fmt.Sprintf("read the reviews of pull request %s#%d before merging", repo, n), func(ctx context.Context) (toolserver.MergeFacts, error) {
		r, _, err := p.author.Repositories.Get(ctx, repo.owner, repo.name)
		if err != nil {
			return toolserver.MergeFacts{}, err
		}
		pr, _, err := p.author.PullRequests.Get(ctx, repo.owner, repo.name, n)
		if err != nil {
			return toolserver.MergeFacts{}, err
		}
		rs, err := collect(maxPerPage, func(o gh.ListOptions) ([]*gh.PullRequestReview, *gh.Response, error) {
			return p.author.PullRequests.ListReviews(ctx, repo.owner, repo.name, n, &o)
		})
		if err != nil {
			return toolserver.MergeFacts{}, err
		}
		var self []string
		for _, c := range []*gh.Client{p.author, p.reviewer} {
			me, _, err := c.Users.Get(ctx, "")
			if err != nil {
				return toolserver.MergeFacts{}, err
			}
			self = append(self, me.GetLogin())
		}
		base := pr.GetBase().GetRef()
		return toolserver.MergeFacts{
			Merges: true, Number: uint64(n), Base: base, IntoDefault: base == r.GetDefaultBranch(),
			HeadSHA: pr.GetHead().GetSHA(), ApprovedBy: toolserver.OtherApprovers(reviews(rs, nil), self...),
		}, nil
	})
}
