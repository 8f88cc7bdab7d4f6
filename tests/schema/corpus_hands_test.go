package schema_test

import "strings"

// handsTools is the corpus of issue 9's tools (the agent-hands surface),
// with the same shared cases as the first ten.
var handsTools = []toolCorpus{
	{
		tool: "forge_get_repo", base: obj{{"repo", `"acme/widgets"`}},
		addr: "repo", addrMax: 200,
		own: func(b obj) []argCase {
			return []argCase{{name: "ref is not a parameter", args: b.set("ref", `"main"`).String()}}
		},
	},
	{
		tool: "forge_read_file", base: obj{{"repo", `"acme/widgets"`}, {"path", `"cmd/main.go"`}},
		addr: "repo", addrMax: 200,
		own: readFile,
	},
	{
		tool: "forge_list_dir", base: obj{{"repo", `"acme/widgets"`}},
		addr: "repo", addrMax: 200,
		own: listDir,
	},
	{
		tool: "forge_list_pull_requests", base: obj{{"repo", `"acme/widgets"`}},
		addr: "repo", addrMax: 200,
		own: listPullRequests,
	},
	{
		tool: "forge_list_ci_runs", base: obj{{"repo", `"acme/widgets"`}},
		addr: "repo", addrMax: 200,
		own: listCIRuns,
	},
	{
		tool: "forge_get_ci_run", base: obj{{"repo", `"acme/widgets"`}, {"run_id", `"1234"`}},
		addr: "repo", addrMax: 200,
		own: runID,
	},
	{
		tool: "forge_update_issue", base: obj{{"repo", `"acme/widgets"`}, {"issue_number", `12`}, {"state", `"closed"`}},
		addr: "repo", addrMax: 200, number: "issue_number",
		own: updateIssue,
	},
	{
		tool: "forge_create_branch", base: obj{{"repo", `"acme/widgets"`}, {"branch", `"fix-crash"`}},
		addr: "repo", addrMax: 200,
		own: createBranch,
	},
	{
		tool: "forge_write_file", base: obj{{"repo", `"acme/widgets"`}, {"branch", `"fix-crash"`}, {"path", `"main.go"`}, {"message", `"Fix the crash"`}},
		addr: "repo", addrMax: 200,
		own: writeFile,
	},
	{
		tool: "forge_commit_files", base: obj{{"repo", `"acme/widgets"`}, {"branch", `"fix-crash"`}, {"message", `"Fix the crash"`},
			{"files", `[{"path":"main.go","content":"package main\n","expected_sha":"0123abc"},{"path":"new.go","content":""}]`}},
		addr: "repo", addrMax: 200,
		own: commitFiles,
	},
	{
		tool: "forge_merge_pull_request", base: obj{{"repo", `"acme/widgets"`}, {"pull_number", `4`}, {"expected_head_sha", `"0123abc"`}},
		addr: "repo", addrMax: 200, number: "pull_number",
		own: mergePullRequest,
	},
	{
		tool: "forge_trigger_ci", base: obj{{"repo", `"acme/widgets"`}, {"workflow", `"ci.yml"`}, {"ref", `"main"`}},
		addr: "repo", addrMax: 200,
		own: triggerCI,
	},
	{
		tool: "forge_rerun_ci", base: obj{{"repo", `"acme/widgets"`}, {"run_id", `"1234"`}},
		addr: "repo", addrMax: 200,
		own: func(b obj) []argCase {
			return append(runID(b), []argCase{
				{name: "failed_only true", args: b.set("failed_only", `true`).String(), valid: true},
				{name: "failed_only string", args: b.set("failed_only", `"yes"`).String()},
			}...)
		},
	},
}

// ref is an optional branch, tag or commit, capped at 255 characters.
func ref(b obj, name string) []argCase {
	return []argCase{
		{name: name + " branch", args: b.set(name, `"release/1.2"`).String(), valid: true},
		{name: name + " commit", args: b.set(name, `"0123456789abcdef0123456789abcdef01234567"`).String(), valid: true},
		{name: name + " empty", args: b.set(name, `""`).String(), valid: true},
		{name: name + " at max length", args: b.set(name, repeat("r", 255)).String(), valid: true},
		{name: name + " beyond max length", args: b.set(name, repeat("r", 256)).String()},
		{name: name + " number", args: b.set(name, `1`).String()},
	}
}

// path is a required non-blank file path, capped at 1024 characters.
func path(b obj) []argCase {
	return []argCase{
		{name: "path missing", args: b.without("path").String()},
		{name: "path blank", args: b.set("path", `"  "`).String()},
		{name: "path nested", args: b.set("path", `"a/b/c.txt"`).String(), valid: true},
		{name: "path at max length", args: b.set("path", repeat("p", 1024)).String(), valid: true},
		{name: "path beyond max length", args: b.set("path", repeat("p", 1025)).String()},
	}
}

func readFile(b obj) []argCase {
	return append(append(path(b), ref(b, "ref")...), []argCase{
		{name: "a line range", args: b.set("start_line", `4000`, "end_line", `4100`).String(), valid: true},
		{name: "start_line 0", args: b.set("start_line", `0`).String()},
		{name: "end_line beyond max", args: b.set("end_line", `100000001`).String()},
		{name: "end_line before start_line", args: b.set("start_line", `9`, "end_line", `8`).String()},
	}...)
}

func listDir(b obj) []argCase {
	return append(ref(b, "ref"), []argCase{
		{name: "path omitted is the root", args: b.String(), valid: true},
		{name: "path empty", args: b.set("path", `""`).String(), valid: true},
		{name: "path beyond max length", args: b.set("path", repeat("p", 1025)).String()},
	}...)
}

// limit is the shared listing limit, 1..100.
func limit(b obj) []argCase {
	return []argCase{
		{name: "limit 1", args: b.set("limit", `1`).String(), valid: true},
		{name: "limit 100", args: b.set("limit", `100`).String(), valid: true},
		{name: "limit 0", args: b.set("limit", `0`).String()},
		{name: "limit 101", args: b.set("limit", `101`).String()},
		{name: "limit string", args: b.set("limit", `"10"`).String()},
	}
}

func listPullRequests(b obj) []argCase {
	return append(limit(b), []argCase{
		{name: "every parameter", args: b.set("state", `"all"`, "base", `"main"`, "head", `"fix"`, "limit", `10`).String(), valid: true},
		{name: "state closed", args: b.set("state", `"closed"`).String(), valid: true},
		{name: "state merged", args: b.set("state", `"merged"`).String()},
		{name: "state null", args: b.set("state", `null`).String(), valid: true},
		{name: "base beyond max length", args: b.set("base", repeat("b", 256)).String()},
		{name: "head beyond max length", args: b.set("head", repeat("h", 256)).String()},
	}...)
}

func listCIRuns(b obj) []argCase {
	return append(append(limit(b), ref(b, "ref")...), []argCase{
		{name: "status in_progress", args: b.set("status", `"in_progress"`).String(), valid: true},
		{name: "status failure", args: b.set("status", `"failure"`).String(), valid: true},
		{name: "status unknown", args: b.set("status", `"broken"`).String()},
		{name: "status upper case", args: b.set("status", `"SUCCESS"`).String()},
		{name: "status null", args: b.set("status", `null`).String(), valid: true},
	}...)
}

// runID is a CI run id: a token of letters, digits and _.:-.
func runID(b obj) []argCase {
	return []argCase{
		{name: "run_id missing", args: b.without("run_id").String()},
		{name: "run_id empty", args: b.set("run_id", `""`).String()},
		{name: "run_id local style", args: b.set("run_id", `"local-17"`).String(), valid: true},
		{name: "run_id with a space", args: b.set("run_id", `"12 34"`).String()},
		{name: "run_id with a slash", args: b.set("run_id", `"../1"`).String()},
		{name: "run_id number", args: b.set("run_id", `1234`).String()},
		{name: "run_id at max length", args: b.set("run_id", repeat("1", 64)).String(), valid: true},
		{name: "run_id beyond max length", args: b.set("run_id", repeat("1", 65)).String()},
	}
}

func updateIssue(b obj) []argCase {
	only := b.without("state")
	logins := func(n int) string { return "[" + strings.TrimSuffix(strings.Repeat(`"octocat",`, n), ",") + "]" }
	return []argCase{
		{name: "reopen", args: b.set("state", `"open"`, "state_reason", `"reopened"`).String(), valid: true},
		{name: "close as not planned", args: b.set("state_reason", `"not_planned"`).String(), valid: true},
		{name: "state all", args: b.set("state", `"all"`).String()},
		{name: "state_reason unknown", args: b.set("state_reason", `"duplicate"`).String()},
		{name: "title only", args: only.set("title", `"New title"`).String(), valid: true},
		{name: "title blank", args: only.set("title", `" "`).String()},
		{name: "title beyond max length", args: only.set("title", repeat("t", 257)).String()},
		{name: "body only, empty", args: only.set("body", `""`).String(), valid: true},
		{name: "body beyond max length", args: only.set("body", repeat("b", 60001)).String()},
		{name: "labels only", args: only.set("labels", `["bug"]`).String(), valid: true},
		{name: "label blank", args: only.set("labels", `[" "]`).String()},
		{name: "assignees only", args: only.set("assignees", `["octocat"]`).String(), valid: true},
		{name: "assignees 10", args: only.set("assignees", logins(10)).String(), valid: true},
		{name: "assignees 11", args: only.set("assignees", logins(11)).String()},
		{name: "nothing to change", args: only.String()},
		{name: "only a state reason", args: only.set("state_reason", `"completed"`).String()},
		{name: "empty lists change nothing", args: only.set("labels", `[]`, "assignees", `[]`).String()},
	}
}

// branch is a required non-blank branch name, capped at 255 characters.
func branch(b obj) []argCase {
	return []argCase{
		{name: "branch missing", args: b.without("branch").String()},
		{name: "branch blank", args: b.set("branch", `" "`).String()},
		{name: "branch with slashes", args: b.set("branch", `"agent/fix-crash"`).String(), valid: true},
		{name: "branch at max length", args: b.set("branch", repeat("b", 255)).String(), valid: true},
		{name: "branch beyond max length", args: b.set("branch", repeat("b", 256)).String()},
	}
}

func createBranch(b obj) []argCase { return append(branch(b), ref(b, "from_ref")...) }

// sha is an optional (or required) hex object id of 7 to 64 digits.
func sha(b obj, name string, required bool) []argCase {
	return []argCase{
		{name: name + " short", args: b.set(name, `"0123abc"`).String(), valid: true},
		{name: name + " sha-1", args: b.set(name, `"0123456789abcdef0123456789ABCDEF01234567"`).String(), valid: true},
		{name: name + " sha-256", args: b.set(name, repeat("a", 64)).String(), valid: true},
		{name: name + " empty", args: b.set(name, `""`).String(), valid: !required},
		{name: name + " too short", args: b.set(name, `"0123ab"`).String()},
		{name: name + " too long", args: b.set(name, repeat("a", 65)).String()},
		{name: name + " not hex", args: b.set(name, `"HEAD~1"`).String()},
		{name: name + " number", args: b.set(name, `1234567`).String()},
	}
}

func writeFile(b obj) []argCase {
	cases := append(append(branch(b), path(b)...), sha(b, "expected_sha", false)...)
	return append(cases, []argCase{
		{name: "content empty", args: b.set("content", `""`).String(), valid: true},
		{name: "content multiline", args: b.set("content", str("package main\n\nfunc main() {}\n")).String(), valid: true},
		{name: "content at max length", args: b.set("content", repeat("c", 1000000)).String(), valid: true},
		{name: "content beyond max length", args: b.set("content", repeat("c", 1000001)).String()},
		{name: "message missing", args: b.without("message").String()},
		{name: "message blank", args: b.set("message", `"\n"`).String()},
		{name: "message beyond max length", args: b.set("message", repeat("m", 10001)).String()},
	}...)
}

// commitFiles: 1 to 20 files of a path, content, expected_sha and
// delete; the CEL rules (no path twice, a delete's sha, the total) are in
// the description only.
func commitFiles(b obj) []argCase {
	files := func(items ...string) string { return "[" + strings.Join(items, ",") + "]" }
	twenty := make([]string, 21)
	for i := range twenty {
		twenty[i] = `{"path":"f` + strings.Repeat("x", i) + `.txt"}`
	}
	cases := append(branch(b), sha(b, "expected_head_sha", false)...)
	return append(cases, []argCase{
		{name: "files missing", args: b.without("files").String()},
		{name: "files empty", args: b.set("files", `[]`).String()},
		{name: "files twenty", args: b.set("files", files(twenty[:20]...)).String(), valid: true},
		{name: "files twenty-one", args: b.set("files", files(twenty...)).String()},
		{name: "a file without a path", args: b.set("files", files(`{"content":"x"}`)).String()},
		{name: "a blank path", args: b.set("files", files(`{"path":" ","content":"x"}`)).String()},
		{name: "a delete", args: b.set("files", files(`{"path":"old.go","delete":true,"expected_sha":"0123abc"}`)).String(), valid: true},
		{name: "a delete without expected_sha", args: b.set("files", files(`{"path":"old.go","delete":true}`)).String()},
		{name: "a delete with content", args: b.set("files", files(`{"path":"old.go","delete":true,"expected_sha":"0123abc","content":"x"}`)).String()},
		{name: "a path twice", args: b.set("files", files(`{"path":"a.go"}`, `{"path":"a.go","content":"x"}`)).String()},
		{name: "an unknown file field", args: b.set("files", files(`{"path":"a.go","mode":"100755"}`)).String()},
		{name: "a file's expected_sha not hex", args: b.set("files", files(`{"path":"a.go","expected_sha":"HEAD"}`)).String()},
		{name: "a file at max length", args: b.set("files", files(`{"path":"a.go","content":`+repeat("c", 1000000)+`}`)).String(), valid: true},
		{name: "a file beyond max length", args: b.set("files", files(`{"path":"a.go","content":`+repeat("c", 1000001)+`}`)).String()},
		{name: "five files over the total", args: b.set("files", files(
			`{"path":"a","content":`+repeat("c", 900000)+`}`, `{"path":"b","content":`+repeat("c", 900000)+`}`,
			`{"path":"c","content":`+repeat("c", 900000)+`}`, `{"path":"d","content":`+repeat("c", 900000)+`}`,
			`{"path":"e","content":`+repeat("c", 900000)+`}`)).String()},
		{name: "message missing", args: b.without("message").String()},
		{name: "message blank", args: b.set("message", `"\n"`).String()},
	}...)
}

func mergePullRequest(b obj) []argCase {
	return append(sha(b, "expected_head_sha", true), []argCase{
		{name: "expected_head_sha missing", args: b.without("expected_head_sha").String()},
		{name: "method squash", args: b.set("method", `"squash"`).String(), valid: true},
		{name: "method rebase", args: b.set("method", `"rebase"`).String(), valid: true},
		{name: "method fast-forward", args: b.set("method", `"ff"`).String()},
		{name: "method null", args: b.set("method", `null`).String(), valid: true},
	}...)
}

func triggerCI(b obj) []argCase {
	inputs := func(n int) string {
		return "[" + strings.TrimSuffix(strings.Repeat(`{"name":"k","value":"v"},`, n), ",") + "]"
	}
	return []argCase{
		{name: "workflow missing", args: b.without("workflow").String()},
		{name: "workflow blank", args: b.set("workflow", `" "`).String()},
		{name: "ref missing", args: b.without("ref").String()},
		{name: "ref blank", args: b.set("ref", `""`).String()},
		{name: "inputs", args: b.set("inputs", `[{"name":"target","value":"linux"},{"name":"dry_run"}]`).String(), valid: true},
		{name: "inputs 10", args: b.set("inputs", inputs(10)).String(), valid: true},
		{name: "inputs 11", args: b.set("inputs", inputs(11)).String()},
		{name: "input name missing", args: b.set("inputs", `[{"value":"x"}]`).String()},
		{name: "input name with a space", args: b.set("inputs", `[{"name":"a b"}]`).String()},
		{name: "input value beyond max length", args: b.set("inputs", `[{"name":"a","value":`+repeat("v", 1001)+`}]`).String()},
		{name: "input unknown key", args: b.set("inputs", `[{"name":"a","type":"string"}]`).String()},
		{name: "inputs an object", args: b.set("inputs", `{"target":"linux"}`).String()},
	}
}
