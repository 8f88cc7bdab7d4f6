package gitea

import (
	"cmp"
	"context"
	"fmt"
	"math"

	sdk "code.gitea.io/sdk/gitea"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/providers/kit"
	"github.com/forgetools/forgetools/toolserver"
)

// Gitea's lists page by number (page, limit, a Link header naming the
// next page): a list arm reads the one page its cursor names, at
// min(limit, 50) items (Gitea's MAX_RESPONSE_ITEMS), so a page costs one
// request and may show fewer than limit with a next_cursor naming the
// rest. A cursor (kit.Cursors.Page) binds the limit with the other
// arguments. A filter Gitea cannot apply itself (a pull request's base or
// head, completed runs) is applied to that page.

// listPage is the first page of a list at limit (0: the wire's default),
// or the page the request's cursor names.
func listPage(cur kit.Cursors, cursor string, limit uint32) (sdk.ListOptions, error) {
	page, err := cur.Page(cursor)
	if limit == 0 {
		limit = defaultListLimit
	}
	return sdk.ListOptions{Page: int(page), PageSize: min(int(limit), pageSize)}, err
}

// nextCursor is the cursor of the page after o's, which came back with
// got items: the page the Link header names (none when it names none),
// or, from a forge that sends no Link, the next page after a full one.
func nextCursor(cur kit.Cursors, o sdk.ListOptions, got int, resp *sdk.Response) string {
	if resp != nil && resp.Response != nil && resp.Header.Get("Link") != "" {
		return cur.NextKey(int64(resp.NextPage))
	}
	return cur.NextKey(int64(following(o, got)))
}

// ListComments pages an issue's or pull request's conversation comments,
// oldest first. Gitea's comments endpoint does not page (it takes since
// and before, and answers every comment; the real server showed it): each
// page is one request for the whole conversation, cut here at the offset
// the cursor holds (the page size free to change). Issues and pull
// requests share one numbering and that endpoint, so the kind asked for is
// checked: each comment says which it belongs to (pull_request_url or
// issue_url, the other empty), and only a conversation without comments
// costs a look at the number: no single request of Gitea's API tells an
// empty conversation's kind (the issue's own read has the kind and a
// count, not the comments). Kind reviews is listReviews.
func (p *Provider) ListComments(ctx context.Context, _ toolserver.Call, req *gatewayv1.ListCommentsRequest) (*forgev1.CommentList, error) {
	if req.GetKind() == gatewayv1.CommentsOf_COMMENTS_OF_REVIEWS {
		return p.listReviews(ctx, req)
	}
	kind := "issue"
	if req.GetKind() == gatewayv1.CommentsOf_COMMENTS_OF_PULL_REQUEST {
		kind = "pull request"
	}
	repo, n, err := p.target(req.GetRepo(), req.GetNumber(), kind)
	if err != nil {
		return nil, err
	}
	cur := kit.CursorsFor("forge_list_comments", req, "limit")
	off, err := cur.Key(req.GetCursor(), math.MaxInt32)
	if err != nil {
		return nil, err
	}
	limit := int64(cmp.Or(req.GetLimit(), defaultListLimit))
	return call(ctx, p, fmt.Sprintf("list comments of %s %s#%d", kind, repo, n), func(c *sdk.Client) (*forgev1.CommentList, error) {
		cs, resp, err := c.ListIssueComments(repo.owner, repo.name, n, sdk.ListIssueCommentOptions{})
		if err != nil {
			return nil, fail(resp, err)
		}
		isPull := false
		if len(cs) > 0 && (cs[0].PRURL == "") != (cs[0].IssueURL == "") {
			isPull = cs[0].PRURL != ""
		} else {
			i, resp, err := c.GetIssue(repo.owner, repo.name, n)
			if err != nil {
				return nil, fail(resp, err)
			}
			isPull = i.PullRequest != nil
		}
		if isPull != (kind == "pull request") {
			is := map[bool]string{true: "a pull request", false: "an issue"}
			return nil, toolserver.NotFound("#%d in %s is %s, not %s", n, repo, is[isPull], is[!isPull])
		}
		out := &forgev1.CommentList{Repo: repo.String(), Number: uint64(n)}
		if off >= int64(len(cs)) {
			return out, nil // the conversation shrank past the cursor: nothing after it
		}
		end := min(off+limit, int64(len(cs)))
		out.Comments = issueComments(cs[off:end])
		if end < int64(len(cs)) {
			out.NextCursor = cur.NextKey(end)
		}
		return out, nil
	})
}
