package github

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	gh "github.com/google/go-github/v84/github"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/internal/shown"
	"github.com/forgetools/forgetools/providers/kit"
	"github.com/forgetools/forgetools/toolserver"
)

const (
	// defaultListLimit is the wire's "omitted = 30", also GitHub's default
	// page size.
	defaultListLimit = 30
	// maxPerPage is the largest page GitHub serves.
	maxPerPage = 100
)

// GetIssue reads an issue and the comments the renderer shows (the first
// page, with the issue's count of them). GitHub serves pull requests on
// the issues endpoint too; one is refused as not_found, saying what it is,
// and so is an issue transferred to another repository, saying where.
func (p *Provider) GetIssue(ctx context.Context, _ toolserver.Call, req *gatewayv1.GetIssueRequest) (*forgev1.Issue, error) {
	repo, n, err := parseNumbered(req.GetRepo(), req.GetIssueNumber(), "issue")
	if err != nil {
		return nil, err
	}
	return call(ctx, p, fmt.Sprintf("get issue %s#%d", repo, n), func(ctx context.Context) (*forgev1.Issue, error) {
		i, resp, err := p.author.Issues.Get(ctx, repo.owner, repo.name, n)
		if err != nil {
			return nil, err
		}
		if err := p.transferred(ctx, repo, n, i, resp); err != nil {
			return nil, err
		}
		if i.IsPullRequest() {
			return nil, toolserver.NotFound("#%d in %s is a pull request, not an issue; read it with forge_get_pull_request", n, repo)
		}
		comments, err := firstPage(shown.IssueComments, func(o gh.ListOptions) ([]*gh.IssueComment, *gh.Response, error) {
			return p.author.Issues.ListComments(ctx, repo.owner, repo.name, n, &gh.IssueListCommentsOptions{ListOptions: o})
		})
		if err != nil {
			return nil, err
		}
		out := p.issue(repo, i, comments.items)
		out.CommentsTotal = comments.total(i.GetComments())
		return out, nil
	})
}

// ListIssues lists issues newest first, one GitHub page a call (paging.go).
// GitHub's issues endpoint returns pull requests among them; those are
// dropped. A page of at least GitHub's default size is read, so a small
// limit in a repository busy with pull requests still fills from one
// request, and the cursor names where in that page the next call starts
// (issuePosition); a page of nothing but pull requests shows fewer than
// limit issues, or none, with a next_cursor naming the rest.
func (p *Provider) ListIssues(ctx context.Context, _ toolserver.Call, req *gatewayv1.ListIssuesRequest) (*forgev1.IssueList, error) {
	repo, err := parseRepo(req.GetRepo())
	if err != nil {
		return nil, err
	}
	for _, l := range req.GetLabels() {
		if strings.Contains(l, ",") {
			// The API takes labels as one comma-separated list.
			return nil, toolserver.InvalidArgument("label %q contains a comma, which GitHub's label filter cannot express", l)
		}
	}
	limit := listLimit(req.Limit)
	per := max(limit, defaultListLimit)
	cur := kit.CursorsFor("forge_list_issues", req)
	at, err := readIssuePosition(cur, req.GetCursor(), per)
	if err != nil {
		return nil, err
	}
	opts := &gh.IssueListByRepoOptions{
		State:       issueState(req.GetState()),
		Labels:      req.GetLabels(),
		Assignee:    req.GetAssignee(),
		Sort:        "created",
		Direction:   "desc",
		ListOptions: gh.ListOptions{PerPage: per},
	}
	if at.page > 1 {
		opts.ListOptions.Page = at.page
	}
	if req.Since != nil {
		// GitHub's since is the same "updated at or after" filter, in its
		// documented form YYYY-MM-DDTHH:MM:SSZ.
		opts.Since = req.GetSince().AsTime().UTC()
	}
	return call(ctx, p, "list issues in "+repo.String(), func(ctx context.Context) (*forgev1.IssueList, error) {
		is, resp, err := p.author.Issues.ListByRepo(ctx, repo.owner, repo.name, opts)
		if err != nil {
			return nil, err
		}
		is = is[:min(len(is), per)]
		list := &forgev1.IssueList{}
		i := at.offset
		for ; i < len(is) && len(list.Issues) < limit; i++ {
			if !is[i].IsPullRequest() {
				list.Issues = append(list.Issues, p.issue(repo, is[i], nil))
			}
		}
		switch next := nextPage(resp); {
		case i < len(is):
			list.NextCursor, err = cur.Next(issuePosition{max(at.page, 1), i}.String())
		case next > max(at.page, 1):
			list.NextCursor, err = cur.Next(issuePosition{next, 0}.String())
		}
		return list, err
	})
}

// issuePosition is where a forge_list_issues page starts: a GitHub page
// (from 1) and the offset of the first item not yet shown on it, written
// "page_offset".
type issuePosition struct{ page, offset int }

func (ip issuePosition) String() string { return strconv.Itoa(ip.page) + "_" + strconv.Itoa(ip.offset) }

// readIssuePosition reads a forge_list_issues cursor strictly, as String
// writes it, with the offset inside a page of per items; page 1, offset 0
// for none.
func readIssuePosition(cur kit.Cursors, cursor string, per int) (issuePosition, error) {
	pos, err := cur.Position(cursor)
	if err != nil || pos == "" {
		return issuePosition{1, 0}, err
	}
	pg, off, _ := strings.Cut(pos, "_")
	page, err1 := strconv.Atoi(pg)
	offset, err2 := strconv.Atoi(off)
	ip := issuePosition{page, offset}
	if err1 != nil || err2 != nil || page < 1 || page > math.MaxInt32 || offset < 0 || offset >= per || ip.String() != pos {
		return issuePosition{}, toolserver.InvalidArgument("cursor %q is not a next_cursor forge_list_issues gave; omit it for the first page", cursor)
	}
	return ip, nil
}

// listLimit is a list's wire limit: omitted = 30, never more than a page.
func listLimit(limit *uint32) int {
	if limit == nil || *limit == 0 {
		return defaultListLimit
	}
	return min(int(*limit), maxPerPage)
}

func issueState(s gatewayv1.IssueStateFilter) string {
	switch s {
	case gatewayv1.IssueStateFilter_ISSUE_STATE_FILTER_CLOSED:
		return "closed"
	case gatewayv1.IssueStateFilter_ISSUE_STATE_FILTER_ALL:
		return "all"
	default:
		return "open"
	}
}

// CreateIssue opens an issue with the title, body, labels, assignees and
// milestone as given. GitHub silently drops labels, assignees and the
// milestone when the credential lacks push access: the issue returned shows
// what it kept, and says which labels it did not apply. A keyed create
// marks its body, and a resumed one returns the issue an earlier attempt
// filed, if any (recover.go).
func (p *Provider) CreateIssue(ctx context.Context, c toolserver.Call, req *gatewayv1.CreateIssueRequest) (*forgev1.Issue, error) {
	repo, err := parseRepo(req.GetRepo())
	if err != nil {
		return nil, err
	}
	in := &gh.IssueRequest{Title: gh.Ptr(req.GetTitle())}
	if body := markBody(c, req.GetBody()); body != "" {
		in.Body = gh.Ptr(body)
	}
	if len(req.GetLabels()) > 0 {
		in.Labels = gh.Ptr(req.GetLabels())
	}
	if len(req.GetAssignees()) > 0 {
		in.Assignees = gh.Ptr(req.GetAssignees())
	}
	if req.Milestone != nil {
		m, err := number(req.GetMilestone(), "milestone")
		if err != nil {
			return nil, err
		}
		in.Milestone = gh.Ptr(m)
	}
	return call(ctx, p, "create issue in "+repo.String(), func(ctx context.Context) (*forgev1.Issue, error) {
		i, err := p.earlier(ctx, c, repo)
		if err == nil && i == nil {
			i, _, err = p.author.Issues.Create(ctx, repo.owner, repo.name, in)
		}
		if err != nil {
			return nil, err
		}
		out := p.issue(repo, i, nil)
		out.LabelsNotApplied = missingLabels(req.GetLabels(), out.GetLabels())
		return out, nil
	})
}

// missingLabels are the labels asked for that the created issue does not
// carry. GitHub drops the labels of a new issue, without an error, when the
// credential lacks push access; the ack names them. Names match as GitHub
// matches them, ignoring case.
func missingLabels(asked, got []string) []string {
	var out []string
	for _, a := range asked {
		if !slices.ContainsFunc(got, func(g string) bool { return strings.EqualFold(g, a) }) &&
			!slices.ContainsFunc(out, func(o string) bool { return strings.EqualFold(o, a) }) {
			out = append(out, a)
		}
	}
	return out
}

// CommentOnIssue posts a comment on an issue.
func (p *Provider) CommentOnIssue(ctx context.Context, _ toolserver.Call, req *gatewayv1.CommentOnIssueRequest) (*forgev1.CommentRef, error) {
	return p.comment(ctx, "issue", req.GetRepo(), req.GetIssueNumber(), req.GetBody())
}

// comment posts an issue comment, which is also how GitHub stores a pull
// request's conversation comments.
func (p *Provider) comment(ctx context.Context, kind, repoArg string, num uint64, body string) (*forgev1.CommentRef, error) {
	repo, n, err := parseNumbered(repoArg, num, kind)
	if err != nil {
		return nil, err
	}
	return call(ctx, p, fmt.Sprintf("comment on %s %s#%d", kind, repo, n), func(ctx context.Context) (*forgev1.CommentRef, error) {
		c, _, err := p.author.Issues.CreateComment(ctx, repo.owner, repo.name, n, &gh.IssueComment{Body: gh.Ptr(body)})
		if err != nil {
			return nil, err
		}
		return p.commentRef(repo, n, c), nil
	})
}

// UpdateIssue closes, reopens or edits an issue: only the fields the call
// gives are sent, so the rest stay as they are. GitHub edits pull requests
// through the same endpoint; the issue is read first so that an issue tool
// never closes or retitles a pull request.
func (p *Provider) UpdateIssue(ctx context.Context, _ toolserver.Call, req *gatewayv1.UpdateIssueRequest) (*forgev1.Issue, error) {
	repo, n, err := parseNumbered(req.GetRepo(), req.GetIssueNumber(), "issue")
	if err != nil {
		return nil, err
	}
	in := issueEdit(req)
	return call(ctx, p, fmt.Sprintf("update issue %s#%d", repo, n), func(ctx context.Context) (*forgev1.Issue, error) {
		cur, _, err := p.author.Issues.Get(ctx, repo.owner, repo.name, n)
		if err != nil {
			return nil, err
		}
		if cur.IsPullRequest() {
			return nil, toolserver.NotFound("#%d in %s is a pull request, not an issue; forge_update_issue changes issues only, and nothing was changed", n, repo)
		}
		i, _, err := p.author.Issues.Edit(ctx, repo.owner, repo.name, n, in)
		if err != nil {
			return nil, err
		}
		return p.issue(repo, i, nil), nil
	})
}

var (
	issueStates  = map[gatewayv1.IssueState]string{gatewayv1.IssueState_ISSUE_STATE_OPEN: "open", gatewayv1.IssueState_ISSUE_STATE_CLOSED: "closed"}
	stateReasons = map[gatewayv1.StateReason]string{
		gatewayv1.StateReason_STATE_REASON_COMPLETED:   "completed",
		gatewayv1.StateReason_STATE_REASON_NOT_PLANNED: "not_planned",
		gatewayv1.StateReason_STATE_REASON_REOPENED:    "reopened",
	}
)

// issueEdit is the PATCH body: the given fields only. An empty labels or
// assignees list means "unchanged" on the wire, so neither can be cleared.
func issueEdit(req *gatewayv1.UpdateIssueRequest) *gh.IssueRequest {
	in := &gh.IssueRequest{Title: req.Title, Body: req.Body}
	if s, ok := issueStates[req.GetState()]; ok {
		in.State = gh.Ptr(s)
	}
	if r, ok := stateReasons[req.GetStateReason()]; ok {
		in.StateReason = gh.Ptr(r)
	}
	if len(req.GetLabels()) > 0 {
		in.Labels = gh.Ptr(req.GetLabels())
	}
	if len(req.GetAssignees()) > 0 {
		in.Assignees = gh.Ptr(req.GetAssignees())
	}
	return in
}
