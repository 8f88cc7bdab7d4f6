package server_test

import (
	"context"
	"net/http"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"connectrpc.com/connect"
	"github.com/forgetools/forgetools/gateway/store"
	"github.com/forgetools/forgetools/gateway/store/storetest"
	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/gen/forgetools/gateway/v1/gatewayv1connect"
	optionsv1 "github.com/forgetools/forgetools/gen/forgetools/options/v1"
	"github.com/forgetools/forgetools/toolserver"
)

// Fifty agents' retries of one create, over the sockets of two sessions of
// the same account, make exactly one issue; the other 49 are replays.
func TestConcurrentCreatesMakeOneIssue(t *testing.T) {
	storetest.Run(t, func(t *testing.T, dsn string) {
		h := start(t, dsn)
		release := h.github.Hold() // keep the first create in flight while the rest arrive
		const n = 50
		sent := make(chan struct{}, n)
		clients := map[string]gatewayv1connect.AgentGatewayClient{}
		for _, s := range []string{"alice-1", "alice-2"} {
			hc := &http.Client{Transport: sendCounter{next: unixTransport(filepath.Join(h.dir, s+".sock")), sent: sent}}
			clients[s] = gatewayv1connect.NewAgentGatewayClient(hc, "http://gateway")
		}
		results := make([]*gatewayv1.ForgeCallResult, n)
		errs := make([]error, n)
		var wg sync.WaitGroup
		for i := range n {
			client := clients[[]string{"alice-1", "alice-2"}[i%2]]
			wg.Go(func() {
				res, err := client.Forge(context.Background(),
					connect.NewRequest(createIssue("acme/web", "Flaky test", "It flakes.", "nonce:toolu_1")))
				if err == nil {
					results[i] = res.Msg
				}
				errs[i] = err
			})
		}
		// One create reaches the forge and is held there; release it only
		// once all fifty calls are on the wire, so the rest overlap it.
		<-h.github.Entered()
		for range n {
			<-sent
		}
		release()
		wg.Wait()

		if got := h.github.Calls("CreateIssue"); got != 1 {
			t.Fatalf("the forge saw %d creates, want 1", got)
		}
		var created, replays int
		var number uint64
		for i, res := range results {
			if errs[i] != nil {
				t.Fatalf("call %d: %v", i, errs[i])
			}
			iss := res.GetIssue()
			if iss == nil {
				t.Fatalf("call %d: %v, want an issue", i, res)
			}
			if number == 0 {
				number = iss.Number
			}
			if iss.Number != number || iss.Repo != "acme/web" {
				t.Fatalf("call %d: issue %s#%d, want acme/web#%d", i, iss.Repo, iss.Number, number)
			}
			if iss.Forge.GetHost() != "github.com" {
				t.Errorf("call %d: forge %v, want github.com", i, iss.Forge)
			}
			if iss.Url != "" {
				created++
				continue
			}
			replays++
			if iss.Title != "" || iss.Body != "" {
				t.Errorf("a replay carries title/body: %v", iss)
			}
		}
		if created != 1 || replays != n-1 {
			t.Fatalf("%d results with a URL and %d replays, want 1 and %d", created, replays, n-1)
		}
		owned, err := h.store.Owned(context.Background(), "alice")
		if err != nil || len(owned) != 1 || owned[0].Kind != store.KindIssue || owned[0].Number != number {
			t.Fatalf("ownership = %+v, %v; want one issue #%d", owned, err, number)
		}
	})
}

// The memo lives in the store, so a gateway restarted on the same database
// still replays, and the new process never calls the forge.
func TestRestartedGatewayStillReplays(t *testing.T) {
	storetest.Run(t, func(t *testing.T, dsn string) {
		first := start(t, dsn)
		res := first.call("alice-1", createPR("acme/web", "Fix flake", "nonce:toolu_9"))
		pr := res.GetPullRequest()
		if pr == nil || pr.Url == "" {
			t.Fatalf("first create = %v", res)
		}
		first.stop()

		second := start(t, dsn)
		res = second.call("alice-2", createPR("acme/web", "Fix flake", "nonce:toolu_9"))
		replay := res.GetPullRequest()
		if replay == nil || replay.Url != "" || replay.Number != pr.Number || replay.Repo != "acme/web" {
			t.Fatalf("after restart = %v, want a replay of #%d with no URL", res, pr.Number)
		}
		if replay.Forge.GetProvider() != forgev1.ForgeProvider_FORGE_PROVIDER_GITHUB || replay.Forge.GetHost() != "github.com" {
			t.Errorf("replay forge = %v", replay.Forge)
		}
		if second.github.Total() != 0 {
			t.Fatalf("the restarted gateway called the forge %d times", second.github.Total())
		}
	})
}

// A caller that gives up while another attempt holds the key gets an
// in-band unavailable, and a later retry gets the finished result.
func TestReplayWaitsForTheAttemptInFlight(t *testing.T) {
	h := start(t, storetest.SQLite(t))
	id, _ := h.svc.SessionIdentity("alice-1")
	release := h.github.Hold()
	done := make(chan *gatewayv1.ForgeCallResult)
	go func() { done <- h.direct(context.Background(), id, createIssue("acme/web", "T", "", "k")) }()
	<-h.github.Entered()

	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	wantError(t, h.direct(ctx, id, createIssue("acme/web", "T", "", "k")),
		gatewayv1.ErrorCode_ERROR_CODE_UNAVAILABLE, "still in progress")

	release()
	if first := <-done; first.GetIssue().GetUrl() == "" {
		t.Fatalf("first attempt = %v", first)
	}
	if again := h.call("alice-2", createIssue("acme/web", "T", "", "k")); again.GetIssue().GetUrl() != "" || again.GetIssue().GetNumber() != 1 {
		t.Fatalf("retry = %v, want a replay of #1", again)
	}
	if h.github.Calls("CreateIssue") != 1 {
		t.Fatalf("forge saw %d creates", h.github.Calls("CreateIssue"))
	}
}

func TestDedupEdges(t *testing.T) {
	h := start(t, storetest.SQLite(t))

	// Without a client_request_id the gateway derives the key from the
	// session and the request: a repeat within the window replays; another
	// session, or other arguments, create.
	first := h.call("alice-1", createIssue("acme/web", "No key", "", ""))
	if first.GetIssue().GetUrl() == "" {
		t.Fatalf("keyless create = %v", first)
	}
	if again := h.call("alice-1", createIssue("acme/web", "No key", "", "")); again.GetIssue().GetUrl() != "" ||
		again.GetIssue().GetNumber() != first.GetIssue().GetNumber() {
		t.Fatalf("keyless repeat = %v, want a replay of #%d", again, first.GetIssue().GetNumber())
	}
	for _, res := range []*gatewayv1.ForgeCallResult{
		h.call("alice-2", createIssue("acme/web", "No key", "", "")),
		h.call("alice-1", createIssue("acme/web", "No key", "other body", "")),
	} {
		if res.GetIssue().GetUrl() == "" {
			t.Fatalf("keyless create from another session or with other arguments = %v, want a create", res)
		}
	}
	if h.github.Calls("CreateIssue") != 3 {
		t.Fatalf("keyless creates reached the forge %d times, want 3", h.github.Calls("CreateIssue"))
	}

	// A failed create releases its key: the retry creates.
	h.github.FailWith(toolserver.Errorf(optionsv1.ErrorCode_ERROR_CODE_UNAVAILABLE, "forge is down"))
	wantError(t, h.call("alice-1", createIssue("acme/web", "Retry me", "", "k-fail")), gatewayv1.ErrorCode_ERROR_CODE_UNAVAILABLE, "forge is down")
	h.github.FailWith(nil)
	if res := h.call("alice-1", createIssue("acme/web", "Retry me", "", "k-fail")); res.GetIssue().GetUrl() == "" {
		t.Fatalf("retry after a failure = %v, want a real create", res)
	}

	// The same key for a different request is refused, not replayed.
	wantError(t, h.call("alice-1", createIssue("acme/web", "Something else", "", "k-fail")),
		gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT, "client_request_id")

	// Keys are per account: bob's identical key is his own create (he is
	// out of scope, so it is refused before the memo is touched).
	wantError(t, h.call("bob-1", createIssue("acme/web", "Retry me", "", "k-fail")), gatewayv1.ErrorCode_ERROR_CODE_PERMISSION_DENIED)

	// client_request_id is ignored on arms that are not creates.
	req := getIssue("acme/web", 1)
	req.ClientRequestId = "k-fail"
	if res := h.call("alice-1", req); res.GetIssue().GetNumber() != 1 {
		t.Fatalf("get_issue with a key = %v", res)
	}
}

// The derived key's window: past it the same keyless create files anew;
// a negative window turns derived keys off.
func TestDerivedKeyWindow(t *testing.T) {
	storetest.Run(t, func(t *testing.T, dsn string) {
		h := start(t, dsn, dedupWindow(time.Millisecond))
		h.call("alice-1", createIssue("acme/web", "Same", "", ""))
		time.Sleep(20 * time.Millisecond) // outlive the 1ms window; longer only helps
		if res := h.call("alice-1", createIssue("acme/web", "Same", "", "")); res.GetIssue().GetUrl() == "" {
			t.Fatalf("past the window = %v, want a new create", res)
		}
		if h.github.Calls("CreateIssue") != 2 {
			t.Fatalf("forge saw %d creates, want 2", h.github.Calls("CreateIssue"))
		}
	})
	h := start(t, storetest.SQLite(t), dedupWindow(-1))
	for range 2 {
		if res := h.call("alice-1", createIssue("acme/web", "Same", "", "")); res.GetIssue().GetUrl() == "" {
			t.Fatalf("with derived keys off = %v, want a create", res)
		}
	}
	if h.github.Calls("CreateIssue") != 2 {
		t.Fatalf("with derived keys off the forge saw %d creates, want 2", h.github.Calls("CreateIssue"))
	}
}
