package tools_test

import (
	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
)

// The change notifications of issue 15: forge_get_events reads a page of
// the caller's events, rendered like any read (bodies fenced, attribution
// a claim, the caller's own writes marked).

// events is a page of two: someone's review, then the agent's own comment.
var events = &forgev1.EventList{Events: []*forgev1.Event{{
	Cursor: 4, SubscriptionId: "sub-1", Repo: "acme/widgets", Kind: "pull_request", Number: 4,
	Type: forgev1.EventType_EVENT_TYPE_REVIEW, Actor: "reviewer", OccurredAt: "2026-03-01T09:00:00Z",
	Verdict: "CHANGES_REQUESTED", Url: "https://github.com/acme/widgets/pull/4#pullrequestreview-9", Body: "Add a test.",
}, {
	Cursor: 5, SubscriptionId: "sub-1", Repo: "acme/widgets", Kind: "pull_request", Number: 4,
	Type: forgev1.EventType_EVENT_TYPE_COMMENT, Own: true, Actor: "forgetools-bot", OccurredAt: "2026-03-01T09:05:00Z",
	Url:         "https://github.com/acme/widgets/pull/4#issuecomment-77",
	Attribution: &forgev1.Attribution{AgentHandle: "fixer", OwnerHandle: "alice", SessionId: "s-1"}, Body: "Test added.",
	ArtifactId: "77",
}}, NextCursor: 5}

var eventContracts = []contract{{
	tool: "forge_get_events",
	args: `{"subscription_id":"sub-1","after":3,"limit":5}`,
	call: &gatewayv1.ForgeCallRequest{Call: &gatewayv1.ForgeCallRequest_GetEvents{GetEvents: &gatewayv1.GetEventsRequest{
		SubscriptionId: "sub-1", After: ptr(uint64(3)), Limit: ptr(uint32(5))}}},
	success: &gatewayv1.ForgeCallResult{Result: &gatewayv1.ForgeCallResult_Events{Events: events}},
	rendered: frame + "# event_list\nnext_cursor: 5\nevents: 2\n" +
		"# events[0]\ncursor: 4\nsubscription_id: sub-1\nrepo: acme/widgets\nkind: pull_request\nnumber: 4\ntype: review\n" +
		"actor: reviewer\noccurred_at: 2026-03-01T09:00:00Z\nverdict: request_changes\nurl: https://github.com/acme/widgets/pull/4#pullrequestreview-9\n" +
		"<<<body-NONCE\nAdd a test.\n>>>NONCE\n" +
		"# events[1]\ncursor: 5\nsubscription_id: sub-1\nrepo: acme/widgets\nkind: pull_request\nnumber: 4\ntype: comment\nown: true\n" +
		"actor: forgetools-bot\noccurred_at: 2026-03-01T09:05:00Z\nurl: https://github.com/acme/widgets/pull/4#issuecomment-77\n" +
		"claim (unverified): agent=fixer owner=alice session=s-1\n<<<body-NONCE\nTest added.\n>>>NONCE",
	wrong: &gatewayv1.ForgeCallResult{Result: &gatewayv1.ForgeCallResult_Issue{Issue: issue12}}, wrongName: "issue",
	params: "subscription_id, after, limit, forge_provider, forge_host",
	rejects: []reject{
		{`{"subscription_id":" "}`, "subscription_id: must not be blank"},
		{`{"after":"3"}`, "after: expected an integer, got string"},
		{`{"limit":101}`, "limit: must be between 1 and 100"},
	},
}}
