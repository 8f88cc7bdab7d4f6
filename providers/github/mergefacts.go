package github

import (
	"context"
	"fmt"

	gh "github.com/google/go-github/v84/github"
	"google.golang.org/protobuf/proto"

	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/handler"
)

var _ handler.MergeReviewer = (*Provider)(nil)

// MergeFacts tells the gateway's unreviewed-merge rule whether req merges
// a pull request into the repository's default branch, and which logins'
// latest reviews approve it. The logins of both credentials the provider
// holds (the author's and the reviewer's) are the caller's own: an agent's
// review made with its second token is not someone else's.
func (p *Provider) MergeFacts(ctx context.Context, _ handler.Call, req proto.Message) (handler.MergeFacts, error) {
	m, ok := req.(*gatewayv1.MergePullRequestRequest)
	if !ok {
		return handler.MergeFacts{}, nil
	}
	repo, n, err := parseNumbered(m.GetRepo(), m.GetPullNumber(), "pull request")
	if err != nil {
		return handler.MergeFacts{}, err
	}
	return call(ctx, p, fmt.Sprintf("read the reviews of pull request %s#%d before merging", repo, n), func(ctx context.Context) (handler.MergeFacts, error) {
		r, _, err := p.author.Repositories.Get(ctx, repo.owner, repo.name)
		if err != nil {
			return handler.MergeFacts{}, err
		}
		pr, _, err := p.author.PullRequests.Get(ctx, repo.owner, repo.name, n)
		if err != nil {
			return handler.MergeFacts{}, err
		}
		rs, err := collect(maxPerPage, func(o gh.ListOptions) ([]*gh.PullRequestReview, *gh.Response, error) {
			return p.author.PullRequests.ListReviews(ctx, repo.owner, repo.name, n, &o)
		})
		if err != nil {
			return handler.MergeFacts{}, err
		}
		var self []string
		for _, c := range []*gh.Client{p.author, p.reviewer} {
			me, _, err := c.Users.Get(ctx, "")
			if err != nil {
				return handler.MergeFacts{}, err
			}
			self = append(self, me.GetLogin())
		}
		base := pr.GetBase().GetRef()
		return handler.MergeFacts{
			Merges: true, Number: uint64(n), Base: base, IntoDefault: base == r.GetDefaultBranch(),
			HeadSHA: pr.GetHead().GetSHA(), ApprovedBy: handler.OtherApprovers(reviews(rs, nil), self...),
		}, nil
	})
}
