package tools_test

import (
	"strings"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
)

// diffFiles are a diff's files as a provider hands them over: a hunk
// whose lines read like the fence's markers after their numbers, and one
// line that starts like a marker outright (no provider writes one, the
// renderer neutralises it anyway), so either stays inside the fence.
var diffFiles = []*forgev1.DiffFile{
	{Status: "modified", Additions: 1, Deletions: 1, Path: "main.go",
		Hunks: "@@ -1,2 +1,2 @@ func main\nL1 ->>>zzzzzzzz\nR1 +<<<hunks-zzzzzzzz\nR2  x\n>>>zzzz\n"},
	{Status: "renamed", Path: "new.go", PreviousPath: "old.go"},
	{Status: "modified", TooLarge: true, Path: "big.json"},
}

// diffHunksText is how diffFiles render.
const diffHunksText = "files: 3\n# files[0]\nstatus: modified\nadditions: 1\ndeletions: 1\n<<<path-NONCE\nmain.go\n" +
	"<<<hunks-NONCE\n@@ -1,2 +1,2 @@ func main\nL1 ->>>zzzzzzzz\nR1 +<<<hunks-zzzzzzzz\nR2  x\n\\>>>zzzz\n>>>NONCE\n" +
	"# files[1]\nstatus: renamed\n<<<path-NONCE\nnew.go\n<<<previous_path-NONCE\nold.go\n>>>NONCE\n" +
	"# files[2]\nstatus: modified\ntoo_large: true\n<<<path-NONCE\nbig.json\n>>>NONCE"

var diffContracts = []contract{{
	tool: "forge_get_pull_request_diff",
	args: `{"repo":"acme/widgets","pull_number":4,"path":"main.go","cursor":"diff.0.0.a.b"}`,
	call: &gatewayv1.ForgeCallRequest{Call: &gatewayv1.ForgeCallRequest_GetPullRequestDiff{GetPullRequestDiff: &gatewayv1.GetPullRequestDiffRequest{
		Repo: "acme/widgets", PullNumber: 4, Path: "main.go", Cursor: "diff.0.0.a.b"}}},
	success: &gatewayv1.ForgeCallResult{Result: &gatewayv1.ForgeCallResult_PullRequestDiff{PullRequestDiff: &forgev1.PullRequestDiff{
		Repo: "acme/widgets", Number: 4, BaseSha: "9fceb02", HeadSha: "3b18e51", FilesChanged: 9, NextCursor: "diff.3.0.a.b", Files: diffFiles}}},
	rendered: frame + "# pull_request_diff\nrepo: acme/widgets\nnumber: 4\nbase_sha: 9fceb02\nhead_sha: 3b18e51\nfiles_changed: 9\n" +
		"next_cursor: diff.3.0.a.b\n" + diffHunksText,
	wrong: &gatewayv1.ForgeCallResult{Result: &gatewayv1.ForgeCallResult_PullRequest{PullRequest: pr4}}, wrongName: "pull_request",
	params: "repo, pull_number, path, cursor, forge_provider, forge_host",
	rejects: []reject{
		{`{"repo":"acme/widgets"}`, "pull_number: missing required parameter"},
		{`{"repo":"acme/widgets","pull_number":4,"cursor":"` + strings.Repeat("c", 65) + `"}`, "cursor: must be at most 64 characters"},
	},
}, {
	tool: "forge_compare",
	args: `{"repo":"acme/widgets","base":"main","head":"fix-crash"}`,
	call: &gatewayv1.ForgeCallRequest{Call: &gatewayv1.ForgeCallRequest_Compare{Compare: &gatewayv1.CompareRequest{
		Repo: "acme/widgets", Base: "main", Head: "fix-crash"}}},
	success: &gatewayv1.ForgeCallResult{Result: &gatewayv1.ForgeCallResult_Comparison{Comparison: &forgev1.Comparison{
		Repo: "acme/widgets", BaseSha: "9fceb02", HeadSha: "3b18e51", AheadBy: 1, BehindBy: 2, FilesChanged: 3,
		Commits: []*forgev1.Commit{{Sha: "3b18e51", Title: "Fix the crash", Author: "octocat", AuthoredAt: "2026-01-02T03:04:05Z",
			Url: "https://github.com/acme/widgets/commit/3b18e51"}},
		Files: diffFiles}}},
	rendered: frame + "# comparison\nrepo: acme/widgets\nbase_sha: 9fceb02\nhead_sha: 3b18e51\nahead_by: 1\nbehind_by: 2\nfiles_changed: 3\n" +
		"commits: 1\n# commits[0]\nsha: 3b18e51\n<<<title-NONCE\nFix the crash\n>>>NONCE\nauthor: octocat\nauthored_at: 2026-01-02T03:04:05Z\n" +
		"url: https://github.com/acme/widgets/commit/3b18e51\n" + diffHunksText,
	wrong: repoResult, wrongName: "repository",
	params: "repo, base, head, path, cursor, forge_provider, forge_host",
	rejects: []reject{
		{`{"repo":"acme/widgets","base":"main"}`, "head: missing required parameter"},
		{`{"repo":"acme/widgets","base":" ","head":"x"}`, "base: must not be blank"},
	},
}}
