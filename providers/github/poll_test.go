package github

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/forgetools/forgetools/enumname"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	optionsv1 "github.com/forgetools/forgetools/gen/forgetools/options/v1"
	"github.com/forgetools/forgetools/providers/github/githubtest"
	"github.com/forgetools/forgetools/toolserver"
	"github.com/forgetools/forgetools/toolserver/notify"
)

// pollFake is the stateful fake (see stateful) with acme/web too: issue #1
// and pull request #2 (from feature, by octocat), and the provider
// polling it.
func pollFake(t *testing.T) (*githubtest.Server, *Provider) {
	t.Helper()
	srv, p := stateful(t)
	srv.AddRepo("acme/web", "main", "feature")
	srv.AddIssue("acme/web", githubtest.Issue{Title: "Crash", Labels: []string{"bug"}})
	srv.AddPull("acme/web", githubtest.Pull{Title: "Fix the crash", Head: "feature"})
	return srv, p
}

// pollRun polls one artifact as the driver would, keeping its state.
type pollRun struct {
	t     *testing.T
	p     *Provider
	srv   *githubtest.Server
	tgt   notify.PollTarget
	state []byte
}

func newPollRun(t *testing.T, srv *githubtest.Server, p *Provider, kind notify.Kind, n uint64) *pollRun {
	return &pollRun{t: t, p: p, srv: srv, tgt: notify.PollTarget{Repo: "acme/web", Kind: kind, Number: n, Since: srv.Clock()}}
}

// poll polls once and returns the changes (as "type:detail") and the
// requests it sent (as "status path").
func (r *pollRun) poll() (changes, requests []string) {
	r.t.Helper()
	before := len(r.srv.Requests())
	res, err := r.p.Poll(context.Background(), r.tgt, r.state)
	if err != nil {
		r.t.Fatalf("Poll: %v", err)
	}
	r.state = res.State
	for _, c := range res.Changes {
		ev := c.Event
		detail := ev.GetActor()
		switch {
		case ev.GetState() != "":
			detail = ev.GetState()
		case ev.GetVerdict() != "":
			detail += "/" + ev.GetVerdict()
		case ev.GetPath() != "":
			detail += "/" + ev.GetPath()
		case len(ev.GetLabelsAdded())+len(ev.GetLabelsRemoved()) > 0:
			detail = fmt.Sprintf("+%v-%v", ev.GetLabelsAdded(), ev.GetLabelsRemoved())
		case ev.GetChecksState() != "":
			detail = ev.GetChecksState()
		case ev.GetHeadSha() != "":
			detail = "new head"
		}
		changes = append(changes, enumname.Of(ev.GetType())+":"+detail)
	}
	for _, q := range r.srv.Requests()[before:] {
		requests = append(requests, q.Method+" "+q.Path+" "+q.Header.Get("If-None-Match"))
	}
	return changes, requests
}

// An unchanged artifact costs one conditional request a poll, answered 304
// and not counted against the rate limit; a pull request's settled checks
// are read again every checksRecheck polls, conditionally too.
func TestPollUnchangedCostsOneConditionalRequest(t *testing.T) {
	srv, p := pollFake(t)
	for _, tc := range []struct {
		kind     notify.Kind
		n        uint64
		baseline int // requests of the first poll
		perPolls int // requests of the next checksRecheck*2 polls
	}{
		// Issue: the issue, its comments.
		{notify.KindIssue, 1, 2, 2 * checksRecheck},
		// Pull request: the pull, comments, reviews, inline comments, status,
		// check runs; then one a poll, plus status and check runs every
		// checksRecheck-th.
		{notify.KindPullRequest, 2, 6, 2*checksRecheck + 2*2},
	} {
		r := newPollRun(t, srv, p, tc.kind, tc.n)
		changes, reqs := r.poll()
		if len(changes) != 0 || len(reqs) != tc.baseline {
			t.Fatalf("%s baseline: changes %v, %d requests %v", tc.kind, changes, len(reqs), reqs)
		}
		quota := srv.Quota("forgetools-bot")
		total := 0
		for i := range 2 * checksRecheck {
			changes, reqs := r.poll()
			if len(changes) != 0 {
				t.Fatalf("%s poll %d of an unchanged artifact: changes %v", tc.kind, i+1, changes)
			}
			for _, q := range reqs {
				if !strings.HasPrefix(strings.Fields(q)[2], `W/"`) {
					t.Fatalf("%s poll %d sent an unconditional request: %s", tc.kind, i+1, q)
				}
			}
			total += len(reqs)
		}
		if total != tc.perPolls {
			t.Errorf("%s: %d requests in %d polls, want %d", tc.kind, total, 2*checksRecheck, tc.perPolls)
		}
		if got := srv.Quota("forgetools-bot"); got != quota {
			t.Errorf("%s: the 304s cost %d of the quota", tc.kind, quota-got)
		}
		t.Logf("%s: %.1f requests a poll while unchanged, all 304, none counted", tc.kind, float64(total)/float64(2*checksRecheck))
	}
}

// Everything that happens to a pull request becomes an event, in order.
func TestPollReportsPullRequestChanges(t *testing.T) {
	srv, p := pollFake(t)
	r := newPollRun(t, srv, p, notify.KindPullRequest, 2)
	srv.Comment("acme/web", 2, "hubot", "Before the baseline: already news, made after the subscription.")
	if changes, _ := r.poll(); strings.Join(changes, " ") != "comment:hubot" {
		t.Fatalf("baseline: %v", changes)
	}

	srv.Review("acme/web", 2, "reviewer", "CHANGES_REQUESTED", "Needs a test.", githubtest.Inline{Path: "crash.go", Line: 3, Body: "Nil here."})
	srv.Comment("acme/web", 2, "octocat", "On it.")
	srv.SetLabels("acme/web", 2, "needs-test")
	srv.Push("acme/web", 2)
	srv.SetCheckRun("acme/web", 2, "build", "in_progress", "")
	changes, _ := r.poll()
	want := "review:reviewer/request_changes review_comment:reviewer/crash.go comment:octocat labels:+[needs-test]-[] push:new head checks:pending"
	if got := strings.Join(changes, " "); got != want {
		t.Fatalf("changes:\n got %s\nwant %s", got, want)
	}

	// Checks finish without moving the pull request: the pending roll-up is
	// read again on the next poll.
	srv.SetCheckRun("acme/web", 2, "build", "completed", "failure")
	if changes, _ := r.poll(); strings.Join(changes, " ") != "checks:failure" {
		t.Fatalf("after CI: %v", changes)
	}
	// A re-run that passes is seen within checksRecheck polls.
	srv.SetCheckRun("acme/web", 2, "build", "completed", "success")
	var seen []string
	for range checksRecheck {
		changes, _ := r.poll()
		seen = append(seen, changes...)
	}
	if strings.Join(seen, " ") != "checks:success" {
		t.Fatalf("after a re-run: %v", seen)
	}
	srv.Merge("acme/web", 2)
	if changes, _ := r.poll(); strings.Join(changes, " ") != "state:merged" {
		t.Fatalf("after the merge: %v", changes)
	}
	if changes, _ := r.poll(); len(changes) != 0 {
		t.Fatalf("a second poll reported again: %v", changes)
	}
}

func TestPollReportsIssueChanges(t *testing.T) {
	srv, p := pollFake(t)
	srv.Comment("acme/web", 1, "hubot", "Made before the subscription.")
	r := newPollRun(t, srv, p, notify.KindIssue, 1)
	r.tgt.Since = r.tgt.Since.Add(time.Hour)                // the watch began after that comment
	srv.Comment("acme/web", 1, "octocat", "Still crashes.") // also before Since (the fake's clock ticks in seconds)
	if changes, _ := r.poll(); len(changes) != 0 {
		t.Fatalf("baseline reported what predates the watch: %v", changes)
	}
	srv.SetState("acme/web", 1, "closed")
	if changes, _ := r.poll(); strings.Join(changes, " ") != "state:closed" {
		t.Fatalf("closed: %v", changes)
	}
	srv.SetState("acme/web", 1, "open")
	srv.SetLabels("acme/web", 1)
	if changes, _ := r.poll(); strings.Join(changes, " ") != "state:reopened labels:+[]-[bug]" {
		t.Fatalf("reopened: %v", changes)
	}
}

// A rate limit is resource_exhausted with GitHub's reset as the wait, which
// the driver backs off by.
func TestPollRateLimited(t *testing.T) {
	srv, p := pollFake(t)
	r := newPollRun(t, srv, p, notify.KindIssue, 1)
	r.poll()
	srv.SetQuota("forgetools-bot", 0)
	srv.Comment("acme/web", 1, "hubot", "ping")
	_, err := p.Poll(context.Background(), r.tgt, r.state)
	e, ok := toolserver.AsError(err)
	if !ok || e.Code != optionsv1.ErrorCode_ERROR_CODE_RESOURCE_EXHAUSTED || e.RetryAfter <= 0 {
		t.Fatalf("rate-limited poll: %v", err)
	}
}

func TestWatchChecksTheKind(t *testing.T) {
	_, p := pollFake(t)
	for _, tc := range []struct {
		kind gatewayv1.SubscriptionKind
		n    uint64
		want string
	}{
		{gatewayv1.SubscriptionKind_SUBSCRIPTION_KIND_ISSUE, 1, ""},
		{gatewayv1.SubscriptionKind_SUBSCRIPTION_KIND_PULL_REQUEST, 2, ""},
		{gatewayv1.SubscriptionKind_SUBSCRIPTION_KIND_ISSUE, 2, "is a pull request"},
		{gatewayv1.SubscriptionKind_SUBSCRIPTION_KIND_PULL_REQUEST, 1, "is an issue"},
		{gatewayv1.SubscriptionKind_SUBSCRIPTION_KIND_ISSUE, 9, "Not Found"},
	} {
		err := p.Watch(context.Background(), toolserver.Call{}, &gatewayv1.SubscribeRequest{Repo: "acme/web", Kind: tc.kind, Number: tc.n})
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("Watch(%s #%d) = %v, want %q", tc.kind, tc.n, err, tc.want)
		}
	}
}
