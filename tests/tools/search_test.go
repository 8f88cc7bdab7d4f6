package tools_test

import (
	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
)

// The search tools of issue 21: a repository is optional (the gateway
// then searches the account's scope), the query is required and not
// blank.

var (
	codeResult = &gatewayv1.ForgeCallResult{Result: &gatewayv1.ForgeCallResult_CodeMatches{CodeMatches: &forgev1.CodeMatchList{
		Matches:    []*forgev1.CodeMatch{{Repo: "acme/widgets", Path: "cmd/main.go", Line: 3, Text: "func main() {}"}},
		NextCursor: "search:0.1"}}}
	hitsResult = &gatewayv1.ForgeCallResult{Result: &gatewayv1.ForgeCallResult_SearchResults{SearchResults: &forgev1.SearchHitList{
		Hits: []*forgev1.SearchHit{{Repo: "acme/widgets", Number: 12, Kind: "issue", State: "open", Title: "Crash on start",
			Url: "https://github.com/acme/widgets/issues/12", UpdatedAt: "2026-01-02T03:04:05Z"}}}}}
)

var searchContracts = []contract{{
	tool: "forge_search_code",
	args: `{"query":"func main","ref":"main"}`,
	call: &gatewayv1.ForgeCallRequest{Call: &gatewayv1.ForgeCallRequest_SearchCode{SearchCode: &gatewayv1.SearchCodeRequest{
		Query: "func main", Ref: "main"}}},
	success: codeResult,
	rendered: frame + "# code_match_list\nnext_cursor: search:0.1\nmatches: 1\n# matches[0]\nrepo: acme/widgets\n" +
		"<<<path-NONCE\ncmd/main.go\n>>>NONCE\nline: 3\n<<<text-NONCE\nfunc main() {}\n>>>NONCE",
	wrong: hitsResult, wrongName: "search_results",
	params: "repo, query, ref, cursor, forge_provider, forge_host",
	rejects: []reject{
		{`{"repo":"acme/widgets"}`, "query: missing required parameter"},
		{`{"query":" "}`, "query: must not be blank"},
		{`{"repo":"acme/my widgets","query":"x"}`, "repo: may be at most 200 characters, only letters, digits, '-', '.', '/' and '_'"},
	},
}, {
	tool: "forge_search_issues",
	args: `{"repo":"acme/widgets","query":"crash","state":"all","kind":"issue"}`,
	call: &gatewayv1.ForgeCallRequest{Call: &gatewayv1.ForgeCallRequest_SearchIssues{SearchIssues: &gatewayv1.SearchIssuesRequest{
		Repo: "acme/widgets", Query: "crash", State: gatewayv1.IssueStateFilter_ISSUE_STATE_FILTER_ALL, Kind: gatewayv1.SubscriptionKind_SUBSCRIPTION_KIND_ISSUE}}},
	success: hitsResult,
	rendered: frame + "# search_hit_list\nhits: 1\n# hits[0]\nrepo: acme/widgets\nnumber: 12\nkind: issue\nstate: open\n" +
		"<<<title-NONCE\nCrash on start\n>>>NONCE\nurl: https://github.com/acme/widgets/issues/12\nupdated_at: 2026-01-02T03:04:05Z",
	wrong: codeResult, wrongName: "code_matches",
	params: "repo, query, state, kind, cursor, forge_provider, forge_host",
	rejects: []reject{
		{`{"query":"x","kind":"merge_request"}`, `kind: expected one of issue, pull_request, got "merge_request"`},
		{`{"query":""}`, "query: must not be blank"},
	},
}}
