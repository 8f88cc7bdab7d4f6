package webhook_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/forgetools/forgetools/enumname"
	"github.com/forgetools/forgetools/gateway/store"
	"github.com/forgetools/forgetools/gateway/store/storetest"
	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	"github.com/forgetools/forgetools/providers/github"
	"github.com/forgetools/forgetools/providers/github/githubtest"
	"github.com/forgetools/forgetools/providers/kit"
	"github.com/forgetools/forgetools/subscriptions"
	"github.com/forgetools/forgetools/subscriptions/feed"
	"github.com/forgetools/forgetools/subscriptions/webhook"
)

const (
	token  = "ghp_webhookTestToken00000000000000000000"
	secret = "It's a Secret to Everybody"
)

var githubForge = store.Forge{Provider: forgev1.ForgeProvider_FORGE_PROVIDER_GITHUB, Host: "github.com"}

type env struct {
	gh    *githubtest.Server
	store *store.Store
	url   string // where the receiver listens
}

// setup is a fake GitHub with acme/web (issue #1, pull request #2), a store
// where alice subscribes to both (under another spelling of the name), and
// the receiver of GitHub's webhooks.
func setup(t *testing.T, dsn string) env {
	t.Helper()
	gh := githubtest.NewChecked(t, githubtest.Options{})
	t.Cleanup(gh.Close)
	gh.AddToken(token, "forgetools-bot")
	gh.AddRepo("acme/web", "main", "feature")
	gh.AddIssue("acme/web", githubtest.Issue{Title: "Crash", Labels: []string{"bug"}})
	gh.AddPull("acme/web", githubtest.Pull{Title: "Fix", Head: "feature"})
	st, err := store.Open(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	p, err := github.New(github.Options{Options: kit.Options{APIURL: gh.APIURL(), Token: token}})
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle(webhook.Path(p.Ref()), webhook.Handler(st, feed.New(st, feed.Options{}), p, []byte(secret), nil))
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	for _, sub := range []store.Subscription{
		{Account: "alice", Forge: githubForge, Repo: "Acme/Web", Kind: store.KindIssue, Number: 1},
		{Account: "alice", Forge: githubForge, Repo: "Acme/Web", Kind: store.KindPullRequest, Number: 2},
	} {
		if _, err := st.Subscribe(context.Background(), sub); err != nil {
			t.Fatal(err)
		}
	}
	return env{gh: gh, store: st, url: srv.URL + webhook.Path(p.Ref())}
}

// events are alice's unacknowledged events as "#number type:detail".
func (e env) events(t *testing.T) []string {
	t.Helper()
	page, err := e.store.ReadEvents(context.Background(), store.EventQuery{Account: "alice", Session: "s", Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, se := range page.Events {
		ev, err := subscriptions.Decode(se)
		if err != nil {
			t.Fatal(err)
		}
		detail := ev.GetActor()
		for _, d := range []string{ev.GetState(), ev.GetVerdict(), ev.GetChecksState(), strings.Join(ev.GetLabelsAdded(), ","), ev.GetPath()} {
			if d != "" {
				detail = d
			}
		}
		out = append(out, "#"+strconv.FormatUint(ev.GetNumber(), 10)+" "+enumname.Of(ev.GetType())+":"+detail)
	}
	return out
}

// Signed deliveries become events for the subscribers, whatever the case of
// the repository name they subscribed with.
func TestSignedDeliveriesAreRecorded(t *testing.T) {
	storetest.Run(t, func(t *testing.T, dsn string) {
		e := setup(t, dsn)
		if ping := e.gh.AddHook("acme/web", e.url, secret); ping.Status != http.StatusOK {
			t.Fatalf("ping: %d %s", ping.Status, ping.Answer)
		}
		e.gh.Comment("acme/web", 1, "hubot", "Me too.")
		e.gh.SetLabels("acme/web", 1, "bug", "p1")
		e.gh.SetState("acme/web", 1, "closed")
		e.gh.Review("acme/web", 2, "reviewer", "CHANGES_REQUESTED", "Add a test.", githubtest.Inline{Path: "fix.go", Line: 9, Body: "Why?"})
		e.gh.Push("acme/web", 2)
		e.gh.SetCheckRun("acme/web", 2, "build", "in_progress", "")
		e.gh.SetCheckRun("acme/web", 2, "build", "completed", "success")
		e.gh.Merge("acme/web", 2)
		for _, d := range e.gh.Deliveries() {
			if d.Status != http.StatusOK {
				t.Fatalf("delivery %s (%s): %d %s", d.ID, d.Event, d.Status, d.Answer)
			}
		}
		want := []string{
			"#1 comment:hubot", "#1 labels:p1", "#1 state:closed",
			"#2 review:request_changes", "#2 review_comment:fix.go", "#2 push:octocat",
			"#2 checks:pending", "#2 checks:success", "#2 state:merged",
		}
		if got := e.events(t); strings.Join(got, "|") != strings.Join(want, "|") {
			t.Fatalf("events:\n got %v\nwant %v", got, want)
		}
	})
}

// A bad or missing signature is refused, a replayed delivery id is
// acknowledged and ignored, and nothing unsigned is ever stored.
func TestUnsignedAndReplayedDeliveries(t *testing.T) {
	storetest.Run(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		e := setup(t, dsn)
		if ping := e.gh.AddHook("acme/web", e.url, "not the secret"); ping.Status != http.StatusUnauthorized ||
			!strings.Contains(ping.Answer, "does not match") {
			t.Fatalf("wrongly signed ping: %d %s", ping.Status, ping.Answer)
		}
		e.gh.Comment("acme/web", 1, "mallory", "Run rm -rf /.")
		forged := e.gh.Deliveries()[1]
		if forged.Status != http.StatusUnauthorized {
			t.Fatalf("wrongly signed comment: %d %s", forged.Status, forged.Answer)
		}
		// The same body with no signature at all.
		req, _ := http.NewRequest(http.MethodPost, e.url, strings.NewReader(string(forged.Body)))
		req.Header.Set("X-GitHub-Event", "issue_comment")
		req.Header.Set("X-GitHub-Delivery", "f0f0f0f0-0000-11ef-8e3c-000000000000")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusUnauthorized {
			t.Fatalf("unsigned delivery: %d", resp.StatusCode)
		}
		if got := e.events(t); len(got) != 0 {
			t.Fatalf("unsigned deliveries stored events: %v", got)
		}
		for _, d := range e.gh.Deliveries() {
			if seen, err := e.store.Delivered(ctx, githubForge, d.ID); err != nil || seen {
				t.Fatalf("an unsigned delivery's id was stored: %s %v", d.ID, err)
			}
		}
		// Nor did a forged ping make the poll driver stand down.
		if err := e.store.SyncWatches(ctx, githubForge, func(store.Artifact) time.Time { return time.Now().Add(-time.Second) }); err != nil {
			t.Fatal(err)
		}
		if ws, err := e.store.ClaimWatches(ctx, store.Claim{Forge: githubForge, Owner: "r", Interval: time.Minute, Lease: time.Minute, Covered: time.Hour, Limit: 10}); err != nil || len(ws) != 2 {
			t.Fatalf("watches claimable after forged deliveries: %d %v; want both", len(ws), err)
		}

		e.gh.AddHook("acme/web", e.url, secret)
		e.gh.Comment("acme/web", 1, "hubot", "Me too.")
		all := e.gh.Deliveries()
		real := all[len(all)-1]
		if real.Status != http.StatusOK {
			t.Fatalf("signed comment: %d %s", real.Status, real.Answer)
		}
		again := e.gh.Redeliver(real.ID)
		if again.Status != http.StatusOK || again.Answer != "already delivered" {
			t.Fatalf("redelivery: %d %s", again.Status, again.Answer)
		}
		if got := e.events(t); strings.Join(got, "|") != "#1 comment:hubot" {
			t.Fatalf("after a redelivery: %v", got)
		}
	})
}

// A signed delivery from a repository tells the poll driver to leave its
// artifacts to the webhooks.
func TestSignedDeliveryCoversTheRepository(t *testing.T) {
	ctx := context.Background()
	e := setup(t, storetest.SQLite(t))
	if err := e.store.SyncWatches(ctx, githubForge, func(store.Artifact) time.Time { return time.Now().Add(-time.Second) }); err != nil {
		t.Fatal(err)
	}
	e.gh.AddHook("acme/web", e.url, secret)
	ws, err := e.store.ClaimWatches(ctx, store.Claim{Forge: githubForge, Owner: "r", Interval: time.Minute, Lease: time.Minute, Covered: time.Hour, Limit: 10})
	if err != nil || len(ws) != 0 {
		t.Fatalf("claimed %d watches of a repository whose webhooks arrive (%v)", len(ws), err)
	}
}

func TestReceiverRefusesOtherMethods(t *testing.T) {
	e := setup(t, storetest.SQLite(t))
	resp, err := http.Get(e.url)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMethodNotAllowed || resp.Header.Get("Allow") != http.MethodPost {
		t.Fatalf("GET: %d Allow %q", resp.StatusCode, resp.Header.Get("Allow"))
	}
}
