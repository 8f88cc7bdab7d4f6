package gitlab

import (
	"context"
	"fmt"

	gl "gitlab.com/gitlab-org/api/client-go"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/providers/kit"
	"github.com/forgetools/forgetools/toolserver"
)

// GitLab's lists page by number (page, per_page, X-Next-Page): a list
// arm reads the one page its cursor names, at per_page = limit, so a page
// costs one request and a cursor (kit.Cursors.Page) binds the limit with
// the other arguments. A filter GitLab cannot apply itself (closed merge
// requests, queued or completed pipelines, system notes) is applied to
// that page, which may then show fewer than limit items, or none, with a
// next_cursor still naming the rest.

// listLimit is a request's limit, or the wire's default.
func listLimit(limit uint32) int64 {
	if limit == 0 {
		return defaultListLimit
	}
	return int64(limit)
}

// ListComments pages an issue's or merge request's conversation: its
// notes oldest first, without GitLab's system notes ("changed the
// description") and the diff notes, which are review comments.
//
// Kind reviews is unimplemented: GitLab keeps no reviews. What
// forge_get_pull_request shows as a merge request's reviews is made up of
// its approvals (GitLab's approval state lists every approver in one
// answer, which that read shows whole) and one review per author of diff
// notes, grouped across all the notes, so no page of GitLab's can be one
// page of those; the diff notes themselves page as threads.
func (p *Provider) ListComments(ctx context.Context, _ toolserver.Call, req *gatewayv1.ListCommentsRequest) (*forgev1.CommentList, error) {
	if req.GetKind() == gatewayv1.CommentsOf_COMMENTS_OF_REVIEWS {
		return nil, toolserver.NotImplemented("GitLab keeps no reviews to page: forge_get_pull_request shows a merge request's approvals whole, and its diff notes page as threads with forge_list_review_threads")
	}
	kind := "issue"
	if req.GetKind() == gatewayv1.CommentsOf_COMMENTS_OF_PULL_REQUEST {
		kind = "merge request"
	}
	repo, n, err := target(req.GetRepo(), req.GetNumber(), kind)
	if err != nil {
		return nil, err
	}
	cur := kit.CursorsFor("forge_list_comments", req)
	page, err := cur.Page(req.GetCursor())
	if err != nil {
		return nil, err
	}
	o := gl.ListOptions{PerPage: listLimit(req.GetLimit()), Page: page}
	return call(ctx, p, fmt.Sprintf("list comments of %s %s#%d", kind, repo, n), func(ro gl.RequestOptionFunc) (*forgev1.CommentList, error) {
		var notes []*gl.Note
		var resp *gl.Response
		if req.GetKind() == gatewayv1.CommentsOf_COMMENTS_OF_PULL_REQUEST {
			notes, resp, err = p.author.Notes.ListMergeRequestNotes(repo.String(), n,
				&gl.ListMergeRequestNotesOptions{ListOptions: o, OrderBy: ptr("created_at"), Sort: ptr("asc")}, ro)
		} else {
			notes, resp, err = p.author.Notes.ListIssueNotes(repo.String(), n,
				&gl.ListIssueNotesOptions{ListOptions: o, OrderBy: ptr("created_at"), Sort: ptr("asc")}, ro)
		}
		if err != nil {
			return nil, fail(resp, err)
		}
		return &forgev1.CommentList{Repo: repo.String(), Number: uint64(n), Comments: comments(notes[:min(len(notes), int(o.PerPage))]),
			NextCursor: cur.NextKey(int64(nextPage(resp)))}, nil
	})
}
