package linear

import (
	"cmp"
	"context"
	"slices"
	"strings"
	"time"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	optionsv1 "github.com/forgetools/forgetools/gen/forgetools/options/v1"
	"github.com/forgetools/forgetools/internal/shown"
	"github.com/forgetools/forgetools/providers/kit"
	"github.com/forgetools/forgetools/toolserver"
)

const (
	defaultLimit = 30
	maxLimit     = 100
)

// openStateTypes are the workflow state types of an issue still to be done.
// Every other type (completed, canceled, and any Linear adds for finished
// work) reads as closed, and the list filter uses the same split, so a
// state filter and the state it reports never disagree.
var openStateTypes = []string{"triage", "backlog", "unstarted", "started"}

func issueState(stateType string) string {
	if slices.Contains(openStateTypes, stateType) {
		return "open"
	}
	return "closed"
}

// GetIssue reads issue KEY-N with the comments the renderer shows, and
// counts the rest when there are more.
func (p *Provider) GetIssue(ctx context.Context, _ toolserver.Call, req *gatewayv1.GetIssueRequest) (*forgev1.Issue, error) {
	key, err := parseTeamKey(req.GetRepo())
	if err != nil {
		return nil, err
	}
	id := identifier(key, req.GetIssueNumber())
	n, err := p.fetchIssue(ctx, "get issue "+id, id)
	if err != nil {
		return nil, err
	}
	if err := inTeam(n.Team.Key, key, id); err != nil {
		return nil, err
	}
	out := p.toIssue(n)
	if after := n.Comments.PageInfo.next(); after != "" {
		more, err := p.countComments(ctx, "get issue "+id, id, after)
		if err != nil {
			return nil, err
		}
		out.CommentsTotal = shown.Total(len(out.Comments), len(out.Comments)+more)
	}
	return out, nil
}

// countComments counts an issue's comments after the cursor, by id only
// (what the renderer shows is already read), for at most countPageLimit
// pages: Linear's connections carry no count.
func (p *Provider) countComments(ctx context.Context, op, id, after string) (int, error) {
	type ids = kit.Page[struct{ ID string }, string]
	n := 0
	err := kit.Pages(countPageLimit, func(next string) (ids, error) {
		cursor := cmp.Or(next, after)
		var a commentIDsAnswer
		if err := p.do(ctx, op+" (count comments)", queryCommentIDs, afterVars{ID: id, After: &cursor}, &a); err != nil || a.Issue == nil {
			return ids{}, err
		}
		return ids{Items: a.Issue.Comments.Nodes, Next: a.Issue.Comments.PageInfo.next()}, nil
	}, func(struct{ ID string }) bool { n++; return true })
	if err != nil {
		return 0, err
	}
	return n, nil
}

// ListIssues lists the team's issues, newest first, that carry every
// requested label: one query a page, the team named by its key in the
// issues filter (Linear's TeamFilter has key), so no lookup of the team
// precedes it. Only an empty first page looks the team up (once for the
// provider's life), to tell a team with no such issues from a key that
// names no team.
func (p *Provider) ListIssues(ctx context.Context, _ toolserver.Call, req *gatewayv1.ListIssuesRequest) (*forgev1.IssueList, error) {
	key, err := parseTeamKey(req.GetRepo())
	if err != nil {
		return nil, err
	}
	limit := int(req.GetLimit())
	if limit == 0 {
		limit = defaultLimit
	}
	limit = min(limit, maxLimit)

	f := &issueFilter{Team: &teamRef{Key: &stringCmp{Eq: key}}}
	switch req.GetState() {
	case gatewayv1.IssueStateFilter_ISSUE_STATE_FILTER_UNSPECIFIED, gatewayv1.IssueStateFilter_ISSUE_STATE_FILTER_OPEN:
		f.State = &stateFilter{Type: stringCmp{In: openStateTypes}}
	case gatewayv1.IssueStateFilter_ISSUE_STATE_FILTER_CLOSED:
		f.State = &stateFilter{Type: stringCmp{Nin: openStateTypes}}
	case gatewayv1.IssueStateFilter_ISSUE_STATE_FILTER_ALL:
	default:
		return nil, toolserver.InvalidArgument("linear: unknown state filter %v", req.GetState())
	}
	// One "some label named L" clause per label: the issue must carry all.
	var labels []string
	for _, l := range req.GetLabels() {
		if !slices.Contains(labels, l) {
			labels = append(labels, l)
			f.And = append(f.And, &issueFilter{Labels: &labelsFilter{Some: labelFilter{Name: &stringCmp{Eq: l}}}})
		}
	}

	cur := kit.CursorsFor("forge_list_issues", req)
	after, err := cur.Position(req.GetCursor())
	if err != nil {
		return nil, err
	}
	vars := filterVars[*issueFilter]{Filter: f, First: &limit}
	if after != "" {
		vars.After = &after
	}
	var a issuesAnswer
	if err := p.do(ctx, "list issues in "+key, queryIssues, vars, &a); err != nil {
		return nil, err
	}
	next, err := cur.Next(a.Issues.PageInfo.next())
	if err != nil {
		return nil, err
	}
	nodes := a.Issues.Nodes
	// Linear already filtered and ordered; these guard the tool's promise
	// (all labels, newest first, at most limit) against a drifting API.
	nodes = slices.DeleteFunc(nodes, func(n issueNode) bool { return !hasLabels(n, labels) || n.Team.Key != key })
	if len(nodes) == 0 && after == "" {
		if _, err := p.team(ctx, key); err != nil {
			return nil, err
		}
	}
	slices.SortStableFunc(nodes, func(a, b issueNode) int { return createdAt(b.CreatedAt).Compare(createdAt(a.CreatedAt)) })
	out := &forgev1.IssueList{NextCursor: next}
	for i := range nodes[:min(len(nodes), limit)] {
		out.Issues = append(out.Issues, p.toIssue(&nodes[i]))
	}
	return out, nil
}

// CreateIssue files an issue in the team. With a client_request_id the
// issue gets a deterministic id (IssueID), so when Linear already holds that
// id the create returns the existing issue instead of filing another.
func (p *Provider) CreateIssue(ctx context.Context, c toolserver.Call, req *gatewayv1.CreateIssueRequest) (*forgev1.Issue, error) {
	key, err := parseTeamKey(req.GetRepo())
	if err != nil {
		return nil, err
	}
	t, err := p.team(ctx, key)
	if err != nil {
		return nil, err
	}
	labelIDs, err := p.labelIDs(ctx, t, req.GetLabels())
	if err != nil {
		return nil, err
	}
	in := issueCreateInput{TeamID: t.ID, Title: req.GetTitle(), Description: req.GetBody(), LabelIDs: labelIDs}
	if c.ClientRequestID != "" {
		in.ID = IssueID(c.Account, c.ClientRequestID)
	}
	op := "create issue in " + key
	var a issueCreateAnswer
	err = p.do(ctx, op, mutationIssueCreate, inputVars[issueCreateInput]{Input: in}, &a)
	if err != nil {
		if in.ID != "" && maybeExists(err) {
			if n, perr := p.fetchIssue(ctx, op+" (replay check)", in.ID); perr == nil {
				if n.Team.Key != t.Key {
					return nil, toolserver.AlreadyExists("linear %s: this client_request_id already filed an issue in another team", op)
				}
				return p.toIssue(n), nil
			}
		}
		return nil, outcomeUnknown(err, in.ID != "")
	}
	if !a.IssueCreate.Success || a.IssueCreate.Issue == nil {
		return nil, toolserver.Internal("linear %s: Linear reported the create as unsuccessful", op)
	}
	return p.toIssue(a.IssueCreate.Issue), nil
}

// CommentOnIssue posts a comment on KEY-N. The comment gets a deterministic
// id only when the call carries a client_request_id.
func (p *Provider) CommentOnIssue(ctx context.Context, c toolserver.Call, req *gatewayv1.CommentOnIssueRequest) (*forgev1.CommentRef, error) {
	key, err := parseTeamKey(req.GetRepo())
	if err != nil {
		return nil, err
	}
	id := identifier(key, req.GetIssueNumber())
	var r issueRefAnswer
	if err := p.do(ctx, "find issue "+id, queryIssueRef, idVars{ID: id}, &r); err != nil {
		return nil, err
	}
	if r.Issue == nil {
		return nil, toolserver.NotFound("linear find issue %s: not found", id)
	}
	if err := inTeam(r.Issue.Team.Key, key, id); err != nil {
		return nil, err
	}
	in := commentCreateInput{IssueID: r.Issue.ID, Body: req.GetBody()}
	if c.ClientRequestID != "" {
		in.ID = CommentID(c.Account, c.ClientRequestID)
	}
	op := "comment on " + id
	ref := &forgev1.CommentRef{Forge: p.Ref(), Repo: key, Number: req.GetIssueNumber()}
	var a commentCreateAnswer
	err = p.do(ctx, op, mutationCommentCreate, inputVars[commentCreateInput]{Input: in}, &a)
	if err != nil {
		if in.ID != "" && maybeExists(err) {
			var got commentAnswer
			if perr := p.do(ctx, op+" (replay check)", queryComment, idVars{ID: in.ID}, &got); perr == nil && got.Comment != nil {
				if got.Comment.Issue == nil || got.Comment.Issue.ID != r.Issue.ID {
					return nil, toolserver.AlreadyExists("linear %s: this client_request_id already posted a comment on another issue", op)
				}
				ref.CommentId, ref.Url = got.Comment.ID, got.Comment.URL
				return ref, nil
			}
		}
		return nil, outcomeUnknown(err, in.ID != "")
	}
	if !a.CommentCreate.Success || a.CommentCreate.Comment == nil {
		return nil, toolserver.Internal("linear %s: Linear reported the comment as unsuccessful", op)
	}
	ref.CommentId, ref.Url = a.CommentCreate.Comment.ID, a.CommentCreate.Comment.URL
	return ref, nil
}

func (p *Provider) fetchIssue(ctx context.Context, op, id string) (*issueNode, error) {
	var a issueAnswer
	if err := p.do(ctx, op, queryIssue, issueVars{ID: id, Comments: shown.IssueComments}, &a); err != nil {
		return nil, err
	}
	if a.Issue == nil {
		return nil, toolserver.NotFound("linear %s: not found", op)
	}
	return a.Issue, nil
}

// inTeam refuses an issue Linear resolved into another team. Linear keeps
// old identifiers working after an issue moves, and the gateway scoped the
// call by the team key the agent named, so the answer must stay in it.
func inTeam(got, key, id string) error {
	if got != key {
		return toolserver.NotFound("linear: issue %s is not in team %s (it has moved to another team)", id, key)
	}
	return nil
}

// maybeExists reports whether a create failure could be Linear refusing a
// client-chosen id it already holds. Linear words that as an input error,
// so both codes lead to a look-up of the id before failing.
func maybeExists(err error) bool {
	e, ok := toolserver.AsError(err)
	return ok && (e.Code == optionsv1.ErrorCode_ERROR_CODE_ALREADY_EXISTS || e.Code == optionsv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT)
}

// outcomeUnknown adds to an unavailable write failure that it may have
// landed, and whether a retry is safe.
func outcomeUnknown(err error, deterministic bool) error {
	e, ok := toolserver.AsError(err)
	if !ok || e.Code != optionsv1.ErrorCode_ERROR_CODE_UNAVAILABLE {
		return err
	}
	note := "; it may have been created"
	if deterministic {
		note += ": a retry with the same client_request_id returns it instead of creating it twice"
	}
	return &toolserver.Error{Code: e.Code, Message: e.Message + note, RetryAfter: e.RetryAfter}
}

func (p *Provider) toIssue(n *issueNode) *forgev1.Issue {
	is := &forgev1.Issue{
		Forge:      p.Ref(),
		Repo:       n.Team.Key,
		Number:     uint64(n.Number),
		Identifier: n.Identifier,
		State:      issueState(n.State.Type),
		Url:        n.URL,
		Author:     userName(n.Creator),
		Title:      n.Title,
	}
	if n.Description != nil {
		is.Body = *n.Description
	}
	for _, l := range n.Labels.Nodes {
		is.Labels = append(is.Labels, l.Name)
	}
	is.Comments = toComments(n.Comments.Nodes)
	return is
}

func hasLabels(n issueNode, want []string) bool {
	for _, w := range want {
		if !slices.Contains(n.Labels.Nodes, labelNode{Name: w}) {
			return false
		}
	}
	return true
}

// userName is the handle an author renders as: Linear's displayName (a
// nickname without spaces), else the full name. Integrations have no user.
func userName(u *user) string {
	if u == nil {
		return ""
	}
	if d := strings.TrimSpace(u.DisplayName); d != "" {
		return d
	}
	return strings.TrimSpace(u.Name)
}

// createdAt parses Linear's ISO 8601 timestamps; an unparsable one sorts as
// the zero time.
func createdAt(s string) time.Time {
	t, _ := time.Parse(time.RFC3339Nano, s)
	return t
}
