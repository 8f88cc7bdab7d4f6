package tools_test

import (
	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
)

// The agent-hands tools of issue 9: repository reads, pull request and CI
// listings, issue updates, branches, file commits, merges and CI runs.

var (
	repoResult = &gatewayv1.ForgeCallResult{Result: &gatewayv1.ForgeCallResult_Repository{Repository: &forgev1.Repository{
		Repo: "acme/widgets", DefaultBranch: "main", Description: "Widgets for everyone.", Visibility: "public",
		Permission: "write", OpenIssues: 3, Url: "https://github.com/acme/widgets"}}}
	fileResult = &gatewayv1.ForgeCallResult{Result: &gatewayv1.ForgeCallResult_File{File: &forgev1.FileContent{
		Repo: "acme/widgets", Path: "cmd/main.go", Ref: "main", Sha: "3b18e512dba79e4c8300dd08aeb37f8e728b8dad", Size: 27,
		Content: "package main\n\nfunc main() {}", Url: "https://github.com/acme/widgets/blob/main/cmd/main.go"}}}
	branchResult = &gatewayv1.ForgeCallResult{Result: &gatewayv1.ForgeCallResult_Branch{Branch: &forgev1.BranchRef{
		Repo: "acme/widgets", Branch: "fix-crash", Sha: "9fceb02d0ae598e95dc970b74767f19372d61af8",
		Url: "https://github.com/acme/widgets/tree/fix-crash"}}}
	ciRun7 = &forgev1.CIRun{
		Repo: "acme/widgets", RunId: "7", Name: "CI", Ref: "fix-crash", HeadSha: "9fceb02", Status: "completed",
		Conclusion: "failure", Url: "https://github.com/acme/widgets/actions/runs/7", CreatedAt: "2026-01-02T03:04:05Z",
	}
)

// ciRun7Text is how ciRun7's own fields render.
const ciRun7Text = "repo: acme/widgets\nrun_id: 7\n<<<name-NONCE\nCI\n<<<ref-NONCE\nfix-crash\n>>>NONCE\n" +
	"head_sha: 9fceb02\nstatus: completed\nconclusion: failure\nurl: https://github.com/acme/widgets/actions/runs/7\ncreated_at: 2026-01-02T03:04:05Z"

var handsContracts = []contract{{
	tool:    "forge_get_repo",
	args:    `{"repo":"acme/widgets"}`,
	call:    &gatewayv1.ForgeCallRequest{Call: &gatewayv1.ForgeCallRequest_GetRepo{GetRepo: &gatewayv1.GetRepoRequest{Repo: "acme/widgets"}}},
	success: repoResult,
	rendered: frame + "# repository\nrepo: acme/widgets\ndefault_branch: main\n<<<description-NONCE\nWidgets for everyone.\n>>>NONCE\n" +
		"visibility: public\npermission: write\nopen_issues: 3\nurl: https://github.com/acme/widgets",
	wrong: fileResult, wrongName: "file",
	params: "repo, forge_provider, forge_host",
	rejects: []reject{
		{`{"repo":" "}`, "repo: must not be blank"},
		{`{}`, "repo: missing required parameter"},
	},
}, {
	tool: "forge_read_file",
	args: `{"repo":"acme/widgets","path":"cmd/main.go","ref":"main"}`,
	call: &gatewayv1.ForgeCallRequest{Call: &gatewayv1.ForgeCallRequest_ReadFile{ReadFile: &gatewayv1.ReadFileRequest{
		Repo: "acme/widgets", Path: "cmd/main.go", Ref: "main"}}},
	success: fileResult,
	rendered: frame + "# file_content\nrepo: acme/widgets\n<<<path-NONCE\ncmd/main.go\n<<<ref-NONCE\nmain\n>>>NONCE\n" +
		"sha: 3b18e512dba79e4c8300dd08aeb37f8e728b8dad\nsize: 27\n<<<content-NONCE\npackage main\n\nfunc main() {}\n>>>NONCE\n" +
		"url: https://github.com/acme/widgets/blob/main/cmd/main.go",
	wrong: repoResult, wrongName: "repository",
	params: "repo, path, ref, start_line, end_line, forge_provider, forge_host",
	rejects: []reject{
		{`{"repo":"acme/widgets"}`, "path: missing required parameter"},
		{`{"repo":"acme/widgets","path":"\t"}`, "path: must not be blank"},
		{`{"repo":"acme/widgets","path":"a","ref":7}`, "ref: expected a string, got number"},
	},
}, {
	tool: "forge_list_dir",
	args: `{"repo":"acme/widgets","path":"cmd"}`,
	call: &gatewayv1.ForgeCallRequest{Call: &gatewayv1.ForgeCallRequest_ListDir{ListDir: &gatewayv1.ListDirRequest{Repo: "acme/widgets", Path: "cmd"}}},
	success: &gatewayv1.ForgeCallResult{Result: &gatewayv1.ForgeCallResult_Dir{Dir: &forgev1.DirListing{
		Repo: "acme/widgets", Path: "cmd", Ref: "main", Entries: []*forgev1.DirEntry{
			{Name: "main.go", Type: "file", Size: 27, Sha: "3b18e51"}, {Name: "internal", Type: "dir", Sha: "4b825dc"}}}}},
	rendered: frame + "# dir_listing\nrepo: acme/widgets\n<<<path-NONCE\ncmd\n<<<ref-NONCE\nmain\n>>>NONCE\nentries: 2\n" +
		"# entries[0]\n<<<name-NONCE\nmain.go\n>>>NONCE\ntype: file\nsize: 27\nsha: 3b18e51\n" +
		"# entries[1]\n<<<name-NONCE\ninternal\n>>>NONCE\ntype: dir\nsha: 4b825dc",
	wrong: fileResult, wrongName: "file",
	params: "repo, path, ref, cursor, forge_provider, forge_host",
	rejects: []reject{
		{`{"repo":""}`, "repo: must not be blank"},
		{`{"repo":"acme/widgets","path":["cmd"]}`, "path: expected a string, got array"},
	},
}, {
	tool: "forge_list_pull_requests",
	args: `{"repo":"acme/widgets","state":"all","base":"main","limit":5}`,
	call: &gatewayv1.ForgeCallRequest{Call: &gatewayv1.ForgeCallRequest_ListPullRequests{ListPullRequests: &gatewayv1.ListPullRequestsRequest{
		Repo: "acme/widgets", State: gatewayv1.PullRequestStateFilter_PULL_REQUEST_STATE_FILTER_ALL, Base: "main", Limit: ptr(uint32(5))}}},
	success: &gatewayv1.ForgeCallResult{Result: &gatewayv1.ForgeCallResult_PullRequests{PullRequests: &forgev1.PullRequestList{PullRequests: []*forgev1.PullRequest{{
		Repo: "acme/widgets", Number: 4, State: "open", Url: "https://github.com/acme/widgets/pull/4", HeadRef: "fix-crash", BaseRef: "main",
		Title: "Fix the crash", HeadSha: "9fceb02d0ae598e95dc970b74767f19372d61af8", Mergeable: "true"}}}}},
	rendered: frame + "# pull_request_list\npull_requests: 1\n# pull_requests[0]\nrepo: acme/widgets\nnumber: 4\nstate: open\n" +
		"url: https://github.com/acme/widgets/pull/4\n<<<head_ref-NONCE\nfix-crash\n<<<base_ref-NONCE\nmain\n" +
		"<<<title-NONCE\nFix the crash\n>>>NONCE\nhead_sha: 9fceb02d0ae598e95dc970b74767f19372d61af8\nmergeable: true",
	wrong: &gatewayv1.ForgeCallResult{Result: &gatewayv1.ForgeCallResult_PullRequest{PullRequest: pr4}}, wrongName: "pull_request",
	params: "repo, state, base, head, limit, cursor, forge_provider, forge_host",
	rejects: []reject{
		{`{"repo":"acme/widgets","state":"merged"}`, `state: expected one of open, closed, all, got "merged"`},
		{`{"repo":"acme/widgets","limit":0}`, "limit: must be between 1 and 100"},
	},
}, {
	tool: "forge_list_ci_runs",
	args: `{"repo":"acme/widgets","ref":"fix-crash","status":"failure"}`,
	call: &gatewayv1.ForgeCallRequest{Call: &gatewayv1.ForgeCallRequest_ListCiRuns{ListCiRuns: &gatewayv1.ListCIRunsRequest{
		Repo: "acme/widgets", Ref: "fix-crash", Status: gatewayv1.CIStatusFilter_CI_STATUS_FILTER_FAILURE}}},
	success:  &gatewayv1.ForgeCallResult{Result: &gatewayv1.ForgeCallResult_CiRuns{CiRuns: &forgev1.CIRunList{Runs: []*forgev1.CIRun{ciRun7}}}},
	rendered: frame + "# ci_run_list\nruns: 1\n# runs[0]\n" + ciRun7Text,
	wrong:    &gatewayv1.ForgeCallResult{Result: &gatewayv1.ForgeCallResult_CiRun{CiRun: ciRun7}}, wrongName: "ci_run",
	params: "repo, ref, status, limit, cursor, forge_provider, forge_host",
	rejects: []reject{
		{`{"repo":"acme/widgets","status":"red"}`, `status: expected one of queued, in_progress, completed, success, failure, got "red"`},
	},
}, {
	tool: "forge_get_ci_run",
	args: `{"repo":"acme/widgets","run_id":"7"}`,
	call: &gatewayv1.ForgeCallRequest{Call: &gatewayv1.ForgeCallRequest_GetCiRun{GetCiRun: &gatewayv1.GetCIRunRequest{Repo: "acme/widgets", RunId: "7"}}},
	success: &gatewayv1.ForgeCallResult{Result: &gatewayv1.ForgeCallResult_CiRun{CiRun: func() *forgev1.CIRun {
		r := &forgev1.CIRun{Repo: ciRun7.Repo, RunId: "7", Name: "CI", Ref: "fix-crash", HeadSha: "9fceb02", Status: "completed", Conclusion: "failure",
			Url: ciRun7.Url, CreatedAt: ciRun7.CreatedAt}
		r.Jobs = []*forgev1.CIJob{{JobId: "71", Name: "test", Status: "completed", Conclusion: "failure",
			Url: "https://github.com/acme/widgets/actions/runs/7/job/71", LogTail: "--- FAIL: TestStart\nFAIL"}}
		return r
	}()}},
	rendered: frame + "# ci_run\n" + ciRun7Text + "\njobs: 1\n# jobs[0]\njob_id: 71\n<<<name-NONCE\ntest\n>>>NONCE\n" +
		"status: completed\nconclusion: failure\nurl: https://github.com/acme/widgets/actions/runs/7/job/71\n" +
		"<<<log_tail-NONCE\n--- FAIL: TestStart\nFAIL\n>>>NONCE",
	wrong: &gatewayv1.ForgeCallResult{Result: &gatewayv1.ForgeCallResult_CiRuns{CiRuns: &forgev1.CIRunList{}}}, wrongName: "ci_runs",
	params: "repo, run_id, forge_provider, forge_host",
	rejects: []reject{
		{`{"repo":"acme/widgets","run_id":"../7"}`, "run_id: must be non-empty and contain only letters, digits, '-', '.', ':' and '_'"},
		{`{"repo":"acme/widgets","run_id":7}`, "run_id: expected a string, got number"},
	},
}, {
	tool: "forge_update_issue",
	args: `{"repo":"acme/widgets","issue_number":12,"state":"closed","state_reason":"completed","labels":["fixed"]}`,
	call: &gatewayv1.ForgeCallRequest{Call: &gatewayv1.ForgeCallRequest_UpdateIssue{UpdateIssue: &gatewayv1.UpdateIssueRequest{
		Repo: "acme/widgets", IssueNumber: 12, State: gatewayv1.IssueState_ISSUE_STATE_CLOSED,
		StateReason: gatewayv1.StateReason_STATE_REASON_COMPLETED, Labels: []string{"fixed"}}}},
	success:  &gatewayv1.ForgeCallResult{Result: &gatewayv1.ForgeCallResult_Issue{Issue: issue12}},
	rendered: "Updated issue #12 in acme/widgets: https://github.com/acme/widgets/issues/12",
	wrong:    &gatewayv1.ForgeCallResult{Result: &gatewayv1.ForgeCallResult_PullRequest{PullRequest: pr4}}, wrongName: "pull_request",
	params: "repo, issue_number, state, state_reason, title, body, labels, assignees, forge_provider, forge_host",
	rejects: []reject{
		{`{"repo":"acme/widgets","issue_number":12}`, "give at least one field to change"},
		{`{"repo":"acme/widgets","issue_number":12,"state":"all"}`, `state: expected one of open, closed, got "all"`},
		{`{"repo":"acme/widgets","issue_number":12,"title":" "}`, "title: must not be blank"},
	},
}, {
	tool:     "forge_create_branch",
	args:     `{"repo":"acme/widgets","branch":"fix-crash","from_ref":"main"}`,
	call:     &gatewayv1.ForgeCallRequest{Call: &gatewayv1.ForgeCallRequest_CreateBranch{CreateBranch: &gatewayv1.CreateBranchRequest{Repo: "acme/widgets", Branch: "fix-crash", FromRef: "main"}}},
	success:  branchResult,
	rendered: "Created branch fix-crash in acme/widgets at 9fceb02d0ae598e95dc970b74767f19372d61af8",
	wrong:    fileResult, wrongName: "file",
	params: "repo, branch, from_ref, forge_provider, forge_host",
	rejects: []reject{
		{`{"repo":"acme/widgets"}`, "branch: missing required parameter"},
		{`{"repo":"acme/widgets","branch":""}`, "branch: must not be blank"},
	},
}, {
	tool: "forge_write_file",
	args: `{"repo":"acme/widgets","branch":"fix-crash","path":"cmd/main.go","content":"package main\n","message":"Fix the crash","expected_sha":"3b18e512dba79e4c8300dd08aeb37f8e728b8dad"}`,
	call: &gatewayv1.ForgeCallRequest{Call: &gatewayv1.ForgeCallRequest_WriteFile{WriteFile: &gatewayv1.WriteFileRequest{
		Repo: "acme/widgets", Branch: "fix-crash", Path: "cmd/main.go", Content: "package main\n", Message: "Fix the crash",
		ExpectedSha: "3b18e512dba79e4c8300dd08aeb37f8e728b8dad"}}},
	success: &gatewayv1.ForgeCallResult{Result: &gatewayv1.ForgeCallResult_FileCommit{FileCommit: &forgev1.FileCommit{
		Repo: "acme/widgets", Branch: "fix-crash", Path: "cmd/main.go", CommitSha: "1a410efbd13591db07496601ebc7a059dd55cfe9",
		BlobSha: "a8a940627d132695a9769df883f85992f0ff4a43", Url: "https://github.com/acme/widgets/commit/1a410ef"}}},
	rendered: "Committed cmd/main.go to fix-crash in acme/widgets: 1a410efbd13591db07496601ebc7a059dd55cfe9",
	wrong:    branchResult, wrongName: "branch",
	params: "repo, branch, path, content, message, expected_sha, forge_provider, forge_host",
	rejects: []reject{
		{`{"repo":"acme/widgets","branch":"b","path":"a"}`, "message: missing required parameter"},
		{`{"repo":"acme/widgets","branch":"b","path":"a","message":"m","expected_sha":"HEAD"}`, "expected_sha: must match the pattern ^([0-9A-Fa-f]{7,64})?$"},
	},
}, {
	tool: "forge_commit_files",
	args: `{"repo":"acme/widgets","branch":"fix-crash","message":"Fix the crash","files":[{"path":"cmd/main.go","content":"package main\n","expected_sha":"3b18e51"},{"path":"old.go","delete":true,"expected_sha":"a8a9406"}]}`,
	call: &gatewayv1.ForgeCallRequest{Call: &gatewayv1.ForgeCallRequest_CommitFiles{CommitFiles: &gatewayv1.CommitFilesRequest{
		Repo: "acme/widgets", Branch: "fix-crash", Message: "Fix the crash", Files: []*gatewayv1.FileChange{
			{Path: "cmd/main.go", Content: "package main\n", ExpectedSha: "3b18e51"}, {Path: "old.go", Delete: true, ExpectedSha: "a8a9406"}}}}},
	success: &gatewayv1.ForgeCallResult{Result: &gatewayv1.ForgeCallResult_FilesCommit{FilesCommit: &forgev1.FilesCommit{
		Repo: "acme/widgets", Branch: "fix-crash", CommitSha: "1a410efbd13591db07496601ebc7a059dd55cfe9", ParentSha: "9fceb02d0ae598e95dc970b74767f19372d61af8",
		Files: []*forgev1.CommittedFile{{Path: "cmd/main.go", Status: "updated", BlobSha: "a8a940627d132695a9769df883f85992f0ff4a43"}, {Path: "old.go", Status: "deleted"}}}}},
	rendered: "Committed to fix-crash in acme/widgets: 1a410efbd13591db07496601ebc7a059dd55cfe9",
	wrong:    branchResult, wrongName: "branch",
	params: "repo, branch, files, message, expected_head_sha, forge_provider, forge_host",
	rejects: []reject{
		{`{"repo":"acme/widgets","branch":"b","message":"m","files":[]}`, "files: must have at least 1 items"},
		{`{"repo":"acme/widgets","branch":"b","message":"m","files":[{"path":"a"},{"path":"a"}]}`, "files: no path twice"},
		{`{"repo":"acme/widgets","branch":"b","message":"m","files":[{"path":"a","delete":true}]}`, "files[0]: a delete needs expected_sha, no content"},
	},
}, {
	tool: "forge_merge_pull_request",
	args: `{"repo":"acme/widgets","pull_number":4,"method":"squash","expected_head_sha":"9fceb02d0ae598e95dc970b74767f19372d61af8"}`,
	call: &gatewayv1.ForgeCallRequest{Call: &gatewayv1.ForgeCallRequest_MergePullRequest{MergePullRequest: &gatewayv1.MergePullRequestRequest{
		Repo: "acme/widgets", PullNumber: 4, Method: gatewayv1.MergeMethod_MERGE_METHOD_SQUASH, ExpectedHeadSha: "9fceb02d0ae598e95dc970b74767f19372d61af8"}}},
	success: &gatewayv1.ForgeCallResult{Result: &gatewayv1.ForgeCallResult_Merge{Merge: &forgev1.MergeResult{
		Repo: "acme/widgets", Number: 4, Method: "squash", Sha: "e83c5163316f89bfbde7d9ab23ca2e25604af290", Url: "https://github.com/acme/widgets/pull/4"}}},
	rendered: "Merged PR #4 in acme/widgets (squash): e83c5163316f89bfbde7d9ab23ca2e25604af290",
	wrong:    &gatewayv1.ForgeCallResult{Result: &gatewayv1.ForgeCallResult_PullRequest{PullRequest: pr4}}, wrongName: "pull_request",
	params: "repo, pull_number, method, expected_head_sha, forge_provider, forge_host",
	rejects: []reject{
		{`{"repo":"acme/widgets","pull_number":4}`, "expected_head_sha: missing required parameter"},
		{`{"repo":"acme/widgets","pull_number":4,"expected_head_sha":""}`, "expected_head_sha: must not be blank"},
		{`{"repo":"acme/widgets","pull_number":4,"expected_head_sha":"HEAD"}`, "expected_head_sha: must be 7 to 64 characters, only digits, 'A' to 'F' and 'a' to 'f'"},
		{`{"repo":"acme/widgets","pull_number":4,"expected_head_sha":"abc1234","method":"ff"}`, `method: expected one of merge, squash, rebase, got "ff"`},
	},
}, {
	tool: "forge_trigger_ci",
	args: `{"repo":"acme/widgets","workflow":"ci.yml","ref":"fix-crash","inputs":[{"name":"target","value":"linux"}]}`,
	call: &gatewayv1.ForgeCallRequest{Call: &gatewayv1.ForgeCallRequest_TriggerCi{TriggerCi: &gatewayv1.TriggerCIRequest{
		Repo: "acme/widgets", Workflow: "ci.yml", Ref: "fix-crash", Inputs: []*gatewayv1.CIInput{{Name: "target", Value: "linux"}}}}},
	success: &gatewayv1.ForgeCallResult{Result: &gatewayv1.ForgeCallResult_CiTriggered{CiTriggered: &forgev1.CITriggered{
		Repo: "acme/widgets", Workflow: "ci.yml", Ref: "fix-crash"}}},
	rendered: "Triggered ci.yml on fix-crash in acme/widgets",
	wrong:    &gatewayv1.ForgeCallResult{Result: &gatewayv1.ForgeCallResult_CiRun{CiRun: ciRun7}}, wrongName: "ci_run",
	params: "repo, workflow, ref, inputs, forge_provider, forge_host",
	rejects: []reject{
		{`{"repo":"acme/widgets","workflow":"ci.yml"}`, "ref: missing required parameter"},
		{`{"repo":"acme/widgets","workflow":"ci.yml","ref":"main","inputs":[{"name":"a b"}]}`, "inputs[0].name: must be non-empty and contain only letters, digits, '-' and '_'"},
	},
}, {
	tool:     "forge_rerun_ci",
	args:     `{"repo":"acme/widgets","run_id":"7","failed_only":true}`,
	call:     &gatewayv1.ForgeCallRequest{Call: &gatewayv1.ForgeCallRequest_RerunCi{RerunCi: &gatewayv1.RerunCIRequest{Repo: "acme/widgets", RunId: "7", FailedOnly: true}}},
	success:  &gatewayv1.ForgeCallResult{Result: &gatewayv1.ForgeCallResult_CiRun{CiRun: ciRun7}},
	rendered: "Re-running run 7 in acme/widgets: https://github.com/acme/widgets/actions/runs/7",
	wrong:    &gatewayv1.ForgeCallResult{Result: &gatewayv1.ForgeCallResult_CiTriggered{CiTriggered: &forgev1.CITriggered{Repo: "acme/widgets"}}}, wrongName: "ci_triggered",
	params: "repo, run_id, failed_only, forge_provider, forge_host",
	rejects: []reject{
		{`{"repo":"acme/widgets","run_id":"7","failed_only":"yes"}`, "failed_only: expected a boolean, got string"},
	},
}}
