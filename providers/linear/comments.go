package linear

import (
	"context"
	"slices"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/providers/kit"
	"github.com/forgetools/forgetools/toolserver"
)

// ListComments pages an issue's comments, oldest first, through Linear's
// connection cursor (comments(first, after)): one request a page, the
// cursor carrying Linear's endCursor, bound to the issue and limit. Linear
// has no pull requests.
func (p *Provider) ListComments(ctx context.Context, _ toolserver.Call, req *gatewayv1.ListCommentsRequest) (*forgev1.CommentList, error) {
	if req.GetKind() != gatewayv1.CommentsOf_COMMENTS_OF_ISSUE {
		return nil, toolserver.Unimplemented("pull_requests", "list_comments")
	}
	key, err := parseTeamKey(req.GetRepo())
	if err != nil {
		return nil, err
	}
	cur := kit.CursorsFor("forge_list_comments", req)
	after, err := cur.Position(req.GetCursor())
	if err != nil {
		return nil, err
	}
	limit := int(req.GetLimit())
	if limit == 0 {
		limit = defaultLimit
	}
	id := identifier(key, req.GetNumber())
	vars := commentsVars{ID: id, First: min(limit, maxLimit)}
	if after != "" {
		vars.After = &after
	}
	var a commentsAnswer
	if err := p.do(ctx, "list comments of "+id, queryComments, vars, &a); err != nil {
		return nil, err
	}
	if a.Issue == nil {
		return nil, toolserver.NotFound("linear list comments of %s: not found", id)
	}
	if err := inTeam(a.Issue.Team.Key, key, id); err != nil {
		return nil, err
	}
	next, err := cur.Next(a.Issue.Comments.PageInfo.next())
	if err != nil {
		return nil, err
	}
	nodes := a.Issue.Comments.Nodes
	return &forgev1.CommentList{Repo: key, Number: req.GetNumber(), Comments: toComments(nodes[:min(len(nodes), vars.First)]), NextCursor: next}, nil
}

// toComments is a page of comments, oldest first.
func toComments(nodes []commentNode) []*forgev1.Comment {
	nodes = slices.Clone(nodes)
	slices.SortStableFunc(nodes, func(a, b commentNode) int { return createdAt(a.CreatedAt).Compare(createdAt(b.CreatedAt)) })
	var out []*forgev1.Comment
	for _, c := range nodes {
		out = append(out, &forgev1.Comment{Author: userName(c.User), Url: c.URL, Body: c.Body})
	}
	return out
}
