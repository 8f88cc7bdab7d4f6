package github

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	gh "github.com/google/go-github/v84/github"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	"github.com/forgetools/forgetools/toolserver/notify"
)

// The poll driver's source for GitHub (it satisfies poll.Source, which
// internal/cli wires it in as). An unchanged artifact costs one
// conditional request a poll, which GitHub answers 304 Not Modified and
// does not count against the rate limit: every change forgetools reports
// except checks moves the issue's or pull request's updated_at, and with
// it the ETag. Only when it moved are the comments, reviews and inline
// comments listed (from the last cutoff on). Checks belong to the head
// commit and move nothing, so they are read (conditionally too) while
// they are pending or unknown, after a push, and every checksRecheck polls
// once settled, in case a re-run changes the verdict.

// checksRecheck is how many polls a settled checks roll-up waits before it
// is read again.
const checksRecheck = 5

// pollState is what a poll keeps for the next one.
type pollState struct {
	ETag string `json:"etag"`
	// Cutoff: comments and reviews made at or after it are news, except
	// those already reported at exactly the cutoff (GitHub's times are in
	// whole seconds, so "after" alone could miss one).
	Cutoff   time.Time `json:"cutoff"`
	AtCutoff []string  `json:"at_cutoff,omitempty"`
	State    string    `json:"state"` // open, closed or merged
	Labels   []string  `json:"labels"`
	Head     string    `json:"head,omitempty"`
	// The head's checks as last read, each source with its validator.
	Status     checks `json:"status"`
	StatusETag string `json:"status_etag,omitempty"`
	Runs       checks `json:"runs"`
	RunsETag   string `json:"runs_etag,omitempty"`
	ChecksRead bool   `json:"checks_read"`
	ChecksAge  int    `json:"checks_age"` // polls since the checks were read
}

// Poll reports what changed on an issue or pull request since the poll
// that left prev (nil on the first poll: a baseline, with only the
// comments and reviews made since t.Since as news).
func (p *Provider) Poll(ctx context.Context, t notify.PollTarget, prev []byte) (notify.PollResult, error) {
	repo, err := parseRepo(t.Repo)
	if err != nil {
		return notify.PollResult{}, err
	}
	n, err := number(t.Number, string(t.Kind))
	if err != nil {
		return notify.PollResult{}, err
	}
	var st pollState
	first := prev == nil
	if !first {
		if err := json.Unmarshal(prev, &st); err != nil {
			// A memo this version cannot read: start a new baseline.
			p.log.WarnContext(ctx, "github: unreadable poll state; starting over", "repo", t.Repo, "number", n)
			first = true
		}
	}
	if first {
		st = pollState{Cutoff: t.Since}
	}
	return call(ctx, p, fmt.Sprintf("poll %s#%d", repo, n), func(ctx context.Context) (notify.PollResult, error) {
		po := &poller{p: p, repo: repo, n: n, first: first, prev: st, next: st}
		var err error
		if t.Kind == notify.KindPullRequest {
			err = po.pull(ctx)
		} else {
			err = po.issue(ctx)
		}
		if err != nil {
			return notify.PollResult{}, err
		}
		state, err := json.Marshal(po.next)
		if err != nil {
			return notify.PollResult{}, err
		}
		// What people did, in the order they did it; then the checks,
		// which carry no time of GitHub's.
		slices.SortStableFunc(po.changes, func(a, b notify.Change) int {
			return strings.Compare(a.Event.GetOccurredAt(), b.Event.GetOccurredAt())
		})
		return notify.PollResult{Changes: append(po.changes, po.checked...), State: state}, nil
	})
}

// poller is one poll of one artifact.
type poller struct {
	p          *Provider
	repo       repoName
	n          int
	first      bool
	prev, next pollState
	changes    []notify.Change
	checked    []notify.Change // a new checks roll-up
	// reported are the comments and reviews reported, by key, with when
	// they were made.
	reported map[string]time.Time
}

func (po *poller) issue(ctx context.Context) error {
	var i gh.Issue
	etag, same, err := po.get(ctx, fmt.Sprintf("repos/%s/%s/issues/%d", po.repo.owner, po.repo.name, po.n), po.prev.ETag, &i)
	if err != nil || same {
		return err
	}
	po.next.ETag = etag
	po.state(i.GetState(), i.GetUpdatedAt().Time, i.GetClosedBy().GetLogin())
	po.labels(labelNames(i.Labels), i.GetUpdatedAt().Time)
	if err := po.comments(ctx); err != nil {
		return err
	}
	po.moveCutoff(i.GetUpdatedAt().Time)
	return nil
}

func (po *poller) pull(ctx context.Context) error {
	var pr gh.PullRequest
	etag, same, err := po.get(ctx, fmt.Sprintf("repos/%s/%s/pulls/%d", po.repo.owner, po.repo.name, po.n), po.prev.ETag, &pr)
	if err != nil {
		return err
	}
	if !same {
		po.next.ETag = etag
		updated := pr.GetUpdatedAt().Time
		state := pr.GetState()
		actor := ""
		if pr.GetMerged() || pr.MergedAt != nil {
			state, actor = "merged", pr.GetMergedBy().GetLogin()
		}
		po.state(state, updated, actor)
		po.labels(labelNames(pr.Labels), updated)
		po.push(pr.GetHead().GetSHA(), updated)
		if err := po.comments(ctx); err != nil {
			return err
		}
		if err := po.reviews(ctx); err != nil {
			return err
		}
		po.moveCutoff(updated)
	}
	return po.checks(ctx)
}

// news reports whether the comment or review key, made at, has not been
// reported, and notes it as reported.
func (po *poller) news(key string, at time.Time) bool {
	if at.Before(po.prev.Cutoff) || at.Equal(po.prev.Cutoff) && slices.Contains(po.prev.AtCutoff, key) {
		return false
	}
	if po.reported == nil {
		po.reported = map[string]time.Time{}
	}
	po.reported[key] = at
	return true
}

// moveCutoff makes the artifact's updated_at the next cutoff, remembering
// what was reported at exactly that time.
func (po *poller) moveCutoff(updated time.Time) {
	next := &po.next
	if updated.After(po.prev.Cutoff) {
		next.Cutoff, next.AtCutoff = updated, nil
	}
	for key, at := range po.reported {
		if at.Equal(next.Cutoff) {
			next.AtCutoff = append(next.AtCutoff, key)
		}
	}
	slices.Sort(next.AtCutoff)
}

// get is a conditional GET of path (relative to the API root) into v: same
// is true when GitHub answered 304 Not Modified to the ETag given. It
// returns the ETag to send next time.
func (po *poller) get(ctx context.Context, path, etag string, v any) (string, bool, error) {
	c := po.p.author
	req, err := c.NewRequest(http.MethodGet, path, nil)
	if err != nil {
		return "", false, err
	}
	if etag != "" {
		req.Header.Set("If-None-Match", etag)
	}
	resp, err := c.Do(ctx, req, v)
	if resp != nil && resp.StatusCode == http.StatusNotModified {
		return etag, true, nil
	}
	if err != nil {
		return "", false, err
	}
	return resp.Header.Get("ETag"), false, nil
}

func (po *poller) add(ev *forgev1.Event, key string) {
	po.changes = append(po.changes, notify.Change{Event: ev, Key: key})
}

func event(t forgev1.EventType, actor string, at time.Time) *forgev1.Event {
	ev := &forgev1.Event{Type: t, Actor: actor}
	if !at.IsZero() {
		ev.OccurredAt = at.UTC().Format(time.RFC3339)
	}
	return ev
}

// state notes the artifact's state and reports a change of it.
func (po *poller) state(state string, at time.Time, actor string) {
	po.next.State = state
	if po.first || state == po.prev.State {
		return
	}
	ev := event(forgev1.EventType_EVENT_TYPE_STATE, actor, at)
	ev.State = state
	if state == "open" {
		ev.State = "reopened"
	}
	po.add(ev, "state:"+ev.State+":"+ev.OccurredAt)
}

// labels notes the labels and reports those added and removed.
func (po *poller) labels(labels []string, at time.Time) {
	po.next.Labels = labels
	if po.first {
		return
	}
	ev := event(forgev1.EventType_EVENT_TYPE_LABELS, "", at)
	for _, l := range labels {
		if !slices.Contains(po.prev.Labels, l) {
			ev.LabelsAdded = append(ev.LabelsAdded, l)
		}
	}
	for _, l := range po.prev.Labels {
		if !slices.Contains(labels, l) {
			ev.LabelsRemoved = append(ev.LabelsRemoved, l)
		}
	}
	if len(ev.LabelsAdded)+len(ev.LabelsRemoved) > 0 {
		po.add(ev, fmt.Sprintf("labels:%s:%v:%v", ev.OccurredAt, ev.LabelsAdded, ev.LabelsRemoved))
	}
}

// push notes the head commit and reports that it moved.
func (po *poller) push(sha string, at time.Time) {
	po.next.Head = sha
	if sha == po.prev.Head {
		return
	}
	// A new head has checks of its own, none read yet.
	po.next.Status, po.next.StatusETag, po.next.Runs, po.next.RunsETag, po.next.ChecksRead = checks{}, "", checks{}, "", false
	if po.first {
		return
	}
	ev := event(forgev1.EventType_EVENT_TYPE_PUSH, "", at)
	ev.HeadSha = sha
	po.add(ev, "push:"+sha)
}

// comments reports the conversation comments made since the cutoff.
func (po *poller) comments(ctx context.Context) error {
	cutoff := po.prev.Cutoff
	cs, err := collect(maxPerPage, func(o gh.ListOptions) ([]*gh.IssueComment, *gh.Response, error) {
		return po.p.author.Issues.ListComments(ctx, po.repo.owner, po.repo.name, po.n, &gh.IssueListCommentsOptions{Since: &cutoff, ListOptions: o})
	})
	if err != nil {
		return err
	}
	for _, c := range cs {
		id := strconv.FormatInt(c.GetID(), 10)
		if !po.news("comment:"+id, c.GetCreatedAt().Time) {
			continue // an older comment edited since, or one reported
		}
		ev := event(forgev1.EventType_EVENT_TYPE_COMMENT, c.GetUser().GetLogin(), c.GetCreatedAt().Time)
		ev.Body, ev.Url, ev.ArtifactId = c.GetBody(), c.GetHTMLURL(), id
		po.add(ev, "comment:"+id)
	}
	return nil
}

// reviews reports the reviews submitted, and the inline comments made,
// since the cutoff. Pending reviews are drafts only their author sees.
func (po *poller) reviews(ctx context.Context) error {
	cutoff := po.prev.Cutoff
	rs, err := collect(maxPerPage, func(o gh.ListOptions) ([]*gh.PullRequestReview, *gh.Response, error) {
		return po.p.author.PullRequests.ListReviews(ctx, po.repo.owner, po.repo.name, po.n, &o)
	})
	if err != nil {
		return err
	}
	pending := map[int64]bool{}
	for _, r := range rs {
		if r.GetState() == "PENDING" {
			pending[r.GetID()] = true
			continue
		}
		id := strconv.FormatInt(r.GetID(), 10)
		if !po.news("review:"+id, r.GetSubmittedAt().Time) {
			continue
		}
		ev := event(forgev1.EventType_EVENT_TYPE_REVIEW, r.GetUser().GetLogin(), r.GetSubmittedAt().Time)
		ev.Verdict, ev.Body, ev.Url, ev.ArtifactId = verdict(r.GetState()), r.GetBody(), r.GetHTMLURL(), id
		po.add(ev, "review:"+id)
	}
	inline, err := collect(maxPerPage, func(o gh.ListOptions) ([]*gh.PullRequestComment, *gh.Response, error) {
		return po.p.author.PullRequests.ListComments(ctx, po.repo.owner, po.repo.name, po.n, &gh.PullRequestListCommentsOptions{Since: cutoff, ListOptions: o})
	})
	if err != nil {
		return err
	}
	for _, c := range inline {
		key := "review_comment:" + strconv.FormatInt(c.GetID(), 10)
		if pending[c.GetPullRequestReviewID()] || !po.news(key, c.GetCreatedAt().Time) {
			continue
		}
		rc := reviewComment(c)
		ev := event(forgev1.EventType_EVENT_TYPE_REVIEW_COMMENT, rc.GetAuthor(), c.GetCreatedAt().Time)
		ev.Path, ev.Line, ev.Body, ev.Url = rc.GetPath(), rc.GetLine(), rc.GetBody(), c.GetHTMLURL()
		ev.ArtifactId = strconv.FormatInt(c.GetPullRequestReviewID(), 10)
		po.add(ev, key)
	}
	return nil
}

// checks reads the head commit's statuses and check runs when they may
// have changed (never read for this head, pending, or settled for
// checksRecheck polls), and reports a new roll-up. A new head starts from
// none, so its first pending or finished checks are news.
func (po *poller) checks(ctx context.Context) error {
	next := &po.next
	before := next.Status.and(next.Runs).state()
	due := !next.ChecksRead || before == "pending" || next.ChecksAge+1 >= checksRecheck
	if next.Head == "" || !due {
		next.ChecksAge++
		return nil
	}
	base := fmt.Sprintf("repos/%s/%s/commits/%s/", po.repo.owner, po.repo.name, next.Head)
	var status gh.CombinedStatus
	etag, same, err := po.get(ctx, base+"status?per_page=100", next.StatusETag, &status)
	if err != nil {
		return err
	}
	if !same {
		next.Status, next.StatusETag = statusChecks(&status), etag
	}
	var runs gh.ListCheckRunsResults
	etag, same, err = po.get(ctx, base+"check-runs?per_page=100", next.RunsETag, &runs)
	if err != nil {
		return err
	}
	if !same {
		next.Runs, next.RunsETag = runChecks(runs.CheckRuns), etag
	}
	next.ChecksRead, next.ChecksAge = true, 0
	after := next.Status.and(next.Runs).state()
	if po.first || after == before {
		return nil
	}
	ev := event(forgev1.EventType_EVENT_TYPE_CHECKS, "", po.p.now())
	ev.ChecksState, ev.HeadSha = after, next.Head
	po.checked = append(po.checked, notify.Change{Event: ev, Key: "checks:" + next.Head + ":" + after + ":" + ev.OccurredAt})
	return nil
}
