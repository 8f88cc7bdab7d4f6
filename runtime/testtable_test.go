package runtime_test

import (
	"slices"

	"github.com/forgetools/forgetools/gen/forgetools/gateway/v1/gatewayv1tools"
	"github.com/forgetools/forgetools/runtime"
)

// testTable is the generated forge table (real descriptors, real
// buf.validate rules, real render options), copied so a test may replace a
// field without leaking into another.
func testTable() *runtime.Table {
	t := *gatewayv1tools.ForgeTools
	t.Tools = slices.Clone(t.Tools)
	return &t
}

// allTools is the tools in table order: the ten issue 2 names, then
// issue 9's, then forge_get_events (issue 15); issue 21's where the table
// declares them.
var allTools = []string{
	"forge_get_issue", "forge_get_pull_request", "forge_get_pull_request_diff", "forge_compare", "forge_list_issues", "forge_list_comments",
	"forge_comment_on_issue", "forge_comment_on_pull_request", "forge_submit_review",
	"forge_list_review_threads", "forge_reply_to_review_thread", "forge_resolve_review_thread",
	"forge_create_issue", "forge_create_pull_request", "forge_update_pull_request", "forge_subscribe", "forge_unsubscribe",
	"forge_get_repo", "forge_search_code", "forge_search_issues",
	"forge_read_file", "forge_list_commits", "forge_list_dir", "forge_list_pull_requests", "forge_list_ci_runs", "forge_get_ci_run",
	"forge_update_issue", "forge_create_branch", "forge_write_file", "forge_commit_files", "forge_merge_pull_request", "forge_trigger_ci", "forge_rerun_ci",
	"forge_get_events",
}

// readTools is the read tools in table order.
var readTools = []string{
	"forge_get_issue", "forge_get_pull_request", "forge_get_pull_request_diff", "forge_compare", "forge_list_issues", "forge_list_comments", "forge_list_review_threads",
	"forge_get_repo", "forge_search_code", "forge_search_issues",
	"forge_read_file", "forge_list_commits", "forge_list_dir", "forge_list_pull_requests", "forge_list_ci_runs", "forge_get_ci_run",
	"forge_get_events",
}

// without is allTools minus the named tools.
func without(names ...string) []string {
	return slices.DeleteFunc(slices.Clone(allTools), func(n string) bool { return slices.Contains(names, n) })
}
