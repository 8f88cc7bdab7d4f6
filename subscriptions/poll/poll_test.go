package poll_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/forgetools/forgetools/gateway/store"
	"github.com/forgetools/forgetools/gateway/store/storetest"
	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	"github.com/forgetools/forgetools/providers/github"
	"github.com/forgetools/forgetools/providers/github/githubtest"
	"github.com/forgetools/forgetools/providers/kit"
	"github.com/forgetools/forgetools/subscriptions/feed"
	"github.com/forgetools/forgetools/subscriptions/poll"
)

const (
	token    = "ghp_pollDriverTestToken0000000000000000"
	interval = time.Minute
)

// clock is the test's time: the store, the driver and the pruning read it,
// and only the test moves it.
type clock struct{ ms atomic.Int64 }

func newClock() *clock {
	c := &clock{}
	c.ms.Store(time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC).UnixMilli())
	return c
}
func (c *clock) now() time.Time          { return time.UnixMilli(c.ms.Load()).UTC() }
func (c *clock) advance(d time.Duration) { c.ms.Add(d.Milliseconds()) }

// env is one gateway replica's view: a store on a shared database, a feed,
// and a driver polling the fake GitHub.
type env struct {
	store  *store.Store
	driver *poll.Driver
}

var githubForge = store.Forge{Provider: forgev1.ForgeProvider_FORGE_PROVIDER_GITHUB, Host: "github.com"}

func fakeGitHub(t *testing.T, clk *clock, issues, pulls int) *githubtest.Server {
	t.Helper()
	// The fake's clock (its timestamps, its rate limit reset) is the test's.
	srv := githubtest.NewChecked(t, githubtest.Options{Clock: clk.now()})
	t.Cleanup(srv.Close)
	srv.AddToken(token, "forgetools-bot")
	srv.AddRepo("acme/web", "main", "feature")
	for i := range issues {
		srv.AddIssue("acme/web", githubtest.Issue{Title: fmt.Sprintf("issue %d", i+1)})
	}
	for i := range pulls {
		branch := fmt.Sprintf("feature-%d", i)
		srv.AddBranch("acme/web", branch)
		srv.AddPull("acme/web", githubtest.Pull{Title: fmt.Sprintf("pull %d", i+1), Head: branch})
	}
	return srv
}

func replica(t *testing.T, dsn string, clk *clock, srv *githubtest.Server, name string) env {
	t.Helper()
	st, err := store.Open(context.Background(), dsn, store.Options{Now: clk.now})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	gh, err := github.New(github.Options{Options: kit.Options{APIURL: srv.APIURL(), Token: token, Now: clk.now}})
	if err != nil {
		t.Fatal(err)
	}
	d := poll.New(st, feed.New(st, feed.Options{}), []poll.Source{gh}, poll.Options{
		Interval: interval, Replica: name, Now: clk.now,
	})
	return env{store: st, driver: d}
}

func subscribe(t *testing.T, st *store.Store, account string, kind store.Kind, n uint64) store.Subscription {
	t.Helper()
	sub, err := st.Subscribe(context.Background(), store.Subscription{Account: account, Forge: githubForge, Repo: "acme/web", Kind: kind, Number: n})
	if err != nil {
		t.Fatal(err)
	}
	return sub
}

// artifactRequests counts the requests for each artifact's own endpoint
// (issues/N or pulls/N) since request index from.
func artifactRequests(srv *githubtest.Server, from int) map[string]int {
	out := map[string]int{}
	for _, r := range srv.Requests()[from:] {
		seg := strings.Split(strings.TrimPrefix(r.Path, "/repos/acme/web/"), "/")
		if len(seg) == 2 && (seg[0] == "issues" || seg[0] == "pulls") {
			out[seg[0]+"/"+seg[1]]++
		}
	}
	return out
}

// run ticks the driver(s) every tick of simulated time for one interval.
func run(t *testing.T, clk *clock, tick time.Duration, envs ...env) poll.Stats {
	t.Helper()
	var total poll.Stats
	for range interval / tick {
		var mu sync.Mutex
		var wg sync.WaitGroup
		for _, e := range envs {
			wg.Go(func() {
				st, err := e.driver.Tick(context.Background())
				if err != nil {
					t.Error(err)
				}
				mu.Lock()
				total.Polled += st.Polled
				total.Changes += st.Changes
				total.Limited += st.Limited
				mu.Unlock()
			})
		}
		wg.Wait()
		clk.advance(tick)
	}
	return total
}

// The figure the issue asks for: requests per subscribed artifact per
// interval, on a quiet forge. Every artifact is polled once per interval,
// at its own phase, with one conditional request answered 304 (plus, for a
// pull request, its settled checks every fifth interval), none counted
// against the rate limit.
func TestRequestsPerArtifactPerInterval(t *testing.T) {
	storetest.Run(t, func(t *testing.T, dsn string) {
		const issues, pulls, intervals = 10, 10, 10
		clk := newClock()
		srv := fakeGitHub(t, clk, issues, pulls)
		e := replica(t, dsn, clk, srv, "r1")
		for n := 1; n <= issues+pulls; n++ {
			kind := store.KindIssue
			if n > issues {
				kind = store.KindPullRequest
			}
			subscribe(t, e.store, "alice", kind, uint64(n))
		}
		subscribe(t, e.store, "bob", store.KindIssue, 1) // a second subscriber costs nothing

		// The first interval takes the baselines, spread over it: each new
		// watch is first due at a phase of its own (the ones due in the
		// interval's last tick are taken at the next interval's first).
		start := len(srv.Requests())
		ticksWithPolls, busiest := 0, 0
		for range 2 * 10 {
			st, err := e.driver.Tick(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if st.Polled > 0 {
				ticksWithPolls++
			}
			busiest = max(busiest, st.Polled)
			clk.advance(interval / 10)
		}
		if got := artifactRequests(srv, start); len(got) != issues+pulls || ticksWithPolls < 8 || busiest > 5 {
			t.Fatalf("first intervals: %d artifacts polled, in %d ticks, busiest tick %d (want them spread)", len(got), ticksWithPolls, busiest)
		}

		quota := srv.Quota("forgetools-bot")
		start = len(srv.Requests())
		var issueReqs, pullReqs, notModified int
		for range intervals {
			from := len(srv.Requests())
			run(t, clk, interval/10, e)
			for key, n := range artifactRequests(srv, from) {
				if n != 1 {
					t.Fatalf("%s polled %d times in one interval", key, n)
				}
			}
		}
		for _, r := range srv.Requests()[start:] {
			if strings.Contains(r.Path, "/pulls/") || strings.Contains(r.Path, "/commits/") {
				pullReqs++
			} else {
				issueReqs++
			}
			if r.Header.Get("If-None-Match") != "" {
				notModified++
			}
		}
		if used := quota - srv.Quota("forgetools-bot"); used != 0 || notModified != issueReqs+pullReqs {
			t.Fatalf("a quiet forge cost %d of the quota; %d of %d requests conditional", used, notModified, issueReqs+pullReqs)
		}
		perIssue := float64(issueReqs) / float64(issues*intervals)
		perPull := float64(pullReqs) / float64(pulls*intervals)
		t.Logf("requests per subscribed artifact per interval (%d intervals, quiet forge, all 304, 0 counted against the rate limit): issue %.2f, pull request %.2f",
			intervals, perIssue, perPull)
		if perIssue != 1 || perPull != 1.4 {
			t.Errorf("per interval: issue %.2f, pull request %.2f; want 1 and 1.4", perIssue, perPull)
		}
	})
}

// A changed pull request reaches its subscribers as events.
func TestChangesAreRecordedForSubscribers(t *testing.T) {
	storetest.Run(t, func(t *testing.T, dsn string) {
		clk := newClock()
		srv := fakeGitHub(t, clk, 0, 1)
		e := replica(t, dsn, clk, srv, "r1")
		subscribe(t, e.store, "alice", store.KindPullRequest, 1)
		run(t, clk, interval/10, e) // baseline

		srv.Review("acme/web", 1, "reviewer", "APPROVED", "")
		// alice's own comment, as the gateway posted and recorded it.
		mine := srv.Comment("acme/web", 1, "forgetools-bot", "Thanks!")
		if err := e.store.RecordOwnership(context.Background(), store.Ownership{Account: "alice", Session: "s",
			Artifact: store.Artifact{Forge: githubForge, Repo: "acme/web", Kind: store.KindPRComment, Number: 1, ID: fmt.Sprint(mine)}}); err != nil {
			t.Fatal(err)
		}
		if st := run(t, clk, interval/10, e); st.Changes != 2 {
			t.Fatalf("changes recorded: %d, want 2", st.Changes)
		}
		page, err := e.store.ReadEvents(context.Background(), store.EventQuery{Account: "alice", Session: "s", Limit: 10})
		if err != nil || len(page.Events) != 2 || page.Events[0].Own || !page.Events[1].Own {
			t.Fatalf("alice's events (the review, then her own comment): %+v, %v", page.Events, err)
		}
	})
}

// A rate limit pauses the forge's polls until it lifts, on every replica,
// then they resume.
func TestRateLimitedPollBacksOff(t *testing.T) {
	storetest.Run(t, func(t *testing.T, dsn string) {
		clk := newClock()
		srv := fakeGitHub(t, clk, 3, 0)
		e := replica(t, dsn, clk, srv, "r1")
		other := replica(t, dsn, clk, srv, "r2")
		for n := uint64(1); n <= 3; n++ {
			subscribe(t, e.store, "alice", store.KindIssue, n)
		}
		run(t, clk, interval/10, e) // baselines
		srv.SetQuota("forgetools-bot", 0)
		srv.Comment("acme/web", 1, "hubot", "ping") // every ETag moves: each poll would be counted
		srv.Comment("acme/web", 2, "hubot", "ping")
		srv.Comment("acme/web", 3, "hubot", "ping")

		st := run(t, clk, interval/10, e, other)
		if st.Limited != 1 || st.Polled != 1 {
			t.Fatalf("rate-limited interval: %+v; want one poll, then none", st)
		}
		until, err := e.store.PollBackoff(context.Background(), githubForge)
		// GitHub's x-ratelimit-reset, as go-github and the provider read it.
		if reset := srv.Clock().Add(40 * time.Minute); err != nil || !until.Equal(reset) {
			t.Fatalf("backoff until %v (%v), want GitHub's reset %v", until, err, reset)
		}
		// GitHub's reset is 40 minutes on: nothing is polled until then.
		from := len(srv.Requests())
		for clk.now().Add(interval).Before(until) {
			run(t, clk, interval/10, e, other)
		}
		if n := len(srv.Requests()) - from; n != 0 {
			t.Fatalf("%d requests during the backoff", n)
		}
		srv.SetQuota("forgetools-bot", githubtest.DefaultQuota)
		// Two intervals: the three come due again at their own phases.
		st = run(t, clk, interval/10, e, other)
		if more := run(t, clk, interval/10, e, other); true {
			st.Polled, st.Changes, st.Limited = st.Polled+more.Polled, st.Changes+more.Changes, st.Limited+more.Limited
		}
		if st.Polled < 3 || st.Changes != 3 || st.Limited != 0 {
			t.Fatalf("after the backoff: %+v; want the three polled and their comments recorded", st)
		}
	})
}

// Once nothing subscribes to an artifact, it is not polled again.
func TestUnsubscribedArtifactsAreNotPolled(t *testing.T) {
	clk := newClock()
	srv := fakeGitHub(t, clk, 2, 0)
	e := replica(t, storetest.SQLite(t), clk, srv, "r1")
	gone := subscribe(t, e.store, "alice", store.KindIssue, 1)
	subscribe(t, e.store, "alice", store.KindIssue, 2)
	run(t, clk, interval/10, e)
	if err := e.store.Unsubscribe(context.Background(), "alice", gone.ID); err != nil {
		t.Fatal(err)
	}
	from := len(srv.Requests())
	run(t, clk, interval/10, e)
	run(t, clk, interval/10, e)
	if got := artifactRequests(srv, from); got["issues/1"] != 0 || got["issues/2"] != 2 {
		t.Fatalf("after unsubscribing #1: %v", got)
	}
}

// Two gateway replicas on one PostgreSQL: each subscribed artifact is polled
// once per interval, not twice.
func TestTwoReplicasPollEachArtifactOncePerInterval(t *testing.T) {
	dsn := storetest.Postgres(t)
	const artifacts = 12
	clk := newClock()
	srv := fakeGitHub(t, clk, artifacts, 0)
	a := replica(t, dsn, clk, srv, "replica-a")
	b := replica(t, dsn, clk, srv, "replica-b")
	for n := uint64(1); n <= artifacts; n++ {
		subscribe(t, a.store, "alice", store.KindIssue, n)
	}
	run(t, clk, interval/10, a, b) // the baselines, spread over the interval
	for i := range 5 {
		from := len(srv.Requests())
		run(t, clk, interval/10, a, b)
		got := artifactRequests(srv, from)
		for n := 1; n <= artifacts; n++ {
			if c := got[fmt.Sprintf("issues/%d", n)]; c != 1 {
				t.Fatalf("interval %d: issues/%d polled %d times by two replicas", i, n, c)
			}
		}
	}
}
