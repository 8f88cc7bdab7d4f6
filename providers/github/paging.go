package github

import (
	"context"
	"fmt"
	"strings"

	gh "github.com/google/go-github/v84/github"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/providers/kit"
	"github.com/forgetools/forgetools/toolserver"
)

// GitHub's lists page by number (page, per_page, a Link header naming the
// next page): a list arm reads the one page its cursor names, at per_page
// = limit, so a page costs one request, and its next_cursor is the page
// the Link header names. A cursor (kit.Cursors.Page) binds the limit with
// the other arguments: a page number means nothing at another page size.
// A page the provider filters (the issues endpoint also lists pull
// requests) may show fewer than limit items, or none, with a next_cursor
// still naming the rest.

// listPage is the page of a list the request's cursor names (the first
// when none), at the request's limit.
func listPage(cur kit.Cursors, cursor string, limit *uint32) (gh.ListOptions, error) {
	page, err := cur.Page(cursor)
	if page == 1 {
		page = 0 // GitHub's first page, sent without a page parameter
	}
	return gh.ListOptions{Page: int(page), PerPage: listLimit(limit)}, err
}

// nextCursor is the cursor of the page GitHub's Link header names after
// the one just read; "" on the last page.
func nextCursor(cur kit.Cursors, o gh.ListOptions, resp *gh.Response) string {
	if next := nextPage(resp); next > max(o.Page, 1) {
		return cur.NextKey(int64(next))
	}
	return ""
}

// ListComments pages an issue's or pull request's conversation, oldest
// first: GitHub keeps a pull request's conversation comments as issue
// comments, on the issues endpoint for either (a review's inline
// comments are not among them). Issues and pull requests share one
// numbering, so the kind asked for is checked: a comment's html_url is
// below /pull/ or /issues/, and only a page without comments costs a look
// at the number itself.
func (p *Provider) ListComments(ctx context.Context, _ toolserver.Call, req *gatewayv1.ListCommentsRequest) (*forgev1.CommentList, error) {
	kind := "issue"
	if req.GetKind() == gatewayv1.CommentsOf_COMMENTS_OF_PULL_REQUEST {
		kind = "pull request"
	}
	repo, n, err := parseNumbered(req.GetRepo(), req.GetNumber(), kind)
	if err != nil {
		return nil, err
	}
	cur := kit.CursorsFor("forge_list_comments", req)
	o, err := listPage(cur, req.GetCursor(), req.Limit)
	if err != nil {
		return nil, err
	}
	return call(ctx, p, fmt.Sprintf("list comments of %s %s#%d", kind, repo, n), func(ctx context.Context) (*forgev1.CommentList, error) {
		cs, resp, err := p.author.Issues.ListComments(ctx, repo.owner, repo.name, n, &gh.IssueListCommentsOptions{ListOptions: o})
		if err != nil {
			return nil, err
		}
		isPull, known := false, false
		if len(cs) > 0 {
			isPull, known = commentOfPull(repo, n, cs[0].GetHTMLURL())
		}
		if !known {
			i, _, err := p.author.Issues.Get(ctx, repo.owner, repo.name, n)
			if err != nil {
				return nil, err
			}
			isPull = i.IsPullRequest()
		}
		if isPull != (kind == "pull request") {
			is := map[bool]string{true: "a pull request", false: "an issue"}
			return nil, toolserver.NotFound("#%d in %s is %s, not %s", n, repo, is[isPull], is[!isPull])
		}
		return &forgev1.CommentList{Repo: repo.String(), Number: uint64(n),
			Comments: issueComments(cs[:min(len(cs), o.PerPage)]), NextCursor: nextCursor(cur, o, resp)}, nil
	})
}

// commentOfPull reads from a conversation comment's html_url
// (".../owner/name/pull/N#issuecomment-ID" or ".../issues/N#...") whether
// #n of repo is a pull request; known is false when the address says
// neither.
func commentOfPull(repo repoName, n int, htmlURL string) (isPull, known bool) {
	page, _, _ := strings.Cut(htmlURL, "#")
	for _, kind := range []string{"pull", "issues"} {
		if strings.HasSuffix(strings.ToLower(page), strings.ToLower(fmt.Sprintf("/%s/%s/%d", repo, kind, n))) {
			return kind == "pull", true
		}
	}
	return false, false
}
