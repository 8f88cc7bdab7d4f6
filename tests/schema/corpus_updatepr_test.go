package schema_test

import "strings"

// updatePRTools is the corpus of issue 21's forge_update_pull_request and
// forge_list_commits, with the shared cases; forge_read_file's line range
// is in readFile.
var updatePRTools = []toolCorpus{
	{
		tool: "forge_update_pull_request", base: obj{{"repo", `"acme/widgets"`}, {"pull_number", `4`}, {"state", `"closed"`}},
		addr: "repo", addrMax: 200, number: "pull_number",
		own: updatePullRequest,
	},
	{
		tool: "forge_list_commits", base: obj{{"repo", `"acme/widgets"`}},
		addr: "repo", addrMax: 200,
		own: listCommits,
	},
}

func updatePullRequest(b obj) []argCase {
	only := b.without("state")
	logins := func(n int) string { return "[" + strings.TrimSuffix(strings.Repeat(`"octocat",`, n), ",") + "]" }
	return []argCase{
		{name: "reopen", args: b.set("state", `"open"`).String(), valid: true},
		{name: "state merged", args: b.set("state", `"merged"`).String()},
		{name: "title only", args: only.set("title", `"New title"`).String(), valid: true},
		{name: "title blank", args: only.set("title", `" "`).String()},
		{name: "title beyond max length", args: only.set("title", repeat("t", 257)).String()},
		{name: "body only, empty", args: only.set("body", `""`).String(), valid: true},
		{name: "body beyond max length", args: only.set("body", repeat("b", 60001)).String()},
		{name: "ready only", args: only.set("ready", `true`).String(), valid: true},
		{name: "ready string", args: only.set("ready", `"yes"`).String()},
		{name: "base only", args: only.set("base_ref", `"release/1.2"`).String(), valid: true},
		{name: "base blank", args: only.set("base_ref", `" "`).String()},
		{name: "base beyond max length", args: only.set("base_ref", repeat("r", 256)).String()},
		{name: "reviewers 10", args: only.set("reviewers", logins(10)).String(), valid: true},
		{name: "reviewers 11", args: only.set("reviewers", logins(11)).String()},
		{name: "reviewer blank", args: only.set("reviewers", `[" "]`).String()},
		{name: "nothing to change", args: only.String()},
		{name: "ready false changes nothing", args: only.set("ready", `false`).String()},
	}
}

func listCommits(b obj) []argCase {
	return append(append(ref(b, "ref"), limit(b)...), []argCase{
		{name: "every parameter", args: b.set("ref", `"main"`, "path", `"cmd"`, "since", `"2026-01-02T03:04:05Z"`, "cursor", `"cAB.30.30"`, "limit", `30`).String(), valid: true},
		{name: "path beyond max length", args: b.set("path", repeat("p", 1025)).String()},
		{name: "since not a time", args: b.set("since", `"yesterday"`).String()},
		{name: "cursor beyond max length", args: b.set("cursor", repeat("c", 65)).String()},
	}...)
}
