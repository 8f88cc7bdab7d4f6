package server_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"connectrpc.com/connect"

	"github.com/forgetools/forgetools/gateway"
	"github.com/forgetools/forgetools/gateway/server"
	"github.com/forgetools/forgetools/gateway/store"
	"github.com/forgetools/forgetools/gateway/store/storetest"
	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/providers/local"
	"github.com/forgetools/forgetools/subscriptions"
	"github.com/forgetools/forgetools/subscriptions/feed"
)

// decisionSecret is a credential an operator pastes into a reason by
// mistake: the decision event must not carry it.
const decisionSecret = "ghp_Z1yX2wV3uT4sR5qP6oN7mL8kJ9iH0gF1eD2c"

// watched is the gated gateway served on session sockets with the event
// feed's WaitEvents RPC beside the forge table, as `forgetools serve`
// wires it.
type watched struct {
	*localGateway
	svc   *gateway.Service
	clock *clock
}

func serveWatched(t *testing.T, dsn string) *watched {
	t.Helper()
	ctx := context.Background()
	log := slog.New(slog.DiscardHandler)
	c := &clock{}
	st, err := store.Open(ctx, dsn, store.Options{Logger: log, Now: c.now})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	fd := feed.New(st, feed.Options{Logger: log})
	t.Cleanup(fd.Close)
	forge, err := local.New(ctx, st.DB(), local.Options{Dialect: string(st.Dialect()), Logger: log, GitDir: t.TempDir(), Recorder: fd})
	if err != nil {
		t.Fatal(err)
	}
	svc, err := gateway.New(gateway.Config{
		Accounts: gatedAccounts,
		Forges:   []gateway.Forge{{Provider: subscriptions.Serve(forge, st)}},
		Store:    st, State: subscriptions.State(st), Wake: fd.Wake, Logger: log,
		ApprovalExpiry: time.Hour, Redact: []string{decisionSecret},
	})
	if err != nil {
		t.Fatal(err)
	}
	path, h := fd.Handler(gateway.CallerFrom)
	dir := listenSocketsWith(t, svc, server.Options{Logger: log, Handlers: map[string]http.Handler{path: h}})
	return &watched{localGateway: &localGateway{store: st, dir: dir}, svc: svc, clock: c}
}

var streamInLine = regexp.MustCompile(`watch forge_get_events \(subscription ([0-9a-f-]+)\)`)

// parkOn parks req on the agent's socket and returns the approval id and
// the approval stream the parked line names.
func (w *watched) parkOn(t *testing.T, req *gatewayv1.ForgeCallRequest) (id, stream string) {
	t.Helper()
	res := w.call(t, "agent", req)
	id = parkedID(t, res)
	m := streamInLine.FindStringSubmatch(res.GetError().GetMessage())
	if m == nil {
		t.Fatalf("the parked line names no stream to watch: %q", res.GetError().GetMessage())
	}
	return id, m[1]
}

// waitFor waits on the agent's WaitEvents (after the cursor given) while
// decide runs in another goroutine, and returns what woke it.
func (w *watched) waitFor(t *testing.T, after *uint64, decide func() error) *gatewayv1.WaitEventsResponse {
	t.Helper()
	type answer struct {
		res *gatewayv1.WaitEventsResponse
		err error
	}
	woke := make(chan answer, 1)
	go func() {
		res, err := w.client("agent").WaitEvents(context.Background(), connect.NewRequest(&gatewayv1.WaitEventsRequest{After: after, TimeoutMs: 120_000}))
		if err != nil {
			woke <- answer{err: err}
			return
		}
		woke <- answer{res: res.Msg}
	}()
	decided := make(chan error, 1)
	go func() { decided <- decide() }()
	if err := <-decided; err != nil {
		t.Fatalf("decision: %v", err)
	}
	a := <-woke
	if a.err != nil {
		t.Fatalf("WaitEvents: %v", a.err)
	}
	return a.res
}

// events reads the agent's events (acknowledging after, when set).
func (w *watched) events(t *testing.T, sub string, after *uint64) *forgev1.EventList {
	t.Helper()
	res := w.call(t, "agent", getEvents(sub, after))
	if res.GetError() != nil {
		t.Fatalf("forge_get_events: %v", res.GetError())
	}
	return res.GetEvents()
}

// decision is the one approval event of a page about approval id.
func decision(t *testing.T, l *forgev1.EventList, id string) *forgev1.Event {
	t.Helper()
	var found []*forgev1.Event
	for _, e := range l.GetEvents() {
		if e.GetArtifactId() == id {
			found = append(found, e)
		}
	}
	if len(found) != 1 {
		t.Fatalf("%d events about approval %s in %v", len(found), id, l)
	}
	return found[0]
}

func branch(name string) *gatewayv1.ForgeCallRequest {
	return &gatewayv1.ForgeCallRequest{Call: &gatewayv1.ForgeCallRequest_CreateBranch{CreateBranch: &gatewayv1.CreateBranchRequest{Repo: "acme/web", Branch: name}}}
}

// A decision on a parked call is an event of the parking account's
// approval stream: the session that parked a push waits on WaitEvents
// (it subscribed to nothing), an operator approves in another goroutine,
// the wait wakes naming the stream the parked line named, forge_get_events
// shows the decision with the approval id, and the repeated call returns
// the real result. The same for a denial with its (redacted) reason, for
// an approval an operator finds expired and for one the expiry sweep
// finds. Reading the decisions taints nothing.
func TestDecisionsAreEventsOfTheParkingSession(t *testing.T) {
	storetest.Run(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		w := serveWatched(t, dsn)
		w.call(t, "seed", branch("seeded"))

		yes, stream := w.parkOn(t, branch("approved"))
		woke := w.waitFor(t, nil, func() error {
			_, err := w.svc.Approve(ctx, yes, "ops", "looks right")
			return err
		})
		if !slices.Contains(woke.GetSubscriptionIds(), stream) || woke.GetCursor() == 0 {
			t.Fatalf("WaitEvents woke with %v, want stream %s", woke, stream)
		}
		page := w.events(t, "", nil)
		ev := decision(t, page, yes)
		if ev.GetSubscriptionId() != stream || ev.GetKind() != "approval" || ev.GetType() != forgev1.EventType_EVENT_TYPE_STATE ||
			ev.GetState() != "approved" || ev.GetRepo() != "acme/web" || ev.GetOccurredAt() == "" {
			t.Fatalf("approval event = %v", ev)
		}
		for _, want := range []string{yes, "forge_create_branch", "operator ops", "looks right", "Call again with the same arguments"} {
			if !strings.Contains(ev.GetBody(), want) {
				t.Errorf("approval event body %q lacks %q", ev.GetBody(), want)
			}
		}
		if res := w.call(t, "agent", branch("approved")); res.GetError() != nil || res.GetBranch().GetBranch() != "approved" {
			t.Fatalf("the approved call repeated answered %v", res)
		}

		// The denial, after the approval was acknowledged.
		next := page.GetNextCursor()
		no, again := w.parkOn(t, branch("denied"))
		if again != stream {
			t.Fatalf("the second park names stream %s, the first %s", again, stream)
		}
		woke = w.waitFor(t, &next, func() error {
			_, err := w.svc.Deny(ctx, no, "ops", "not this sprint; token "+decisionSecret)
			return err
		})
		if !slices.Contains(woke.GetSubscriptionIds(), stream) || woke.GetCursor() <= next {
			t.Fatalf("WaitEvents after %d woke with %v", next, woke)
		}
		page = w.events(t, stream, &next)
		ev = decision(t, page, no)
		if ev.GetState() != "denied" || !strings.Contains(ev.GetBody(), "not this sprint") || !strings.Contains(ev.GetBody(), "operator ops denied forge_create_branch on acme/web") {
			t.Fatalf("denial event = %v", ev)
		}
		if strings.Contains(ev.String(), decisionSecret) {
			t.Fatalf("the denial event carries the credential: %v", ev)
		}
		wantError(t, w.call(t, "agent", branch("denied")), gatewayv1.ErrorCode_ERROR_CODE_PERMISSION_DENIED, "not this sprint")

		// An approval an operator finds expired is announced as such.
		next = page.GetNextCursor()
		late, _ := w.parkOn(t, branch("late"))
		w.clock.advance(2 * time.Hour)
		woke = w.waitFor(t, &next, func() error {
			if _, err := w.svc.Approve(ctx, late, "ops", ""); !errors.Is(err, gateway.ErrApprovalExpired) {
				return errors.New("approving an expired approval did not fail as expired")
			}
			return nil
		})
		if !slices.Contains(woke.GetSubscriptionIds(), stream) {
			t.Fatalf("no event for the expiry: %v", woke)
		}
		if ev := decision(t, w.events(t, "", &next), late); ev.GetState() != "expired" || !strings.Contains(ev.GetBody(), "never ran") {
			t.Fatalf("expiry event = %v", ev)
		}

		// One that expires with nobody deciding is announced by the sweep
		// a long-lived gateway runs, once however often it sweeps.
		next = w.events(t, "", nil).GetNextCursor()
		swept, _ := w.parkOn(t, branch("swept"))
		since := w.store.Now()
		w.clock.advance(2 * time.Hour)
		woke = w.waitFor(t, &next, func() error {
			for range 2 {
				if n, err := w.svc.AnnounceExpired(ctx, since); err != nil || n != 1 {
					return fmt.Errorf("AnnounceExpired = %d, %v; want the one expired since the park", n, err)
				}
			}
			return nil
		})
		if !slices.Contains(woke.GetSubscriptionIds(), stream) {
			t.Fatalf("no event for the swept expiry: %v", woke)
		}
		if page := w.events(t, "", &next); len(page.GetEvents()) != 1 || decision(t, page, swept).GetState() != "expired" {
			t.Fatalf("after the sweeps: %v", page)
		}

		// The stream is read, never changed; reading it tainted nothing, so
		// the next park names only the push rule.
		wantError(t, w.call(t, "agent", &gatewayv1.ForgeCallRequest{Call: &gatewayv1.ForgeCallRequest_Unsubscribe{
			Unsubscribe: &gatewayv1.UnsubscribeRequest{SubscriptionId: stream}}}), gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT, "stream of decisions")
		res := w.call(t, "agent", branch("after-reading"))
		parkedID(t, res)
		if msg := res.GetError().GetMessage(); strings.Contains(msg, "authors outside") || strings.Contains(msg, "untrusted") {
			t.Fatalf("reading decisions tainted the session: %q", msg)
		}
		// Another account hears nothing of agent's decisions.
		if l := w.call(t, "pusher", getEvents("", nil)).GetEvents(); len(l.GetEvents()) != 0 {
			t.Fatalf("pusher read agent's decisions: %v", l)
		}
		wantError(t, w.call(t, "pusher", getEvents(stream, nil)), gatewayv1.ErrorCode_ERROR_CODE_NOT_FOUND)
	})
}
