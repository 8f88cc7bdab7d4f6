package gitlab

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	gl "gitlab.com/gitlab-org/api/client-go"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/internal/shown"
	"github.com/forgetools/forgetools/providers/kit"
	"github.com/forgetools/forgetools/toolserver"
)

// GetIssue reads an issue (by iid) and the comments the renderer shows:
// the user notes, not GitLab's system notes ("changed the description"),
// from one page, with the issue's count of user notes.
func (p *Provider) GetIssue(ctx context.Context, _ toolserver.Call, req *gatewayv1.GetIssueRequest) (*forgev1.Issue, error) {
	repo, n, err := target(req.GetRepo(), req.GetIssueNumber(), "issue")
	if err != nil {
		return nil, err
	}
	return call(ctx, p, fmt.Sprintf("get issue %s#%d", repo, n), func(ro gl.RequestOptionFunc) (*forgev1.Issue, error) {
		i, resp, err := p.author.Issues.GetIssue(repo.String(), n, ro)
		if err != nil {
			return nil, fail(resp, err)
		}
		notes, _, err := firstNotes(func(o gl.ListOptions) ([]*gl.Note, *gl.Response, error) {
			return p.author.Notes.ListIssueNotes(repo.String(), n,
				&gl.ListIssueNotesOptions{ListOptions: o, OrderBy: ptr("created_at"), Sort: ptr("asc")}, ro)
		})
		if err != nil {
			return nil, err
		}
		out := p.issue(repo, i, notes)
		seen := len(out.Comments)
		out.Comments = out.Comments[:min(seen, shown.IssueComments)]
		out.CommentsTotal = shown.Total(len(out.Comments), seen, int(i.UserNotesCount))
		return out, nil
	})
}

// ListIssues lists issues newest first, the page the cursor names. GitLab
// keeps merge requests apart, so every item is an issue.
func (p *Provider) ListIssues(ctx context.Context, _ toolserver.Call, req *gatewayv1.ListIssuesRequest) (*forgev1.IssueList, error) {
	repo, err := parseRepo(req.GetRepo())
	if err != nil {
		return nil, err
	}
	for _, l := range req.GetLabels() {
		if strings.Contains(l, ",") {
			return nil, toolserver.InvalidArgument("label %q contains a comma, which GitLab's label filter cannot express", l)
		}
	}
	cur := kit.CursorsFor("forge_list_issues", req)
	page, err := cur.Page(req.GetCursor())
	if err != nil {
		return nil, err
	}
	opt := &gl.ListProjectIssuesOptions{
		ListOptions: gl.ListOptions{PerPage: listLimit(req.GetLimit()), Page: page},
		State:       ptr(issueState(req.GetState())),
		OrderBy:     ptr("created_at"),
		Sort:        ptr("desc"),
	}
	if len(req.GetLabels()) > 0 {
		opt.Labels = ptr(gl.LabelOptions(req.GetLabels()))
	}
	if a := req.GetAssignee(); a != "" {
		opt.AssigneeUsername = ptr(a)
	}
	if s := req.GetSince(); s != nil {
		t := s.AsTime()
		opt.UpdatedAfter = &t
	}
	return call(ctx, p, "list issues in "+repo.String(), func(ro gl.RequestOptionFunc) (*forgev1.IssueList, error) {
		is, resp, err := p.author.Issues.ListProjectIssues(repo.String(), opt, ro)
		if err != nil {
			return nil, fail(resp, err)
		}
		list := &forgev1.IssueList{NextCursor: cur.NextKey(int64(nextPage(resp)))}
		for _, i := range is[:min(len(is), int(opt.PerPage))] {
			list.Issues = append(list.Issues, p.issue(repo, i, nil))
		}
		return list, nil
	})
}

func issueState(s gatewayv1.IssueStateFilter) string {
	switch s {
	case gatewayv1.IssueStateFilter_ISSUE_STATE_FILTER_CLOSED:
		return "closed"
	case gatewayv1.IssueStateFilter_ISSUE_STATE_FILTER_ALL:
		return "all"
	default:
		return "opened"
	}
}

// CreateIssue opens an issue. GitLab takes label names as they are (and
// creates a project label that does not exist yet, as GitHub does),
// assignees by user id (each login looked up) and the milestone by its
// global id (looked up by the project milestone's iid, the number its web
// pages show).
func (p *Provider) CreateIssue(ctx context.Context, _ toolserver.Call, req *gatewayv1.CreateIssueRequest) (*forgev1.Issue, error) {
	repo, err := parseRepo(req.GetRepo())
	if err != nil {
		return nil, err
	}
	in := &gl.CreateIssueOptions{Title: ptr(req.GetTitle())}
	if req.GetBody() != "" {
		in.Description = ptr(req.GetBody())
	}
	if len(req.GetLabels()) > 0 {
		in.Labels = ptr(gl.LabelOptions(req.GetLabels()))
	}
	return call(ctx, p, "create issue in "+repo.String(), func(ro gl.RequestOptionFunc) (*forgev1.Issue, error) {
		if len(req.GetAssignees()) > 0 {
			ids, err := p.userIDs(req.GetAssignees(), ro)
			if err != nil {
				return nil, err
			}
			in.AssigneeIDs = &ids
		}
		if req.Milestone != nil {
			id, err := p.milestoneID(repo, int64(req.GetMilestone()), ro)
			if err != nil {
				return nil, err
			}
			in.MilestoneID = &id
		}
		i, resp, err := p.author.Issues.CreateIssue(repo.String(), in, ro)
		if err != nil {
			return nil, fail(resp, err)
		}
		return p.issue(repo, i, nil), nil
	})
}

// userIDs looks up each login's user id; one that does not exist is
// refused, never dropped.
func (p *Provider) userIDs(logins []string, ro gl.RequestOptionFunc) ([]int64, error) {
	ids := make([]int64, 0, len(logins))
	for _, l := range logins {
		us, resp, err := p.author.Users.ListUsers(&gl.ListUsersOptions{Username: ptr(l)}, ro)
		if err != nil {
			return nil, fail(resp, err)
		}
		if len(us) == 0 {
			return nil, toolserver.InvalidArgument("GitLab has no user %q to assign; nothing was written", l)
		}
		ids = append(ids, us[0].ID)
	}
	return ids, nil
}

// milestoneID is the global id of the project milestone with iid n.
func (p *Provider) milestoneID(repo project, n int64, ro gl.RequestOptionFunc) (int64, error) {
	ms, resp, err := p.author.Milestones.ListMilestones(repo.String(), &gl.ListMilestonesOptions{IIDs: &[]int64{n}}, ro)
	if err != nil {
		return 0, fail(resp, err)
	}
	if len(ms) == 0 {
		return 0, toolserver.InvalidArgument("%s has no milestone %d (the number in the milestone's URL); nothing was written", repo, n)
	}
	return ms[0].ID, nil
}

// UpdateIssue edits an issue in one PUT: state_event close or reopen,
// title, description, labels (replaced) and assignees. GitLab records no
// reason for closing, so a state_reason is refused rather than dropped.
func (p *Provider) UpdateIssue(ctx context.Context, _ toolserver.Call, req *gatewayv1.UpdateIssueRequest) (*forgev1.Issue, error) {
	repo, n, err := target(req.GetRepo(), req.GetIssueNumber(), "issue")
	if err != nil {
		return nil, err
	}
	if req.GetStateReason() != gatewayv1.StateReason_STATE_REASON_UNSPECIFIED {
		return nil, toolserver.InvalidArgument("GitLab records no reason for closing or reopening an issue; leave state_reason out")
	}
	in := &gl.UpdateIssueOptions{Title: req.Title, Description: req.Body}
	switch req.GetState() {
	case gatewayv1.IssueState_ISSUE_STATE_OPEN:
		in.StateEvent = ptr("reopen")
	case gatewayv1.IssueState_ISSUE_STATE_CLOSED:
		in.StateEvent = ptr("close")
	}
	if len(req.GetLabels()) > 0 {
		in.Labels = ptr(gl.LabelOptions(req.GetLabels()))
	}
	return call(ctx, p, fmt.Sprintf("update issue %s#%d", repo, n), func(ro gl.RequestOptionFunc) (*forgev1.Issue, error) {
		if len(req.GetAssignees()) > 0 {
			ids, err := p.userIDs(req.GetAssignees(), ro)
			if err != nil {
				return nil, err
			}
			in.AssigneeIDs = &ids
		}
		i, resp, err := p.author.Issues.UpdateIssue(repo.String(), n, in, ro)
		if err != nil {
			return nil, fail(resp, err)
		}
		return p.issue(repo, i, nil), nil
	})
}

// CommentOnIssue posts a note on an issue.
func (p *Provider) CommentOnIssue(ctx context.Context, _ toolserver.Call, req *gatewayv1.CommentOnIssueRequest) (*forgev1.CommentRef, error) {
	repo, n, err := target(req.GetRepo(), req.GetIssueNumber(), "issue")
	if err != nil {
		return nil, err
	}
	return call(ctx, p, fmt.Sprintf("comment on issue %s#%d", repo, n), func(ro gl.RequestOptionFunc) (*forgev1.CommentRef, error) {
		i, resp, err := p.author.Issues.GetIssue(repo.String(), n, ro)
		if err != nil {
			return nil, fail(resp, err)
		}
		note, resp, err := p.author.Notes.CreateIssueNote(repo.String(), n, &gl.CreateIssueNoteOptions{Body: ptr(req.GetBody())}, ro)
		if err != nil {
			return nil, fail(resp, err)
		}
		return p.noteRef(repo, n, note, i.WebURL), nil
	})
}

// noteRef is the ack of a note on an issue or merge request whose web page
// is page: GitLab links a note as page#note_ID.
func (p *Provider) noteRef(repo project, n int64, note *gl.Note, page string) *forgev1.CommentRef {
	id := strconv.FormatInt(note.ID, 10)
	return &forgev1.CommentRef{Forge: p.Ref(), Repo: repo.String(), Number: uint64(n), CommentId: id, Url: page + "#note_" + id}
}
