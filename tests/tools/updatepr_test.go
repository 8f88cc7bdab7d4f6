package tools_test

import (
	"slices"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/gen/forgetools/gateway/v1/gatewayv1tools"
)

// The tools of issue 21's items 4 and 7 and its forge_list_commits.

var updatePRContracts = []contract{{
	tool: "forge_update_pull_request",
	args: `{"repo":"acme/widgets","pull_number":4,"state":"closed","title":"Fix the crash","ready":true,"reviewers":["octocat"]}`,
	call: &gatewayv1.ForgeCallRequest{Call: &gatewayv1.ForgeCallRequest_UpdatePullRequest{UpdatePullRequest: &gatewayv1.UpdatePullRequestRequest{
		Repo: "acme/widgets", PullNumber: 4, State: gatewayv1.PullRequestState_PULL_REQUEST_STATE_CLOSED, Title: ptr("Fix the crash"),
		Ready: true, Reviewers: []string{"octocat"}}}},
	success:  &gatewayv1.ForgeCallResult{Result: &gatewayv1.ForgeCallResult_PullRequest{PullRequest: pr4}},
	rendered: "Updated PR #4 in acme/widgets: https://github.com/acme/widgets/pull/4",
	wrong:    &gatewayv1.ForgeCallResult{Result: &gatewayv1.ForgeCallResult_Issue{Issue: issue12}}, wrongName: "issue",
	params: "repo, pull_number, state, title, body, ready, base_ref, reviewers, forge_provider, forge_host",
	rejects: []reject{
		{`{"repo":"acme/widgets","pull_number":4}`, "give at least one field to change"},
		{`{"repo":"acme/widgets","pull_number":4,"state":"merged"}`, `state: expected one of open, closed, got "merged"`},
		{`{"repo":"acme/widgets","pull_number":4,"base_ref":" "}`, "base_ref: must not be blank"},
	},
}, {
	tool: "forge_list_commits",
	args: `{"repo":"acme/widgets","ref":"main","path":"cmd","limit":2}`,
	call: &gatewayv1.ForgeCallRequest{Call: &gatewayv1.ForgeCallRequest_ListCommits{ListCommits: &gatewayv1.ListCommitsRequest{
		Repo: "acme/widgets", Ref: "main", Path: "cmd", Limit: ptr(uint32(2))}}},
	success: &gatewayv1.ForgeCallResult{Result: &gatewayv1.ForgeCallResult_Commits{Commits: &forgev1.CommitList{
		Repo: "acme/widgets", Ref: "main", NextCursor: "cAB.2.2", Commits: []*forgev1.Commit{
			{Sha: "9fceb02d0ae598e95dc970b74767f19372d61af8", Title: "Fix the crash", Author: "octocat", AuthoredAt: "2026-01-02T03:04:05Z",
				Url: "https://github.com/acme/widgets/commit/9fceb02d0ae598e95dc970b74767f19372d61af8"}}}}},
	rendered: frame + "# commit_list\nrepo: acme/widgets\n<<<ref-NONCE\nmain\n>>>NONCE\nnext_cursor: cAB.2.2\ncommits: 1\n" +
		"# commits[0]\nsha: 9fceb02d0ae598e95dc970b74767f19372d61af8\n<<<title-NONCE\nFix the crash\n>>>NONCE\nauthor: octocat\n" +
		"authored_at: 2026-01-02T03:04:05Z\nurl: https://github.com/acme/widgets/commit/9fceb02d0ae598e95dc970b74767f19372d61af8",
	wrong: fileResult, wrongName: "file",
	params: "repo, ref, path, since, cursor, limit, forge_provider, forge_host",
	rejects: []reject{
		{`{"repo":"acme/widgets","limit":0}`, "limit: must be between 1 and 100"},
		{`{"repo":"acme/widgets","since":"yesterday"}`, `since: expected an RFC 3339 time such as 2024-05-01T12:00:00Z, got "yesterday"`},
	},
}}

// inTableOrder sorts rows by their tool's place in the table.
func inTableOrder(rows []contract) []contract {
	place := map[string]int{}
	for i, tool := range gatewayv1tools.ForgeTools.Tools {
		place[tool.Name] = i
	}
	slices.SortStableFunc(rows, func(a, b contract) int { return place[a.tool] - place[b.tool] })
	return rows
}
