package github

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	gh "github.com/google/go-github/v84/github"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	"github.com/forgetools/forgetools/toolserver/notify"
)

// GitHub's webhooks, as the webhook receiver's source (it satisfies
// webhook.Source, which internal/cli wires it in as): the signature
// check, then what each event the gateway subscribes to means for an
// issue or pull request. Events that say nothing a subscriber hears of are
// acknowledged and ignored; so are commit statuses, which name a commit
// but no pull request.

// Authenticate checks X-Hub-Signature-256 (sha256=<hex HMAC of the body
// under the hook's secret>) in constant time and returns X-GitHub-Delivery.
func (p *Provider) Authenticate(h http.Header, body, secret []byte) (string, error) {
	sig := h.Get("X-Hub-Signature-256")
	if sig == "" {
		return "", fmt.Errorf("%w (no X-Hub-Signature-256 header)", notify.ErrUnsigned)
	}
	got, err := hex.DecodeString(strings.TrimPrefix(sig, "sha256="))
	if err != nil || !strings.HasPrefix(sig, "sha256=") {
		return "", fmt.Errorf("%w (X-Hub-Signature-256 is not sha256=<hex>)", notify.ErrBadSignature)
	}
	mac := hmac.New(sha256.New, secret)
	mac.Write(body)
	if !hmac.Equal(got, mac.Sum(nil)) {
		return "", notify.ErrBadSignature
	}
	return h.Get("X-GitHub-Delivery"), nil
}

// Read maps an authenticated delivery (its X-GitHub-Event) onto changes.
func (p *Provider) Read(ctx context.Context, h http.Header, body []byte) (notify.Delivery, error) {
	var d notify.Delivery
	var where struct {
		Repository struct {
			FullName string `json:"full_name"`
		} `json:"repository"`
	}
	if err := json.Unmarshal(body, &where); err != nil {
		return d, fmt.Errorf("the delivery is not JSON: %v", err)
	}
	d.Repo = where.Repository.FullName
	event, err := gh.ParseWebHook(h.Get("X-GitHub-Event"), body)
	if err != nil {
		return d, nil // an event no subscriber hears of
	}
	switch e := event.(type) {
	case *gh.IssueCommentEvent:
		d.Reports = commentReport(e)
	case *gh.IssuesEvent:
		d.Reports = itemReport(notify.KindIssue, e.GetIssue().GetNumber(), e.GetAction(), e.GetSender().GetLogin(),
			e.GetIssue().GetUpdatedAt().Time, e.GetIssue().GetState(), e.GetLabel().GetName(), "")
	case *gh.PullRequestEvent:
		pr := e.GetPullRequest()
		state := pr.GetState()
		if pr.GetMerged() {
			state = "merged"
		}
		d.Reports = itemReport(notify.KindPullRequest, e.GetNumber(), e.GetAction(), e.GetSender().GetLogin(),
			pr.GetUpdatedAt().Time, state, e.GetLabel().GetName(), pr.GetHead().GetSHA())
	case *gh.PullRequestReviewEvent:
		d.Reports = reviewReport(e)
	case *gh.PullRequestReviewCommentEvent:
		d.Reports = reviewCommentReport(e)
	case *gh.CheckSuiteEvent:
		// A delivery may omit the suite or run; their pull requests are
		// read only when it is there.
		if cs := e.GetCheckSuite(); cs != nil && e.GetAction() == "completed" {
			d.Reports = p.checksReports(ctx, d.Repo, cs.PullRequests)
		}
	case *gh.CheckRunEvent:
		if cr := e.GetCheckRun(); cr != nil {
			d.Reports = p.checksReports(ctx, d.Repo, cr.PullRequests)
		}
	}
	return d, nil
}

func report(kind notify.Kind, n int, changes ...notify.Change) []notify.Report {
	if len(changes) == 0 {
		return nil
	}
	return []notify.Report{{Kind: kind, Number: uint64(n), Changes: changes}}
}

func commentReport(e *gh.IssueCommentEvent) []notify.Report {
	if e.GetAction() != "created" {
		return nil
	}
	c := e.GetComment()
	id := strconv.FormatInt(c.GetID(), 10)
	ev := event(forgev1.EventType_EVENT_TYPE_COMMENT, c.GetUser().GetLogin(), c.GetCreatedAt().Time)
	ev.Body, ev.Url, ev.ArtifactId = c.GetBody(), c.GetHTMLURL(), id
	kind := notify.KindIssue
	// IsPullRequest has a value receiver: a delivery without an issue
	// would dereference nil.
	if is := e.GetIssue(); is != nil && is.IsPullRequest() {
		kind = notify.KindPullRequest
	}
	return report(kind, e.GetIssue().GetNumber(), notify.Change{Event: ev, Key: "comment:" + id})
}

// itemReport is what an issues or pull_request event's action means:
// closed (or merged), reopened, a label added or removed, new commits.
func itemReport(kind notify.Kind, n int, action, sender string, at time.Time, state, label, head string) []notify.Report {
	switch action {
	case "closed", "reopened":
		ev := event(forgev1.EventType_EVENT_TYPE_STATE, sender, at)
		ev.State = state
		if action == "reopened" {
			ev.State = "reopened"
		}
		return report(kind, n, notify.Change{Event: ev, Key: "state:" + ev.State + ":" + ev.OccurredAt})
	case "labeled", "unlabeled":
		ev := event(forgev1.EventType_EVENT_TYPE_LABELS, sender, at)
		if action == "labeled" {
			ev.LabelsAdded = []string{label}
		} else {
			ev.LabelsRemoved = []string{label}
		}
		return report(kind, n, notify.Change{Event: ev, Key: "labels:" + action + ":" + label + ":" + ev.OccurredAt})
	case "synchronize":
		ev := event(forgev1.EventType_EVENT_TYPE_PUSH, sender, at)
		ev.HeadSha = head
		return report(kind, n, notify.Change{Event: ev, Key: "push:" + head})
	}
	return nil
}

func reviewReport(e *gh.PullRequestReviewEvent) []notify.Report {
	r := e.GetReview()
	if e.GetAction() != "submitted" || strings.EqualFold(r.GetState(), "pending") {
		return nil
	}
	id := strconv.FormatInt(r.GetID(), 10)
	ev := event(forgev1.EventType_EVENT_TYPE_REVIEW, r.GetUser().GetLogin(), r.GetSubmittedAt().Time)
	ev.Verdict, ev.Body, ev.Url, ev.ArtifactId = verdict(r.GetState()), r.GetBody(), r.GetHTMLURL(), id
	return report(notify.KindPullRequest, e.GetPullRequest().GetNumber(), notify.Change{Event: ev, Key: "review:" + id})
}

func reviewCommentReport(e *gh.PullRequestReviewCommentEvent) []notify.Report {
	if e.GetAction() != "created" {
		return nil
	}
	c := e.GetComment()
	rc := reviewComment(c)
	ev := event(forgev1.EventType_EVENT_TYPE_REVIEW_COMMENT, rc.GetAuthor(), c.GetCreatedAt().Time)
	ev.Path, ev.Line, ev.Body, ev.Url = rc.GetPath(), rc.GetLine(), rc.GetBody(), c.GetHTMLURL()
	ev.ArtifactId = strconv.FormatInt(c.GetPullRequestReviewID(), 10)
	key := "review_comment:" + strconv.FormatInt(c.GetID(), 10)
	return report(notify.KindPullRequest, e.GetPullRequest().GetNumber(), notify.Change{Event: ev, Key: key})
}

// checksReports reads the roll-up of each pull request a check event
// names (a check run tells of itself, not of the others on the commit).
func (p *Provider) checksReports(ctx context.Context, fullName string, prs []*gh.PullRequest) []notify.Report {
	repo, err := parseRepo(fullName)
	if err != nil {
		return nil
	}
	var out []notify.Report
	for _, pr := range prs {
		sha := pr.GetHead().GetSHA()
		state := p.checks(ctx, repo, sha)
		if state == "" {
			continue
		}
		ev := event(forgev1.EventType_EVENT_TYPE_CHECKS, "", p.now())
		ev.ChecksState, ev.HeadSha = state, sha
		out = append(out, report(notify.KindPullRequest, pr.GetNumber(), notify.Change{Event: ev, Key: "checks:" + sha + ":" + state})...)
	}
	return out
}
