package github

import (
	"context"
	"fmt"

	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/toolserver"
)

// Watch confirms that the issue or pull request exists and is of the kind
// named, so the gateway can store a subscription to it; the poll driver
// (or the repository's webhooks) then deliver its changes. One request:
// the issues endpoint serves pull requests too.
func (p *Provider) Watch(ctx context.Context, _ toolserver.Call, req *gatewayv1.SubscribeRequest) error {
	repo, err := parseRepo(req.GetRepo())
	if err != nil {
		return err
	}
	pull := req.GetKind() == gatewayv1.SubscriptionKind_SUBSCRIPTION_KIND_PULL_REQUEST
	what := "issue"
	if pull {
		what = "pull request"
	}
	n, err := number(req.GetNumber(), what)
	if err != nil {
		return err
	}
	_, err = call(ctx, p, fmt.Sprintf("watch %s#%d", repo, n), func(ctx context.Context) (struct{}, error) {
		i, _, err := p.author.Issues.Get(ctx, repo.owner, repo.name, n)
		switch {
		case err != nil:
			return struct{}{}, err
		case pull && !i.IsPullRequest():
			return struct{}{}, toolserver.NotFound("#%d in %s is an issue, not a pull request: subscribe with kind issue", n, repo)
		case !pull && i.IsPullRequest():
			return struct{}{}, toolserver.NotFound("#%d in %s is a pull request, not an issue: subscribe with kind pull_request", n, repo)
		}
		return struct{}{}, nil
	})
	return err
}
