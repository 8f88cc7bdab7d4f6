package server_test

import (
	"context"
	"strings"
	"sync"
	"testing"

	"connectrpc.com/connect"

	"github.com/forgetools/forgetools/gateway"
	"github.com/forgetools/forgetools/gateway/server"
	"github.com/forgetools/forgetools/gateway/store/storetest"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
)

// limits sets alice's limits.
func limits(l gateway.Limits) option {
	return func(c *gateway.Config, _ *server.Options) { c.Accounts[0].Limits = l }
}

// webComment is a comment on acme/web#1, the limit tests' write.
func webComment(body string) *gatewayv1.ForgeCallRequest { return comment("acme/web", 1, body) }

// wantRetry asserts resource_exhausted with a retry hint within (0, max].
func wantRetry(t *testing.T, res *gatewayv1.ForgeCallResult, max uint64, fragments ...string) {
	t.Helper()
	wantError(t, res, gatewayv1.ErrorCode_ERROR_CODE_RESOURCE_EXHAUSTED, fragments...)
	if ms := res.GetError().GetRetryAfterMs(); ms == 0 || ms > max {
		t.Errorf("retry_after_ms = %d, want a hint in (0, %d]", ms, max)
	}
}

// Past its calls in flight an account is answered resource_exhausted with
// a retry hint, before any provider runs; another account is unaffected,
// and once a call ends the account is served again.
func TestInFlightCap(t *testing.T) {
	storetest.Run(t, func(t *testing.T, dsn string) {
		h := start(t, dsn, limits(gateway.Limits{InFlight: 2}))
		release := h.github.Hold()
		var wg sync.WaitGroup
		for i := range 2 {
			wg.Go(func() {
				h.client("alice-1").Forge(context.Background(), connect.NewRequest(createIssue("acme/web", "held", "b", "key-"+string(rune('a'+i)))))
			})
		}
		<-h.github.Entered()
		<-h.github.Entered()
		before := h.github.Total()
		wantRetry(t, h.call("alice-2", getIssue("acme/web", 1)), 60_000, "alice", "2 calls in flight")
		if h.github.Total() != before {
			t.Error("a call past the in-flight cap reached the forge")
		}
		if res := h.call("bob-1", getIssue("acme/web", 1)); res.GetError().GetCode() == gatewayv1.ErrorCode_ERROR_CODE_RESOURCE_EXHAUSTED {
			t.Errorf("bob was limited by alice's calls: %v", res.GetError())
		}
		release()
		wg.Wait()
		if res := h.call("alice-1", getIssue("acme/web", 1)); res.GetError() != nil {
			t.Errorf("after the held calls ended: %v", res.GetError())
		}
	})
}

// A hostile agent hammering writes: past the calls a minute it is
// answered resource_exhausted with retry_after_ms, nothing reaches the
// forge, and reads still run.
func TestWriteQuotaCalls(t *testing.T) {
	storetest.Run(t, func(t *testing.T, dsn string) {
		h := start(t, dsn, limits(gateway.Limits{WriteCallsPerMinute: 3}))
		if res := h.call("alice-1", createIssue("acme/web", "one", "b", "k1")); res.GetError() != nil {
			t.Fatal(res.GetError())
		}
		for i := range 2 {
			if res := h.call("alice-1", webComment("ok")); res.GetError() != nil {
				t.Fatalf("comment %d: %v", i, res.GetError())
			}
		}
		before := h.github.Calls("CommentOnIssue")
		wantRetry(t, h.call("alice-2", webComment("one too many")), 60_000, "3 write calls in the last minute")
		if h.github.Calls("CommentOnIssue") != before {
			t.Error("a write past the quota reached the forge")
		}
		if res := h.call("alice-1", getIssue("acme/web", 1)); res.GetError() != nil {
			t.Errorf("a read under a spent write quota: %v", res.GetError())
		}
	})
}

// The bytes an agent writes count, whatever field holds them: one large
// comment may overdraw a minute's bytes, the next waits.
func TestWriteQuotaBytes(t *testing.T) {
	storetest.Run(t, func(t *testing.T, dsn string) {
		h := start(t, dsn, limits(gateway.Limits{WriteBytesPerMinute: 10_000}))
		if res := h.call("alice-1", createIssue("acme/web", "one", "b", "k1")); res.GetError() != nil {
			t.Fatal(res.GetError())
		}
		if res := h.call("alice-1", webComment(strings.Repeat("x", 15_000))); res.GetError() != nil {
			t.Fatalf("a first large comment: %v", res.GetError())
		}
		wantRetry(t, h.call("alice-1", webComment("small")), 60_000, "10000 bytes")
	})
}

// A read whose result is past the account's result bytes is refused,
// saying so; a write's result never is (the write happened).
func TestResultBytesCap(t *testing.T) {
	storetest.Run(t, func(t *testing.T, dsn string) {
		h := start(t, dsn, limits(gateway.Limits{ResultBytes: 2_000}))
		body := strings.Repeat("y", 3_000)
		if res := h.call("alice-1", createIssue("acme/web", "big", body, "k1")); res.GetError() != nil || res.GetIssue() == nil {
			t.Fatalf("the create's result was refused: %v", res.GetError())
		}
		res := h.call("alice-1", getIssue("acme/web", 1))
		wantError(t, res, gatewayv1.ErrorCode_ERROR_CODE_RESOURCE_EXHAUSTED, "forge_get_issue", "over this gateway's limit of 2000")
		if strings.Contains(res.GetError().GetMessage(), body[:100]) {
			t.Error("the refusal quotes the result")
		}
	})
}
