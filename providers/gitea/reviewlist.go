package gitea

import (
	"context"
	"fmt"
	"net/http"
	"strconv"

	sdk "code.gitea.io/sdk/gitea"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/providers/kit"
	"github.com/forgetools/forgetools/toolserver"
)

// listReviews pages a pull request's reviews, oldest first, one request
// a page: Gitea's reviews endpoint pages by page and limit (at most 50),
// and answers 404 for a number that is an issue, as for none, so the kind
// needs no second look. Each review is shown without its inline comments
// (forge_list_review_threads pages those). Gitea leaves out another
// user's pending review and counts it in X-Total-Count, and a review
// request is listed as a review, left out here: a page may show fewer
// than limit, so whether more follow is read from the count, not from
// how many came (the endpoint sends no Link header).
func (p *Provider) listReviews(ctx context.Context, req *gatewayv1.ListCommentsRequest) (*forgev1.CommentList, error) {
	repo, n, err := p.target(req.GetRepo(), req.GetNumber(), "pull request")
	if err != nil {
		return nil, err
	}
	cur := kit.CursorsFor("forge_list_comments", req)
	o, err := listPage(cur, req.GetCursor(), req.GetLimit())
	if err != nil {
		return nil, err
	}
	return call(ctx, p, fmt.Sprintf("list reviews of pull request %s#%d", repo, n), func(c *sdk.Client) (*forgev1.CommentList, error) {
		rs, resp, err := c.ListPullReviews(repo.owner, repo.name, n, sdk.ListPullReviewsOptions{ListOptions: o})
		if err != nil {
			if resp != nil && resp.StatusCode == http.StatusNotFound {
				return nil, toolserver.NotFound("pull request #%d not found in %s (no such number, or #%d is an issue)", n, repo, n)
			}
			return nil, fail(resp, err)
		}
		out := &forgev1.CommentList{Repo: repo.String(), Number: uint64(n)}
		if reviewsFollow(o, len(rs), resp) {
			out.NextCursor = cur.NextKey(int64(o.Page + 1))
		}
		for _, r := range rs[:min(len(rs), o.PageSize)] {
			if r == nil || r.State == sdk.ReviewStatePending || r.State == sdk.ReviewStateRequestReview {
				continue
			}
			out.Reviews = append(out.Reviews, review(r, nil))
		}
		return out, nil
	})
}

// reviewsFollow reports whether a page of reviews follows page o, which
// came back with got items: by the Link header when Gitea sends one, else
// by its X-Total-Count (the reviews endpoint sends no Link), else when the
// page was full.
func reviewsFollow(o sdk.ListOptions, got int, resp *sdk.Response) bool {
	if resp == nil || resp.Response == nil {
		return following(o, got) > 0
	}
	if resp.Header.Get("Link") != "" {
		return resp.NextPage > o.Page
	}
	if total, err := strconv.Atoi(resp.Header.Get("X-Total-Count")); err == nil {
		return o.Page*o.PageSize < total
	}
	return following(o, got) > 0
}
