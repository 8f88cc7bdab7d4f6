package tools_test

import (
	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
)

// threadContracts are issue 21's review-thread tools, declared after
// forge_submit_review in the table.
var threadContracts = []contract{{
	tool: "forge_list_review_threads",
	args: `{"repo":"acme/widgets","pull_number":4,"cursor":"thread:9"}`,
	call: &gatewayv1.ForgeCallRequest{Call: &gatewayv1.ForgeCallRequest_ListReviewThreads{ListReviewThreads: &gatewayv1.ListReviewThreadsRequest{
		Repo: "acme/widgets", PullNumber: 4, Cursor: "thread:9"}}},
	success: &gatewayv1.ForgeCallResult{Result: &gatewayv1.ForgeCallResult_ReviewThreads{ReviewThreads: &forgev1.ReviewThreadList{
		Repo: "acme/widgets", Number: 4, NextCursor: "thread:11", Threads: []*forgev1.ReviewThread{{
			ThreadId: "11", Path: "main.go", Line: 3, Side: "RIGHT", Resolved: true, Outdated: true,
			Comments: []*forgev1.Comment{{Author: "octocat", Body: "nit", Url: "https://github.com/acme/widgets/pull/4#discussion_r11"}}}}}}},
	rendered: frame + "# review_thread_list\nrepo: acme/widgets\nnumber: 4\nnext_cursor: thread:11\nthreads: 1\n" +
		"# threads[0]\nthread_id: 11\n<<<path-NONCE\nmain.go\n>>>NONCE\nline: 3\nside: RIGHT\nresolved: true\noutdated: true\ncomments: 1\n" +
		"# threads[0].comments[0]\nauthor: octocat\nurl: https://github.com/acme/widgets/pull/4#discussion_r11\n<<<body-NONCE\nnit\n>>>NONCE",
	wrong: &gatewayv1.ForgeCallResult{Result: &gatewayv1.ForgeCallResult_PullRequest{PullRequest: pr4}}, wrongName: "pull_request",
	params: "repo, pull_number, cursor, forge_provider, forge_host",
	rejects: []reject{
		{`{"repo":"acme/widgets"}`, "pull_number: missing required parameter"},
		{`{"repo":"acme/widgets","pull_number":4,"cursor":7}`, "cursor: expected a string, got number"},
	},
}, {
	tool: "forge_reply_to_review_thread",
	args: `{"repo":"acme/widgets","pull_number":4,"thread_id":"PRRT_kwDOA1","body":"Fixed."}`,
	call: &gatewayv1.ForgeCallRequest{Call: &gatewayv1.ForgeCallRequest_ReplyToReviewThread{ReplyToReviewThread: &gatewayv1.ReplyToReviewThreadRequest{
		Repo: "acme/widgets", PullNumber: 4, ThreadId: "PRRT_kwDOA1", Body: "Fixed."}}},
	success:  &gatewayv1.ForgeCallResult{Result: &gatewayv1.ForgeCallResult_ThreadReply{ThreadReply: prComment}},
	rendered: "Replied on PR #4 in acme/widgets: https://github.com/acme/widgets/pull/4#issuecomment-77",
	wrong:    &gatewayv1.ForgeCallResult{Result: &gatewayv1.ForgeCallResult_PrComment{PrComment: prComment}}, wrongName: "pr_comment",
	params: "repo, pull_number, thread_id, body, forge_provider, forge_host",
	rejects: []reject{
		{`{"repo":"acme/widgets","pull_number":4,"body":"x"}`, "thread_id: missing required parameter"},
		{`{"repo":"acme/widgets","pull_number":4,"thread_id":"1 OR 1=1","body":"x"}`, "thread_id: must be non-empty and contain only letters, digits, '-', '.', ':' and '_'"},
		{`{"repo":"acme/widgets","pull_number":4,"thread_id":"7","body":" "}`, "body: must not be blank"},
	},
}, {
	tool: "forge_resolve_review_thread",
	args: `{"repo":"acme/widgets","pull_number":4,"thread_id":"7","unresolve":true}`,
	call: &gatewayv1.ForgeCallRequest{Call: &gatewayv1.ForgeCallRequest_ResolveReviewThread{ResolveReviewThread: &gatewayv1.ResolveReviewThreadRequest{
		Repo: "acme/widgets", PullNumber: 4, ThreadId: "7", Unresolve: true}}},
	success: &gatewayv1.ForgeCallResult{Result: &gatewayv1.ForgeCallResult_ThreadResolved{ThreadResolved: &forgev1.ReviewThreadRef{
		Repo: "acme/widgets", Number: 4, ThreadId: "7", State: "unresolved"}}},
	rendered: "Thread 7 on PR #4 in acme/widgets is unresolved",
	wrong:    &gatewayv1.ForgeCallResult{Result: &gatewayv1.ForgeCallResult_ThreadReply{ThreadReply: prComment}}, wrongName: "thread_reply",
	params: "repo, pull_number, thread_id, unresolve, forge_provider, forge_host",
	rejects: []reject{
		{`{"repo":"acme/widgets","pull_number":4,"thread_id":""}`, "thread_id: must not be blank"},
		{`{"repo":"acme/widgets","pull_number":4,"thread_id":"7","unresolve":"yes"}`, "unresolve: expected a boolean, got string"},
	},
}}
