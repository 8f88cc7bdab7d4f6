package github

import (
	"strconv"
	"strings"
	"time"

	gh "github.com/google/go-github/v84/github"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
)

// This file translates go-github's view of GitHub's JSON into the canonical
// forge types. Bodies and titles pass through untouched, but for the create
// marker at the end of a body the gateway filed (recover.go).

func (p *Provider) issue(repo repoName, i *gh.Issue, comments []*gh.IssueComment) *forgev1.Issue {
	return &forgev1.Issue{
		Forge:       p.Ref(),
		Repo:        repo.String(),
		Number:      uint64(i.GetNumber()),
		State:       i.GetState(),
		Url:         i.GetHTMLURL(),
		Labels:      labelNames(i.Labels),
		Author:      i.GetUser().GetLogin(),
		Title:       i.GetTitle(),
		Body:        unmark(i.GetBody()),
		Comments:    issueComments(comments),
		Assignees:   logins(i.Assignees),
		Milestone:   i.GetMilestone().GetTitle(),
		CreatedAt:   timestamp(i.CreatedAt),
		UpdatedAt:   timestamp(i.UpdatedAt),
		ClosedAt:    timestamp(i.ClosedAt),
		StateReason: i.GetStateReason(),
	}
}

func logins(us []*gh.User) []string {
	out := make([]string, 0, len(us))
	for _, u := range us {
		out = append(out, u.GetLogin())
	}
	return out
}

// timestamp is an RFC 3339 time in UTC, or "" for a time GitHub left null.
func timestamp(t *gh.Timestamp) string {
	if t == nil || t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}

func labelNames(ls []*gh.Label) []string {
	names := make([]string, 0, len(ls))
	for _, l := range ls {
		names = append(names, l.GetName())
	}
	return names
}

func issueComments(cs []*gh.IssueComment) []*forgev1.Comment {
	out := make([]*forgev1.Comment, 0, len(cs))
	for _, c := range cs {
		out = append(out, &forgev1.Comment{Author: c.GetUser().GetLogin(), Url: c.GetHTMLURL(), Body: c.GetBody()})
	}
	return out
}

func (p *Provider) commentRef(repo repoName, n int, c *gh.IssueComment) *forgev1.CommentRef {
	return &forgev1.CommentRef{
		Forge:     p.Ref(),
		Repo:      repo.String(),
		Number:    uint64(n),
		CommentId: strconv.FormatInt(c.GetID(), 10),
		Url:       c.GetHTMLURL(),
	}
}

// pullRequest maps the PR itself; reviews, comments and checks are added by
// the caller that fetched them.
func (p *Provider) pullRequest(repo repoName, pr *gh.PullRequest) *forgev1.PullRequest {
	state := pr.GetState()
	if pr.GetMerged() || pr.MergedAt != nil {
		// GitHub reports a merged PR as "closed" plus a flag; the one word
		// that tells a reader what happened is "merged".
		state = "merged"
	}
	return &forgev1.PullRequest{
		Forge:     p.Ref(),
		Repo:      repo.String(),
		Number:    uint64(pr.GetNumber()),
		State:     state,
		Url:       pr.GetHTMLURL(),
		HeadRef:   pr.GetHead().GetRef(),
		BaseRef:   pr.GetBase().GetRef(),
		Draft:     pr.GetDraft(),
		Author:    pr.GetUser().GetLogin(),
		Title:     pr.GetTitle(),
		Body:      unmark(pr.GetBody()),
		HeadSha:   pr.GetHead().GetSHA(),
		Merged:    state == "merged",
		Mergeable: mergeable(pr.Mergeable),
	}
}

// mergeable is GitHub's tri-state: null while it computes the answer (and
// always in a listing), else true or false.
func mergeable(m *bool) string {
	if m == nil {
		return ""
	}
	return strconv.FormatBool(*m)
}

// verdict is a GitHub review state in the tools' vocabulary (the verdict
// enum's spelling), so the model never reads a verdict its own schema
// would reject: APPROVED -> approve, CHANGES_REQUESTED -> request_changes,
// COMMENTED -> comment. Other states (DISMISSED, PENDING) are lower-cased.
func verdict(state string) string {
	switch s := strings.ToUpper(state); s {
	case "APPROVED":
		return "approve"
	case "CHANGES_REQUESTED":
		return "request_changes"
	case "COMMENTED":
		return "comment"
	default:
		return strings.ToLower(s)
	}
}

// reviews groups the PR's review comments under the review each belongs to
// (pull_request_review_id). Pending reviews are drafts only their author
// can see, so they and their comments are left out. A comment whose review
// was not fetched (beyond the page limit) gets a review of its own.
func reviews(rs []*gh.PullRequestReview, cs []*gh.PullRequestComment) []*forgev1.Review {
	out := make([]*forgev1.Review, 0, len(rs))
	byID := make(map[int64]*forgev1.Review, len(rs))
	pending := make(map[int64]bool)
	for _, r := range rs {
		if strings.EqualFold(r.GetState(), "PENDING") {
			pending[r.GetID()] = true
			continue
		}
		v := &forgev1.Review{
			Author:  r.GetUser().GetLogin(),
			Verdict: verdict(r.GetState()),
			Url:     r.GetHTMLURL(),
			Body:    r.GetBody(),
		}
		byID[r.GetID()] = v
		out = append(out, v)
	}
	for _, c := range cs {
		id := c.GetPullRequestReviewID()
		if pending[id] {
			continue
		}
		v := byID[id]
		if v == nil {
			v = &forgev1.Review{Author: c.GetUser().GetLogin(), Verdict: "comment", Url: c.GetHTMLURL()}
			byID[id] = v
			out = append(out, v)
		}
		v.Comments = append(v.Comments, reviewComment(c))
	}
	return out
}

func reviewComment(c *gh.PullRequestComment) *forgev1.ReviewComment {
	line := c.GetLine()
	if line == 0 {
		// An outdated comment no longer maps onto the diff; its original
		// line is where it was written.
		line = c.GetOriginalLine()
	}
	return &forgev1.ReviewComment{
		Path:   c.GetPath(),
		Line:   uint64(max(line, 0)),
		Side:   c.GetSide(),
		Author: c.GetUser().GetLogin(),
		Body:   c.GetBody(),
	}
}

// checksState rolls the head commit's commit statuses and check runs into
// one word: failure if anything failed, else pending if anything has not
// finished, else success; empty when the commit has neither.
func checksState(status *gh.CombinedStatus, runs []*gh.CheckRun) string {
	return statusChecks(status).and(runChecks(runs)).state()
}

// checks is what a commit's statuses or its check runs say, so the two can
// be read (and cached) apart and rolled up together.
type checks struct {
	Seen, Waiting, Failed bool
}

func statusChecks(status *gh.CombinedStatus) checks {
	// With no statuses GitHub still says "pending"; only count real ones.
	if status.GetTotalCount() == 0 {
		return checks{}
	}
	switch status.GetState() {
	case "success":
		return checks{Seen: true}
	case "pending":
		return checks{Seen: true, Waiting: true}
	}
	return checks{Seen: true, Failed: true} // failure, error
}

func runChecks(runs []*gh.CheckRun) checks {
	var c checks
	for _, r := range runs {
		c.Seen = true
		if r.GetStatus() != "completed" {
			c.Waiting = true
			continue
		}
		switch r.GetConclusion() {
		case "success", "neutral", "skipped":
		default: // failure, cancelled, timed_out, action_required, stale, ...
			c.Failed = true
		}
	}
	return c
}

func (c checks) and(d checks) checks {
	return checks{Seen: c.Seen || d.Seen, Waiting: c.Waiting || d.Waiting, Failed: c.Failed || d.Failed}
}

func (c checks) state() string {
	switch {
	case c.Failed:
		return "failure"
	case c.Waiting:
		return "pending"
	case c.Seen:
		return "success"
	}
	return ""
}
