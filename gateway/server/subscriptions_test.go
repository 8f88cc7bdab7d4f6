package server_test

import (
	"testing"

	"github.com/forgetools/forgetools/gateway/store/storetest"
	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
)

func subscribe(repo string, kind gatewayv1.SubscriptionKind, n uint64) *gatewayv1.ForgeCallRequest {
	return &gatewayv1.ForgeCallRequest{Call: &gatewayv1.ForgeCallRequest_Subscribe{Subscribe: &gatewayv1.SubscribeRequest{Repo: repo, Kind: kind, Number: n}}}
}

func unsubscribe(id string) *gatewayv1.ForgeCallRequest {
	return &gatewayv1.ForgeCallRequest{Call: &gatewayv1.ForgeCallRequest_Unsubscribe{Unsubscribe: &gatewayv1.UnsubscribeRequest{SubscriptionId: id}}}
}

func TestSubscriptions(t *testing.T) {
	storetest.Run(t, func(t *testing.T, dsn string) {
		h := start(t, dsn)
		n := h.call("alice-1", createIssue("acme/web", "watch me", "", "")).GetIssue().GetNumber()

		sub := h.call("alice-1", subscribe("acme/web", gatewayv1.SubscriptionKind_SUBSCRIPTION_KIND_ISSUE, n)).GetSubscribed()
		if sub.GetSubscriptionId() == "" || sub.GetKind() != "issue" || sub.GetNumber() != n || sub.GetRepo() != "acme/web" ||
			sub.GetForge().GetHost() != "github.com" {
			t.Fatalf("subscribed = %v", sub)
		}
		if h.github.Calls("Watch") != 1 {
			t.Fatalf("Watch calls = %d", h.github.Calls("Watch"))
		}
		// The forge decides whether the artifact can be watched.
		wantError(t, h.call("alice-1", subscribe("acme/web", gatewayv1.SubscriptionKind_SUBSCRIPTION_KIND_PULL_REQUEST, 99)),
			gatewayv1.ErrorCode_ERROR_CODE_NOT_FOUND, "pull request #99")
		// A forge that cannot notify says so.
		req := withForge(subscribe("ENG", gatewayv1.SubscriptionKind_SUBSCRIPTION_KIND_ISSUE, 1), forgev1.ForgeProvider_FORGE_PROVIDER_LINEAR, "")
		wantError(t, h.call("alice-1", req), gatewayv1.ErrorCode_ERROR_CODE_UNIMPLEMENTED, "linear has no change notifications")

		// Another account cannot see or remove it.
		wantError(t, h.call("bob-1", unsubscribe(sub.GetSubscriptionId())), gatewayv1.ErrorCode_ERROR_CODE_NOT_FOUND)

		got := h.call("alice-2", unsubscribe(sub.GetSubscriptionId())).GetUnsubscribed()
		if got.GetSubscriptionId() != sub.GetSubscriptionId() {
			t.Fatalf("unsubscribed = %v", got)
		}
		wantError(t, h.call("alice-1", unsubscribe(sub.GetSubscriptionId())), gatewayv1.ErrorCode_ERROR_CODE_NOT_FOUND, sub.GetSubscriptionId())
	})
}

// Unsubscribe names no repository, so the stored subscription's is checked:
// once the account's scope no longer covers it, it cannot be touched.
func TestUnsubscribeIsScopedByTheStoredRepository(t *testing.T) {
	dsn := storetest.SQLite(t)
	h := start(t, dsn)
	n := h.call("alice-1", createIssue("tools/cli", "t", "", "")).GetIssue().GetNumber()
	id := h.call("alice-1", subscribe("tools/cli", gatewayv1.SubscriptionKind_SUBSCRIPTION_KIND_ISSUE, n)).GetSubscribed().GetSubscriptionId()
	h.stop()

	narrowed := start(t, dsn, scope("acme/web"))
	wantError(t, narrowed.call("alice-1", unsubscribe(id)), gatewayv1.ErrorCode_ERROR_CODE_PERMISSION_DENIED, "tools/cli")
	if subs, _ := narrowed.store.Subscriptions(t.Context(), "alice"); len(subs) != 1 {
		t.Fatalf("a refused unsubscribe removed the subscription: %v", subs)
	}
}
