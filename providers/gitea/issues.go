package gitea

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	sdk "code.gitea.io/sdk/gitea"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/internal/shown"
	"github.com/forgetools/forgetools/providers/kit"
	"github.com/forgetools/forgetools/toolserver"
)

// GetIssue reads an issue and its comments. Gitea serves pull requests on
// the issues endpoint too; one is refused as not_found, saying what it is.
func (p *Provider) GetIssue(ctx context.Context, _ toolserver.Call, req *gatewayv1.GetIssueRequest) (*forgev1.Issue, error) {
	repo, n, err := p.target(req.GetRepo(), req.GetIssueNumber(), "issue")
	if err != nil {
		return nil, err
	}
	return call(ctx, p, fmt.Sprintf("get issue %s#%d", repo, n), func(c *sdk.Client) (*forgev1.Issue, error) {
		i, resp, err := c.GetIssue(repo.owner, repo.name, n)
		if err != nil {
			return nil, fail(resp, err)
		}
		if i.PullRequest != nil {
			return nil, toolserver.NotFound("#%d in %s is a pull request, not an issue; read it with forge_get_pull_request", n, repo)
		}
		comments, err := firstPage(shown.IssueComments, func(o sdk.ListOptions) ([]*sdk.Comment, *sdk.Response, error) {
			return c.ListIssueComments(repo.owner, repo.name, n, sdk.ListIssueCommentOptions{ListOptions: o})
		})
		if err != nil {
			return nil, err
		}
		out := p.issue(repo, i, comments.items)
		out.CommentsTotal = comments.total(i.Comments)
		return out, nil
	})
}

// ListIssues lists issues (type=issues: Gitea leaves the pull requests
// out itself), newest first, the page the cursor names.
func (p *Provider) ListIssues(ctx context.Context, _ toolserver.Call, req *gatewayv1.ListIssuesRequest) (*forgev1.IssueList, error) {
	repo, err := p.parseRepo(req.GetRepo())
	if err != nil {
		return nil, err
	}
	for _, l := range req.GetLabels() {
		if strings.Contains(l, ",") {
			return nil, toolserver.InvalidArgument("label %q contains a comma, which %s's label filter cannot express", l, p.flavor.Name())
		}
	}
	var since time.Time
	if s := req.GetSince(); s != nil {
		since = s.AsTime()
	}
	cur := kit.CursorsFor("forge_list_issues", req)
	page, err := listPage(cur, req.GetCursor(), req.GetLimit())
	if err != nil {
		return nil, err
	}
	opt := sdk.ListIssueOption{
		ListOptions: page,
		State:       issueState(req.GetState()),
		Type:        sdk.IssueTypeIssue,
		Since:       since,
		AssignedBy:  req.GetAssignee(),
	}
	return call(ctx, p, "list issues in "+repo.String(), func(c *sdk.Client) (*forgev1.IssueList, error) {
		// Gitea drops a label name it does not know and matches the rest
		// case-sensitively, so an unknown or differently cased name would
		// widen the listing: every name is resolved to the repository's
		// own spelling first, and one it lacks is refused.
		var labels labelSet
		if len(req.GetLabels()) > 0 {
			if labels, err = p.repoLabels(c, repo); err != nil {
				return nil, err
			}
		}
		for _, l := range req.GetLabels() {
			name, ok := labels.named(l)
			if !ok {
				return nil, toolserver.InvalidArgument("%s has no label %q, so no issue carries it: list its labels by reading an issue, or leave labels out", repo, l)
			}
			opt.Labels = append(opt.Labels, name)
		}
		is, resp, err := c.ListRepoIssues(repo.owner, repo.name, opt)
		if err != nil {
			if resp != nil && resp.StatusCode == http.StatusNotFound && req.GetAssignee() != "" {
				return nil, p.unknownAssignee(c, repo, req.GetAssignee(), resp, err)
			}
			return nil, fail(resp, err)
		}
		list := &forgev1.IssueList{NextCursor: nextCursor(cur, opt.ListOptions, len(is), resp)}
		for _, i := range is[:min(len(is), opt.PageSize)] {
			list.Issues = append(list.Issues, p.issue(repo, i, nil))
		}
		return list, nil
	})
}

func issueState(s gatewayv1.IssueStateFilter) sdk.StateType {
	switch s {
	case gatewayv1.IssueStateFilter_ISSUE_STATE_FILTER_CLOSED:
		return sdk.StateClosed
	case gatewayv1.IssueStateFilter_ISSUE_STATE_FILTER_ALL:
		return sdk.StateAll
	default:
		return sdk.StateOpen
	}
}

// CreateIssue opens an issue. Gitea takes labels by id: the names are
// resolved against the repository's labels first, and a name that is not
// there is refused, never dropped.
func (p *Provider) CreateIssue(ctx context.Context, _ toolserver.Call, req *gatewayv1.CreateIssueRequest) (*forgev1.Issue, error) {
	repo, err := p.parseRepo(req.GetRepo())
	if err != nil {
		return nil, err
	}
	in := sdk.CreateIssueOption{Title: req.GetTitle(), Body: req.GetBody(), Assignees: req.GetAssignees()}
	if req.Milestone != nil {
		// Gitea addresses a milestone by its id, which is the number its
		// web pages show (/milestone/ID).
		if in.Milestone, err = number(req.GetMilestone(), "milestone"); err != nil {
			return nil, err
		}
	}
	return call(ctx, p, "create issue in "+repo.String(), func(c *sdk.Client) (*forgev1.Issue, error) {
		// Gitea keeps the labels, assignees and milestone of a new issue
		// only from a credential that can write to the repository, and
		// drops them silently otherwise; it drops a milestone that is not
		// the repository's too. Both are refused before anything is
		// written.
		if err := p.mayTriage(c, repo, "labels, assignees or milestone of its issue", "open it without them",
			len(req.GetLabels()) > 0, len(req.GetAssignees()) > 0, req.Milestone != nil); err != nil {
			return nil, err
		}
		if req.Milestone != nil {
			if _, resp, err := c.GetMilestone(repo.owner, repo.name, in.Milestone); err != nil {
				if resp != nil && resp.StatusCode == http.StatusNotFound {
					return nil, toolserver.InvalidArgument("%s has no milestone %d (%s's milestone number is the id in its /milestone/ID page); nothing was written", repo, in.Milestone, p.flavor.Name())
				}
				return nil, fail(resp, err)
			}
		}
		if in.Labels, err = p.labelIDs(c, repo, req.GetLabels()); err != nil {
			return nil, err
		}
		i, resp, err := c.CreateIssue(repo.owner, repo.name, in)
		if err != nil {
			return nil, fail(resp, err)
		}
		return p.issue(repo, i, nil), nil
	})
}

// labelSet is a repository's labels, by lower-cased name.
type labelSet map[string]*sdk.Label

// named is the label a name means (case-insensitively, as a person reads
// it), in the repository's spelling.
func (s labelSet) named(name string) (string, bool) {
	l, ok := s[strings.ToLower(name)]
	if !ok {
		return "", false
	}
	return l.Name, true
}

// repoLabels reads the repository's labels.
func (p *Provider) repoLabels(c *sdk.Client, repo repoName) (labelSet, error) {
	labels, err := collect(func(o sdk.ListOptions) ([]*sdk.Label, *sdk.Response, error) {
		return c.ListRepoLabels(repo.owner, repo.name, sdk.ListLabelsOptions{ListOptions: o})
	})
	if err != nil {
		return nil, err
	}
	set := labelSet{}
	for _, l := range labels {
		set[strings.ToLower(l.Name)] = l
	}
	return set, nil
}

// labelIDs resolves label names (case-insensitively) to the repository's
// label ids; a name it lacks is refused, never dropped.
func (p *Provider) labelIDs(c *sdk.Client, repo repoName, names []string) ([]int64, error) {
	if len(names) == 0 {
		return nil, nil
	}
	set, err := p.repoLabels(c, repo)
	if err != nil {
		return nil, err
	}
	ids := make([]int64, 0, len(names))
	var missing []string
	for _, n := range names {
		l, ok := set[strings.ToLower(n)]
		if !ok {
			missing = append(missing, fmt.Sprintf("%q", n))
			continue
		}
		ids = append(ids, l.ID)
	}
	if len(missing) > 0 {
		return nil, toolserver.InvalidArgument("%s takes labels by id, and %s has no label %s; nothing was written: use existing labels (or leave them out)",
			p.flavor.Name(), repo, strings.Join(missing, ", "))
	}
	return ids, nil
}

// unknownAssignee words the 404 Gitea answers a list filtered by an
// assignee it has no user for, once the repository is known to exist.
func (p *Provider) unknownAssignee(c *sdk.Client, repo repoName, who string, resp *sdk.Response, err error) error {
	if _, r, gerr := c.GetRepo(repo.owner, repo.name); gerr != nil {
		return fail(r, gerr)
	}
	if _, r, uerr := c.GetUserInfo(who); uerr == nil || r == nil || r.StatusCode != http.StatusNotFound {
		return fail(resp, err)
	}
	return toolserver.InvalidArgument("%s has no user %s to filter by assignee", p.flavor.Name(), who)
}

// UpdateIssue edits an issue: state, title, body and assignees in one
// PATCH, labels (by id) replaced with one PUT. Gitea records no reason for
// closing, so a state_reason is refused rather than dropped.
func (p *Provider) UpdateIssue(ctx context.Context, _ toolserver.Call, req *gatewayv1.UpdateIssueRequest) (*forgev1.Issue, error) {
	repo, n, err := p.target(req.GetRepo(), req.GetIssueNumber(), "issue")
	if err != nil {
		return nil, err
	}
	if req.GetStateReason() != gatewayv1.StateReason_STATE_REASON_UNSPECIFIED {
		return nil, toolserver.InvalidArgument("%s records no reason for closing or reopening an issue; leave state_reason out", p.flavor.Name())
	}
	in := sdk.EditIssueOption{Title: req.GetTitle(), Body: req.Body, Assignees: req.GetAssignees()}
	switch req.GetState() {
	case gatewayv1.IssueState_ISSUE_STATE_OPEN:
		in.State = ptr(sdk.StateOpen)
	case gatewayv1.IssueState_ISSUE_STATE_CLOSED:
		in.State = ptr(sdk.StateClosed)
	}
	return call(ctx, p, fmt.Sprintf("update issue %s#%d", repo, n), func(c *sdk.Client) (*forgev1.Issue, error) {
		// Gitea edits a pull request through the issues endpoint too:
		// look before writing.
		cur, resp, err := c.GetIssue(repo.owner, repo.name, n)
		if err != nil {
			return nil, fail(resp, err)
		}
		if cur.PullRequest != nil {
			return nil, toolserver.NotFound("#%d in %s is a pull request, not an issue; nothing was written", n, repo)
		}
		// A credential that cannot write has its assignees dropped and
		// its labels refused, the latter only after the PATCH landed:
		// refused first, so an update is all or nothing.
		if err := p.mayTriage(c, repo, "labels or assignees", "update without them",
			len(req.GetLabels()) > 0, len(req.GetAssignees()) > 0); err != nil {
			return nil, err
		}
		ids, err := p.labelIDs(c, repo, req.GetLabels())
		if err != nil {
			return nil, err
		}
		i, resp, err := c.EditIssue(repo.owner, repo.name, n, in)
		if err != nil {
			return nil, fail(resp, err)
		}
		if len(ids) > 0 {
			labels, resp, err := c.ReplaceIssueLabels(repo.owner, repo.name, n, sdk.IssueLabelsOption{Labels: ids})
			if err != nil {
				return nil, fail(resp, err)
			}
			i.Labels = labels
		}
		return p.issue(repo, i, nil), nil
	})
}

func ptr[T any](v T) *T { return &v }

// mayTriage refuses a write that sets labels, assignees or a milestone
// (each flag one of those asked for) when the credential cannot write to
// the repository, which is when Gitea drops or refuses them; what and
// instead word the refusal. Nothing is asked when nothing is set.
func (p *Provider) mayTriage(c *sdk.Client, repo repoName, what, instead string, asked ...bool) error {
	if !slices.Contains(asked, true) {
		return nil
	}
	r, resp, err := c.GetRepo(repo.owner, repo.name)
	if err != nil {
		return fail(resp, err)
	}
	if r.Permissions != nil && (r.Permissions.Push || r.Permissions.Admin) {
		return nil
	}
	return toolserver.PermissionDenied("this credential cannot write to %s, and %s would drop or refuse the %s; nothing was written: %s", repo, p.flavor.Name(), what, instead)
}

// CommentOnIssue posts a comment on an issue.
func (p *Provider) CommentOnIssue(ctx context.Context, _ toolserver.Call, req *gatewayv1.CommentOnIssueRequest) (*forgev1.CommentRef, error) {
	return p.comment(ctx, "issue", req.GetRepo(), req.GetIssueNumber(), req.GetBody())
}

// comment posts an issue comment, which is also how Gitea stores a pull
// request's conversation comments.
func (p *Provider) comment(ctx context.Context, kind, repoArg string, num uint64, body string) (*forgev1.CommentRef, error) {
	repo, n, err := p.target(repoArg, num, kind)
	if err != nil {
		return nil, err
	}
	return call(ctx, p, fmt.Sprintf("comment on %s %s#%d", kind, repo, n), func(c *sdk.Client) (*forgev1.CommentRef, error) {
		// Issues and pull requests share one numbering and one comment
		// endpoint, which takes either: look first, so a comment meant for
		// a pull request never lands on an issue, or the reverse.
		cur, resp, err := c.GetIssue(repo.owner, repo.name, n)
		if err != nil {
			return nil, fail(resp, err)
		}
		if isPull := cur.PullRequest != nil; isPull != (kind == "pull request") {
			is, other, tool := "an issue", "a pull request", "forge_comment_on_issue"
			if isPull {
				is, other, tool = "a pull request", "an issue", "forge_comment_on_pull_request"
			}
			return nil, toolserver.NotFound("#%d in %s is %s, not %s; nothing was posted: comment on it with %s", n, repo, is, other, tool)
		}
		cm, resp, err := c.CreateIssueComment(repo.owner, repo.name, n, sdk.CreateIssueCommentOption{Body: body})
		if err != nil {
			return nil, fail(resp, err)
		}
		return p.commentRef(repo, n, cm), nil
	})
}
