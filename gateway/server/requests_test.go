package server_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"connectrpc.com/connect"
	"github.com/forgetools/forgetools/gateway"
	"github.com/forgetools/forgetools/gateway/store/storetest"
	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	optionsv1 "github.com/forgetools/forgetools/gen/forgetools/options/v1"
	"github.com/forgetools/forgetools/toolserver"
)

func TestMalformedRequestsChangeNothing(t *testing.T) {
	h := start(t, storetest.SQLite(t))
	limit := uint32(101)
	for _, tc := range []struct {
		name      string
		req       *gatewayv1.ForgeCallRequest
		fragments []string
	}{
		{"unset arm", &gatewayv1.ForgeCallRequest{CallId: "x"}, []string{"names no operation"}},
		{"blank repo", createIssue("   ", "t", "", "k1"), []string{"create_issue.repo"}},
		{"empty repo", createIssue("", "t", "", "k2"), []string{"create_issue.repo"}},
		{"blank title", createIssue("acme/web", " \t", "", "k3"), []string{"create_issue.title"}},
		{"limit 101", &gatewayv1.ForgeCallRequest{Call: &gatewayv1.ForgeCallRequest_ListIssues{
			ListIssues: &gatewayv1.ListIssuesRequest{Repo: "acme/web", Limit: &limit}}}, []string{"list_issues.limit"}},
		{"issue number 0", getIssue("acme/web", 0), []string{"get_issue.issue_number"}},
		{"review without body", &gatewayv1.ForgeCallRequest{Call: &gatewayv1.ForgeCallRequest_SubmitReview{
			SubmitReview: &gatewayv1.SubmitReviewRequest{Repo: "acme/web", PullNumber: 1, Verdict: gatewayv1.Verdict_VERDICT_REQUEST_CHANGES}}},
			[]string{"body is required unless verdict is approve"}},
		{"undefined verdict", &gatewayv1.ForgeCallRequest{Call: &gatewayv1.ForgeCallRequest_SubmitReview{
			SubmitReview: &gatewayv1.SubmitReviewRequest{Repo: "acme/web", PullNumber: 1, Verdict: 9, Body: "x"}}},
			[]string{"submit_review.verdict"}},
		{"comment that is only a header", &gatewayv1.ForgeCallRequest{Call: &gatewayv1.ForgeCallRequest_CommentOnIssue{
			CommentOnIssue: &gatewayv1.CommentOnIssueRequest{Repo: "acme/web", IssueNumber: 1,
				Body: "> forgetools agent `x` on behalf of `y`, session `z`"}}},
			[]string{"comment_on_issue.body", "only an attribution header"}},
		// A thread id sent straight to the socket, past the runtime's
		// checks: the gateway's own validation refuses it.
		{"thread id with SQL", &gatewayv1.ForgeCallRequest{Call: &gatewayv1.ForgeCallRequest_ReplyToReviewThread{
			ReplyToReviewThread: &gatewayv1.ReplyToReviewThreadRequest{Repo: "acme/web", PullNumber: 1, ThreadId: "1' OR '1'='1", Body: "x"}}},
			[]string{"reply_to_review_thread.thread_id"}},
		{"thread id path", &gatewayv1.ForgeCallRequest{Call: &gatewayv1.ForgeCallRequest_ResolveReviewThread{
			ResolveReviewThread: &gatewayv1.ResolveReviewThreadRequest{Repo: "acme/web", PullNumber: 1, ThreadId: "../../projects/2"}}},
			[]string{"resolve_review_thread.thread_id"}},
		{"thread id too long", &gatewayv1.ForgeCallRequest{Call: &gatewayv1.ForgeCallRequest_ResolveReviewThread{
			ResolveReviewThread: &gatewayv1.ResolveReviewThreadRequest{Repo: "acme/web", PullNumber: 1, ThreadId: strings.Repeat("1", 101)}}},
			[]string{"resolve_review_thread.thread_id"}},
		{"host without provider", withForge(getIssue("acme/web", 1), forgev1.ForgeProvider_FORGE_PROVIDER_UNSPECIFIED, "github.com"),
			[]string{"forge_host", "forge_provider"}},
		{"long client_request_id", func() *gatewayv1.ForgeCallRequest {
			r := createIssue("acme/web", "t", "", strings.Repeat("k", 513))
			return r
		}(), []string{"client_request_id"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wantError(t, h.call("alice-1", tc.req), gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT, tc.fragments...)
		})
	}
	if h.github.Total() != 0 {
		t.Fatalf("malformed requests reached the forge (%d calls)", h.github.Total())
	}
	if owned, _ := h.store.Owned(context.Background(), "alice"); len(owned) != 0 {
		t.Fatalf("malformed requests left records: %v", owned)
	}
}

func TestOversizedRequestIsRefused(t *testing.T) {
	h := start(t, storetest.SQLite(t), maxRequestBytes(64<<10))
	big := createIssue("acme/web", "big", strings.Repeat("x", 50_000)+strings.Repeat("y", 50_000), "k")
	_, err := h.client("alice-1").Forge(context.Background(), connect.NewRequest(big))
	wantConnectError(t, err, connect.CodeResourceExhausted)
	if !strings.Contains(err.Error(), "larger than configured max") {
		t.Errorf("oversized error %q does not say what was too large", err)
	}
	if h.github.Total() != 0 {
		t.Fatalf("an oversized request reached the forge")
	}
	// The same connection still serves a normal call.
	if res := h.call("alice-1", createIssue("acme/web", "small", "", "k")); res.GetIssue().GetUrl() == "" {
		t.Fatalf("after an oversized request the same key = %v, want a real create", res)
	}
}

func TestForgeSelection(t *testing.T) {
	h := start(t, storetest.SQLite(t))
	github, linear := forgev1.ForgeProvider_FORGE_PROVIDER_GITHUB, forgev1.ForgeProvider_FORGE_PROVIDER_LINEAR
	for _, tc := range []struct {
		name string
		req  *gatewayv1.ForgeCallRequest
		host string
	}{
		{"no selector: default forge", createIssue("acme/web", "t1", "", ""), "github.com"},
		{"empty selector: default forge", withForge(createIssue("acme/web", "t2", "", ""), 0, ""), "github.com"},
		{"provider only: its first instance", withForge(createIssue("acme/web", "t3", "", ""), github, ""), "github.com"},
		{"provider and host, any case", withForge(createIssue("acme/web", "t", "", ""), github, "GHE.example.com"), "ghe.example.com"},
		{"linear", withForge(createIssue("ENG", "t", "", ""), linear, "linear.app"), "linear.app"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := h.call("alice-1", tc.req)
			if got := res.GetIssue().GetForge(); got.GetHost() != tc.host {
				t.Fatalf("result forge = %v (%v), want host %s", got, res, tc.host)
			}
		})
	}
	if h.ghe.Calls("CreateIssue") != 1 || h.linear.Calls("CreateIssue") != 1 || h.github.Calls("CreateIssue") != 3 {
		t.Fatalf("creates landed github=%d ghe=%d linear=%d, want 3, 1, 1",
			h.github.Calls("CreateIssue"), h.ghe.Calls("CreateIssue"), h.linear.Calls("CreateIssue"))
	}

	before := h.github.Total() + h.ghe.Total() + h.linear.Total()
	wantError(t, h.call("alice-1", withForge(createIssue("acme/web", "t", "", ""), forgev1.ForgeProvider_FORGE_PROVIDER_GITLAB, "")),
		gatewayv1.ErrorCode_ERROR_CODE_NOT_FOUND, "no gitlab forge is configured")
	wantError(t, h.call("alice-1", withForge(createIssue("acme/web", "t", "", ""), github, "github.evil.com")),
		gatewayv1.ErrorCode_ERROR_CODE_NOT_FOUND, "github/github.evil.com")
	wantError(t, h.call("alice-1", withForge(createPR("ENG", "t", ""), linear, "")),
		gatewayv1.ErrorCode_ERROR_CODE_UNIMPLEMENTED, "linear has no pull requests", "create_pull_request")
	wantError(t, h.call("alice-1", &gatewayv1.ForgeCallRequest{
		Forge: &forgev1.ForgeRef{Provider: linear},
		Call: &gatewayv1.ForgeCallRequest_SubmitReview{SubmitReview: &gatewayv1.SubmitReviewRequest{
			Repo: "ENG", PullNumber: 1, Verdict: gatewayv1.Verdict_VERDICT_APPROVE}},
	}), gatewayv1.ErrorCode_ERROR_CODE_UNIMPLEMENTED, "linear has no reviews")
	if after := h.github.Total() + h.ghe.Total() + h.linear.Total(); after != before {
		t.Fatalf("unresolvable calls reached a forge (%d more calls)", after-before)
	}
}

func TestProviderErrorsAreMappedInBand(t *testing.T) {
	h := start(t, storetest.SQLite(t))
	for _, tc := range []struct {
		name    string
		err     error
		code    gatewayv1.ErrorCode
		message string
		retryMs uint64
	}{
		{"rate limit, rounded up", &toolserver.Error{Code: optionsv1.ErrorCode_ERROR_CODE_RESOURCE_EXHAUSTED,
			Message: "API rate limit exceeded", RetryAfter: 1500*time.Millisecond + time.Nanosecond},
			gatewayv1.ErrorCode_ERROR_CODE_RESOURCE_EXHAUSTED, "API rate limit exceeded", 1501},
		{"wrapped provider error", errors.Join(errors.New("context"), toolserver.Errorf(optionsv1.ErrorCode_ERROR_CODE_NOT_FOUND, "issue #3 not found")),
			gatewayv1.ErrorCode_ERROR_CODE_NOT_FOUND, "issue #3 not found", 0},
		{"provider error without a code", &toolserver.Error{Message: "odd"}, gatewayv1.ErrorCode_ERROR_CODE_INTERNAL, "odd", 0},
		{"deadline", context.DeadlineExceeded, gatewayv1.ErrorCode_ERROR_CODE_UNAVAILABLE, "timed out", 0},
		{"anything else is internal and says nothing", errors.New("dial tcp 10.0.0.1: Authorization: token " + forgeSecret),
			gatewayv1.ErrorCode_ERROR_CODE_INTERNAL, "internal error", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h.github.FailWith(tc.err)
			res := h.call("alice-1", getIssue("acme/web", 1))
			wantError(t, res, tc.code, tc.message)
			if got := res.GetError().GetRetryAfterMs(); got != tc.retryMs {
				t.Errorf("retry_after_ms = %d, want %d", got, tc.retryMs)
			}
			if strings.Contains(res.GetError().GetMessage(), "10.0.0.1") || strings.Contains(res.GetError().GetMessage(), forgeSecret) {
				t.Errorf("internal details leaked: %q", res.GetError().GetMessage())
			}
		})
	}
	h.github.FailWith(nil)
}

func TestCallIDIsEchoed(t *testing.T) {
	h := start(t, storetest.SQLite(t))
	for _, req := range []*gatewayv1.ForgeCallRequest{createIssue("acme/web", "t", "", ""), getIssue("nope/nope", 1), {CallId: "unset"}} {
		req.CallId = "toolu_" + req.GetCallId()
		if res := h.call("alice-1", req); res.CallId != req.CallId {
			t.Errorf("call_id = %q, want %q (%v)", res.CallId, req.CallId, res)
		}
	}
}

// The in-process transport is the same chokepoint without a socket.
func TestInProcessTransport(t *testing.T) {
	h := start(t, storetest.SQLite(t))
	id, ok := h.svc.SessionIdentity("alice-2")
	if !ok {
		t.Fatal("no identity for alice-2")
	}
	tr := h.svc.Transport(id)
	out, err := tr(context.Background(), createIssue("acme/web", "in process", "", ""))
	if err != nil {
		t.Fatal(err)
	}
	if a := out.(*gatewayv1.ForgeCallResult).GetIssue().GetAttribution(); a.GetSessionId() != "alice-2" {
		t.Fatalf("in-process create attribution = %v", a)
	}
	out, err = tr(context.Background(), createIssue("evil/repo", "t", "", ""))
	if err != nil {
		t.Fatal(err)
	}
	wantError(t, out.(*gatewayv1.ForgeCallResult), gatewayv1.ErrorCode_ERROR_CODE_PERMISSION_DENIED)
	if _, err := tr(context.Background(), &forgev1.Issue{}); err == nil {
		t.Fatal("the transport accepted a message that is not a ForgeCallRequest")
	}
	if _, ok := h.svc.SessionIdentity("nobody"); ok {
		t.Fatal("an unknown session has an identity")
	}
	// An identity the configuration does not know fails closed in-band.
	before := h.github.Total()
	for _, id := range []gateway.Identity{{}, {Account: "mallory", Session: "s"}, {Account: "alice"}} {
		res := h.direct(context.Background(), id, getIssue("acme/web", 1))
		wantError(t, res, gatewayv1.ErrorCode_ERROR_CODE_PERMISSION_DENIED, "not bound")
	}
	if h.github.Total() != before {
		t.Fatal("a call with an unknown identity reached the forge")
	}
}
