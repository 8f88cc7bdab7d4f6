package gitea

import (
	"strconv"
	"strings"
	"time"

	sdk "code.gitea.io/sdk/gitea"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
)

// This file translates the SDK's view of Gitea's JSON into the canonical
// forge types. Bodies and titles pass through untouched.

func (p *Provider) issue(repo repoName, i *sdk.Issue, comments []*sdk.Comment) *forgev1.Issue {
	out := &forgev1.Issue{
		Forge:     p.Ref(),
		Repo:      repo.String(),
		Number:    uint64(i.Index),
		State:     string(i.State),
		Url:       i.HTMLURL,
		Labels:    labelNames(i.Labels),
		Author:    login(i.Poster),
		Title:     i.Title,
		Body:      i.Body,
		Comments:  issueComments(comments),
		Assignees: logins(i.Assignees),
		CreatedAt: stamp(i.Created),
		UpdatedAt: stamp(i.Updated),
	}
	if i.Milestone != nil {
		out.Milestone = i.Milestone.Title
	}
	if i.Closed != nil && i.State == sdk.StateClosed {
		out.ClosedAt = stamp(*i.Closed)
	}
	return out
}

func labelNames(ls []*sdk.Label) []string {
	names := make([]string, 0, len(ls))
	for _, l := range ls {
		names = append(names, l.Name)
	}
	return names
}

func login(u *sdk.User) string {
	if u == nil {
		return ""
	}
	return u.UserName
}

func logins(us []*sdk.User) []string {
	out := make([]string, 0, len(us))
	for _, u := range us {
		out = append(out, login(u))
	}
	return out
}

func stamp(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}

func issueComments(cs []*sdk.Comment) []*forgev1.Comment {
	out := make([]*forgev1.Comment, 0, len(cs))
	for _, c := range cs {
		out = append(out, &forgev1.Comment{Author: login(c.Poster), Url: c.HTMLURL, Body: c.Body})
	}
	return out
}

func (p *Provider) commentRef(repo repoName, n int64, c *sdk.Comment) *forgev1.CommentRef {
	return &forgev1.CommentRef{
		Forge:     p.Ref(),
		Repo:      repo.String(),
		Number:    uint64(n),
		CommentId: strconv.FormatInt(c.ID, 10),
		Url:       c.HTMLURL,
	}
}

// pullRequest maps the pull request itself; reviews, comments and checks
// are added by the caller that fetched them.
func (p *Provider) pullRequest(repo repoName, pr *sdk.PullRequest) *forgev1.PullRequest {
	state := string(pr.State)
	if pr.HasMerged {
		state = "merged"
	}
	out := &forgev1.PullRequest{
		Forge:  p.Ref(),
		Repo:   repo.String(),
		Number: uint64(pr.Index),
		State:  state,
		Url:    pr.HTMLURL,
		Draft:  pr.Draft,
		Author: login(pr.Poster),
		Title:  pr.Title,
		Body:   pr.Body,
		Merged: pr.HasMerged,
	}
	if pr.Head != nil {
		out.HeadRef, out.HeadSha = pr.Head.Ref, pr.Head.Sha
	}
	if pr.Base != nil {
		out.BaseRef = pr.Base.Ref
	}
	if pr.State == sdk.StateOpen {
		// Gitea says mergeable as a plain boolean, computed when the head
		// or base moves; a closed pull request's is meaningless.
		out.Mergeable = strconv.FormatBool(pr.Mergeable)
	}
	return out
}

// verdict is a Gitea review state in the tools' vocabulary: APPROVED ->
// approve, REQUEST_CHANGES -> request_changes, COMMENT -> comment. Other
// states (REQUEST_REVIEW, PENDING) are lower-cased.
func verdict(state sdk.ReviewStateType) string {
	switch state {
	case sdk.ReviewStateApproved:
		return "approve"
	case sdk.ReviewStateRequestChanges:
		return "request_changes"
	case sdk.ReviewStateComment:
		return "comment"
	default:
		return strings.ToLower(string(state))
	}
}

// review maps a submitted review and its inline comments. Gitea numbers an
// inline comment by its line in the new file ("position"), or in the old
// file ("original_position") for a comment on a removed line.
func review(r *sdk.PullReview, cs []*sdk.PullReviewComment) *forgev1.Review {
	out := &forgev1.Review{Author: login(r.Reviewer), Verdict: verdict(r.State), Url: r.HTMLURL, Body: r.Body}
	_, opened := conversations([]*sdk.PullReview{r}, map[int64][]*sdk.PullReviewComment{r.ID: cs})
	for _, c := range cs {
		if c == nil {
			continue
		}
		line, side := commentLine(c)
		out.Comments = append(out.Comments, &forgev1.ReviewComment{
			Path: c.Path, Line: line, Side: side, Author: login(c.Reviewer), Body: c.Body, ThreadId: opened[c.ID],
		})
	}
	return out
}

// checksState rolls a combined commit status into one word: Gitea's
// state (success, pending, failure, error, warning) as the tools say it;
// empty when the commit has no statuses.
func checksState(s *sdk.CombinedStatus) string {
	if s == nil || s.TotalCount == 0 {
		return ""
	}
	switch s.State {
	case sdk.StatusSuccess, sdk.StatusWarning:
		return "success"
	case sdk.StatusPending:
		return "pending"
	default:
		return "failure"
	}
}

// permission is the credential's access in the tools' vocabulary.
func permission(p *sdk.Permission) string {
	switch {
	case p == nil:
		return ""
	case p.Admin:
		return "admin"
	case p.Push:
		return "write"
	case p.Pull:
		return "read"
	default:
		return ""
	}
}

func visibility(r *sdk.Repository) string {
	switch {
	case r.Internal:
		return "internal"
	case r.Private:
		return "private"
	default:
		return "public"
	}
}
