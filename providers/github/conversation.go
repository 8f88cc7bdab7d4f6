package github

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/providers/kit"
	"github.com/forgetools/forgetools/toolserver"
)

// ListComments pages an issue's or pull request's conversation, or a pull
// request's reviews, oldest first, in one GraphQL query a page whatever
// the conversation holds: Repository.issueOrPullRequest answers the kind
// of the number beside the page, so the kind asked for is checked without
// a second request even when the page is empty (the REST issue comments
// endpoint serves either kind and an empty answer does not say which).
// The cost: a POST is never conditional, so a repeated read is a full
// answer where REST's would have been a 304 (docs/requests.md).
//
// A page's position is GitHub's own cursor (endCursor), so the page size
// is free to change between pages. A review is shown without its inline
// comments (forge_list_review_threads pages those); a pending review is a
// draft only its author sees, left out of the page it falls on.
func (p *Provider) ListComments(ctx context.Context, _ toolserver.Call, req *gatewayv1.ListCommentsRequest) (*forgev1.CommentList, error) {
	kind, query := "issue", commentsQuery
	switch req.GetKind() {
	case gatewayv1.CommentsOf_COMMENTS_OF_PULL_REQUEST:
		kind = "pull request"
	case gatewayv1.CommentsOf_COMMENTS_OF_REVIEWS:
		kind, query = "pull request", reviewsQuery
	}
	repo, n, err := parseNumbered(req.GetRepo(), req.GetNumber(), kind)
	if err != nil {
		return nil, err
	}
	cur := kit.CursorsFor("forge_list_comments", req, "limit")
	pos, err := cur.Position(req.GetCursor())
	if err != nil {
		return nil, err
	}
	vars := map[string]any{"owner": repo.owner, "name": repo.name, "number": n, "first": listLimit(req.Limit)}
	if pos != "" {
		if vars["after"], err = fromPosition(pos); err != nil {
			return nil, toolserver.InvalidArgument("cursor %q is not a next_cursor forge_list_comments gave; omit it for the first page", req.GetCursor())
		}
	}
	what := fmt.Sprintf("list comments of %s %s#%d", kind, repo, n)
	if query == reviewsQuery {
		what = fmt.Sprintf("list reviews of pull request %s#%d", repo, n)
	}
	return call(ctx, p, what, func(ctx context.Context) (*forgev1.CommentList, error) {
		var data conversationData
		errs, resp, err := p.graphQL(ctx, p.author, what, query, vars, &data)
		if err != nil {
			return nil, err
		}
		if err := p.gqlFailure(what, errs, resp); err != nil {
			return nil, err
		}
		if data.Repository == nil || data.Repository.IssueOrPullRequest == nil {
			return nil, toolserver.NotFound("%s: GitHub's GraphQL API has no such %s (it does not exist, or the credential cannot see it)", what, kind)
		}
		it := data.Repository.IssueOrPullRequest
		if isPull := it.Typename == "PullRequest"; isPull != (kind == "pull request") {
			is := map[bool]string{true: "a pull request", false: "an issue"}
			return nil, toolserver.NotFound("#%d in %s is %s, not %s", n, repo, is[isPull], is[!isPull])
		}
		out := &forgev1.CommentList{Repo: repo.String(), Number: uint64(n)}
		page := it.Comments.gqlPage
		if query == reviewsQuery {
			page = it.Reviews.gqlPage
			for _, r := range it.Reviews.Nodes {
				if r != nil && r.State != "PENDING" {
					out.Reviews = append(out.Reviews, &forgev1.Review{Author: r.Author.login(), Verdict: verdict(r.State), Url: r.URL, Body: r.Body})
				}
			}
		} else {
			for _, c := range it.Comments.Nodes {
				if c != nil {
					out.Comments = append(out.Comments, &forgev1.Comment{Author: c.Author.login(), Url: c.URL, Body: c.Body})
				}
			}
		}
		if page.PageInfo.HasNextPage {
			next, ok := toPosition(page.PageInfo.EndCursor)
			if !ok {
				return nil, toolserver.Unavailable("%s: GitHub named its next page %q, which is not the base64 cursor its API documents", what, page.PageInfo.EndCursor)
			}
			if out.NextCursor, err = cur.Next(next); err != nil {
				return nil, err
			}
		}
		return out, nil
	})
}

// commentsQuery reads one page of the conversation of an issue or pull
// request (issues and pull requests share one numbering) with its kind.
const commentsQuery = `query ListComments($owner: String!, $name: String!, $number: Int!, $first: Int!, $after: String) {
  repository(owner: $owner, name: $name) {
    issueOrPullRequest(number: $number) {
      __typename
      ... on Issue { comments(first: $first, after: $after) { ...CommentPage } }
      ... on PullRequest { comments(first: $first, after: $after) { ...CommentPage } }
    }
  }
}
fragment CommentPage on IssueCommentConnection {
  pageInfo { hasNextPage endCursor }
  nodes { url body author { login } }
}`

// reviewsQuery reads one page of a pull request's reviews with the kind
// of the number; an issue's number answers its __typename alone.
const reviewsQuery = `query ListReviews($owner: String!, $name: String!, $number: Int!, $first: Int!, $after: String) {
  repository(owner: $owner, name: $name) {
    issueOrPullRequest(number: $number) {
      __typename
      ... on PullRequest {
        reviews(first: $first, after: $after) {
          pageInfo { hasNextPage endCursor }
          nodes { state body url author { login } }
        }
      }
    }
  }
}`

// conversationData is either query's answer; every object GitHub may
// answer null is a pointer.
type conversationData struct {
	Repository *struct {
		IssueOrPullRequest *struct {
			Typename string `json:"__typename"`
			Comments struct {
				gqlPage
				Nodes []*struct {
					URL, Body string
					Author    *gqlActor
				}
			}
			Reviews struct {
				gqlPage
				Nodes []*struct {
					State, Body, URL string
					Author           *gqlActor
				}
			}
		}
	}
}

// gqlPage is a GraphQL connection's pageInfo.
type gqlPage struct {
	PageInfo struct {
		HasNextPage bool
		EndCursor   string
	}
}

// GitHub's connection cursors are standard base64, whose + and / a
// next_cursor does not take: a position holds them as - and _ (which
// standard base64 never uses, so the mapping reads back exactly).
var stdBase64 = regexp.MustCompile(`^[A-Za-z0-9+/]+=*$`)

// toPosition is GitHub's cursor c as a next_cursor position; false when c
// is not standard base64.
func toPosition(c string) (string, bool) {
	if !stdBase64.MatchString(c) {
		return "", false
	}
	return strings.NewReplacer("+", "-", "/", "_").Replace(c), true
}

// fromPosition is the GitHub cursor a position holds, refused unless
// toPosition could have written it.
func fromPosition(pos string) (string, error) {
	c := strings.NewReplacer("-", "+", "_", "/").Replace(pos)
	if !stdBase64.MatchString(c) {
		return "", fmt.Errorf("not a GitHub cursor")
	}
	return c, nil
}
