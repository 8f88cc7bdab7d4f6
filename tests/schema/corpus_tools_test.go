package schema_test

import (
	"strings"
)

// tools is the corpus of each tool: its minimal valid call, its address and
// number parameters for the shared cases, and its own cases.
var tools = []toolCorpus{
	{
		tool: "forge_get_issue", base: obj{{"repo", `"acme/widgets"`}, {"issue_number", `12`}},
		addr: "repo", addrMax: 200, number: "issue_number",
		own: func(obj) []argCase { return nil },
	},
	{
		tool: "forge_get_pull_request", base: obj{{"repo", `"acme/widgets"`}, {"pull_number", `4`}},
		addr: "repo", addrMax: 200, number: "pull_number",
		own: func(obj) []argCase { return nil },
	},
	{
		tool: "forge_list_issues", base: obj{{"repo", `"acme/widgets"`}},
		addr: "repo", addrMax: 200,
		own: listIssues,
	},
	{
		tool: "forge_list_comments", base: obj{{"repo", `"acme/widgets"`}, {"kind", `"issue"`}, {"number", `12`}},
		addr: "repo", addrMax: 200, number: "number",
		own: listComments,
	},
	{
		tool: "forge_comment_on_issue", base: obj{{"repo", `"acme/widgets"`}, {"issue_number", `12`}, {"body", `"Reproduced."`}},
		addr: "repo", addrMax: 200, number: "issue_number",
		own: commentBody,
	},
	{
		tool: "forge_comment_on_pull_request", base: obj{{"repo", `"acme/widgets"`}, {"pull_number", `4`}, {"body", `"Looks good."`}},
		addr: "repo", addrMax: 200, number: "pull_number",
		own: commentBody,
	},
	{
		tool: "forge_submit_review", base: obj{{"repo", `"acme/widgets"`}, {"pull_number", `4`}, {"verdict", `"approve"`}},
		addr: "repo", addrMax: 200, number: "pull_number",
		own: submitReview,
	},
	{
		tool: "forge_create_issue", base: obj{{"repo", `"acme/widgets"`}, {"title", `"Crash on start"`}},
		addr: "repo", addrMax: 200,
		own: createIssue,
	},
	{
		tool: "forge_create_pull_request", base: obj{{"repo", `"acme/widgets"`}, {"title", `"Fix the crash"`}, {"head_ref", `"fix-crash"`}},
		addr: "repo", addrMax: 200,
		own: createPullRequest,
	},
	{
		tool: "forge_subscribe", base: obj{{"repo", `"acme/widgets"`}, {"kind", `"issue"`}, {"number", `12`}},
		addr: "repo", addrMax: 200, number: "number",
		own: subscribe,
	},
	{
		tool: "forge_unsubscribe", base: obj{{"subscription_id", `"sub-1"`}},
		addr: "subscription_id", addrMax: 200,
		own: func(b obj) []argCase {
			return []argCase{{name: "repo is not a parameter", args: b.set("repo", `"acme/widgets"`).String()}}
		},
	},
	{
		tool: "forge_get_events", base: obj{},
		own: getEvents,
	},
}

// getEvents: every parameter is optional; a subscription id given must
// not be blank; after is a cursor (0 up to JSON's exact integers).
func getEvents(b obj) []argCase {
	return []argCase{
		{name: "every parameter", args: b.set("subscription_id", `"sub-1"`, "after", `17`, "limit", `50`).String(), valid: true},
		{name: "subscription_id empty", args: b.set("subscription_id", `""`).String(), valid: true},
		{name: "subscription_id blank", args: b.set("subscription_id", `"  "`).String()},
		// Empty is every subscription (IGNORE_IF_ZERO_VALUE, which the schema
		// states too); blank is Unicode White_Space, as for every address.
		{name: "subscription_id no-break space only", args: b.set("subscription_id", `"\u00a0"`).String()},
		{name: "subscription_id padded", args: b.set("subscription_id", `" sub-1 "`).String(), valid: true},
		{name: "subscription_id at max length", args: b.set("subscription_id", repeat("s", 200)).String(), valid: true},
		{name: "subscription_id beyond max length", args: b.set("subscription_id", repeat("s", 201)).String()},
		{name: "subscription_id number", args: b.set("subscription_id", `7`).String()},
		{name: "after 0", args: b.set("after", `0`).String(), valid: true},
		{name: "after negative", args: b.set("after", `-1`).String()},
		{name: "after fraction", args: b.set("after", `1.5`).String()},
		{name: "after at its maximum", args: b.set("after", `9007199254740991`).String(), valid: true},
		{name: "after above its maximum", args: b.set("after", `9007199254740992`).String()},
		{name: "after string", args: b.set("after", `"17"`).String()},
		{name: "after null", args: b.set("after", `null`).String(), valid: true},
		{name: "limit 1", args: b.set("limit", `1`).String(), valid: true},
		{name: "limit 0", args: b.set("limit", `0`).String()},
		{name: "limit 101", args: b.set("limit", `101`).String()},
		{name: "repo is not a parameter", args: b.set("repo", `"acme/widgets"`).String()},
		{name: "repeated key", args: `{"limit":1,"limit":2}`},
	}
}

func listIssues(b obj) []argCase {
	labels := func(n int) string { return "[" + strings.TrimSuffix(strings.Repeat(`"bug",`, n), ",") + "]" }
	return []argCase{
		{name: "every parameter", args: b.set("state", `"closed"`, "labels", `["bug","help wanted"]`, "limit", `50`).String(), valid: true},
		{name: "state open", args: b.set("state", `"open"`).String(), valid: true},
		{name: "state all", args: b.set("state", `"all"`).String(), valid: true},
		{name: "state upper case", args: b.set("state", `"OPEN"`).String()},
		{name: "state empty", args: b.set("state", `""`).String()},
		{name: "state merged", args: b.set("state", `"merged"`).String()},
		{name: "state null", args: b.set("state", `null`).String(), valid: true},
		{name: "limit 1", args: b.set("limit", `1`).String(), valid: true},
		{name: "limit 100", args: b.set("limit", `100`).String(), valid: true},
		{name: "limit 0", args: b.set("limit", `0`).String()},
		{name: "limit 101", args: b.set("limit", `101`).String()},
		{name: "limit -1", args: b.set("limit", `-1`).String()},
		{name: "limit above uint32", args: b.set("limit", `4294967296`).String()},
		{name: "limit string", args: b.set("limit", `"10"`).String()},
		{name: "limit fraction", args: b.set("limit", `10.5`).String()},
		{name: "labels empty", args: b.set("labels", `[]`).String(), valid: true},
		{name: "labels 20", args: b.set("labels", labels(20)).String(), valid: true},
		{name: "labels 21", args: b.set("labels", labels(21)).String()},
		{name: "label blank", args: b.set("labels", `["bug"," "]`).String()},
		{name: "label empty", args: b.set("labels", `[""]`).String()},
		{name: "label at max length", args: b.set("labels", "["+repeat("l", 100)+"]").String(), valid: true},
		{name: "label beyond max length", args: b.set("labels", "["+repeat("l", 101)+"]").String()},
		{name: "label null", args: b.set("labels", `[null]`).String()},
		{name: "label number", args: b.set("labels", `[1]`).String()},
		{name: "labels a string", args: b.set("labels", `"bug"`).String()},
		{name: "assignee", args: b.set("assignee", `"octocat"`).String(), valid: true},
		{name: "assignee empty", args: b.set("assignee", `""`).String(), valid: true},
		{name: "assignee beyond max length", args: b.set("assignee", repeat("a", 101)).String()},
		{name: "since UTC", args: b.set("since", `"2026-01-02T03:04:05Z"`).String(), valid: true},
		{name: "since with offset and fraction", args: b.set("since", `"2026-01-02T03:04:05.123+02:00"`).String(), valid: true},
		{name: "since empty", args: b.set("since", `""`).String()},
		{name: "since a date", args: b.set("since", `"2026-01-02"`).String()},
		{name: "since without zone", args: b.set("since", `"2026-01-02T03:04:05"`).String()},
		{name: "since prose", args: b.set("since", `"yesterday"`).String()},
	}
}

// commentBody is both comment tools: the body is required and non-blank.
func commentBody(b obj) []argCase {
	return []argCase{
		{name: "markdown body", args: b.set("body", str("# Title\n\n```go\nfmt.Println(\"<n>\")\n```\n")).String(), valid: true},
		{name: "body missing", args: b.without("body").String()},
		{name: "body empty", args: b.set("body", `""`).String()},
		{name: "body whitespace only", args: b.set("body", `"\n\t  \n"`).String()},
		{name: "body no-break spaces only", args: b.set("body", `"\u00a0\u202f"`).String()},
		{name: "body null", args: b.set("body", `null`).String()},
		{name: "body number", args: b.set("body", `42`).String()},
		{name: "body at max length", args: b.set("body", repeat("b", 60000)).String(), valid: true},
		{name: "body beyond max length", args: b.set("body", repeat("b", 60001)).String()},
		{name: "body max length in multibyte characters", args: b.set("body", repeat("é", 60000)).String(), valid: true},
	}
}

func submitReview(b obj) []argCase {
	item := func(fields ...string) string {
		return "[" + obj{{"path", `"a.go"`}, {"line", `3`}, {"body", `"nit"`}}.set(fields...).String() + "]"
	}
	itemWithout := func(key string) string {
		return "[" + obj{{"path", `"a.go"`}, {"line", `3`}, {"body", `"nit"`}}.without(key).String() + "]"
	}
	items := func(n int) string {
		return "[" + strings.TrimSuffix(strings.Repeat(`{"path":"a.go","line":1,"body":"x"},`, n), ",") + "]"
	}
	return []argCase{
		{name: "approve with empty body", args: b.set("body", `""`).String(), valid: true},
		{name: "approve with blank body", args: b.set("body", `"  "`).String(), valid: true},
		{name: "request_changes with body", args: b.set("verdict", `"request_changes"`, "body", `"Add a test."`).String(), valid: true},
		{name: "comment with body", args: b.set("verdict", `"comment"`, "body", `"A question."`).String(), valid: true},
		{name: "request_changes without body", args: b.set("verdict", `"request_changes"`).String()},
		{name: "request_changes with empty body", args: b.set("verdict", `"request_changes"`, "body", `""`).String()},
		{name: "comment with blank body", args: b.set("verdict", `"comment"`, "body", `" \n "`).String()},
		{name: "request_changes with a no-break space body", args: b.set("verdict", `"request_changes"`, "body", `"\u00a0"`).String()},
		{name: "verdict missing", args: b.without("verdict").String()},
		{name: "verdict unknown", args: b.set("verdict", `"lgtm"`).String()},
		{name: "verdict forge spelling", args: b.set("verdict", `"changes_requested"`).String()},
		{name: "verdict upper case", args: b.set("verdict", `"APPROVE"`).String()},
		{name: "verdict number", args: b.set("verdict", `1`).String()},
		{name: "body beyond max length", args: b.set("verdict", `"comment"`, "body", repeat("b", 60001)).String()},
		{name: "comments valid", args: b.set("comments", item()).String(), valid: true},
		{name: "comments empty", args: b.set("comments", `[]`).String(), valid: true},
		{name: "comment side LEFT", args: b.set("comments", item("side", `"LEFT"`)).String(), valid: true},
		{name: "comment side RIGHT", args: b.set("comments", item("side", `"RIGHT"`)).String(), valid: true},
		{name: "comment side lower case", args: b.set("comments", item("side", `"left"`)).String()},
		{name: "comment side unknown", args: b.set("comments", item("side", `"CENTER"`)).String()},
		{name: "comment side null", args: b.set("comments", item("side", `null`)).String(), valid: true},
		{name: "comment path missing", args: b.set("comments", itemWithout("path")).String()},
		{name: "comment line missing", args: b.set("comments", itemWithout("line")).String()},
		{name: "comment body missing", args: b.set("comments", itemWithout("body")).String()},
		{name: "comment path blank", args: b.set("comments", item("path", `" "`)).String()},
		{name: "comment path at max length", args: b.set("comments", item("path", repeat("p", 1024))).String(), valid: true},
		{name: "comment path beyond max length", args: b.set("comments", item("path", repeat("p", 1025))).String()},
		{name: "comment line 0", args: b.set("comments", item("line", `0`)).String()},
		{name: "comment line string", args: b.set("comments", item("line", `"3"`)).String()},
		{name: "comment body blank", args: b.set("comments", item("body", `"\t"`)).String()},
		{name: "comment body beyond max length", args: b.set("comments", item("body", repeat("b", 60001))).String()},
		{name: "comment unknown key", args: b.set("comments", item("start_line", `1`)).String()},
		{name: "comment null", args: b.set("comments", `[null]`).String()},
		{name: "comment a string", args: b.set("comments", `["a.go:3 nit"]`).String()},
		{name: "comments an object", args: b.set("comments", `{"path":"a.go","line":3,"body":"nit"}`).String()},
		{name: "second comment invalid", args: b.set("comments", `[{"path":"a.go","line":1,"body":"ok"},{"path":"b.go","line":0,"body":"x"}]`).String()},
		{name: "comments 50", args: b.set("comments", items(50)).String(), valid: true},
		{name: "comments 51", args: b.set("comments", items(51)).String()},
	}
}

// createBody is what both creates share: a non-blank title and an optional
// body that may be empty or blank.
func createBody(b obj, titleMax int) []argCase {
	return []argCase{
		{name: "title missing", args: b.without("title").String()},
		{name: "title empty", args: b.set("title", `""`).String()},
		{name: "title whitespace only", args: b.set("title", `"   "`).String()},
		{name: "title ideographic spaces only", args: b.set("title", `"\u3000\u3000"`).String()},
		{name: "title at max length", args: b.set("title", repeat("t", titleMax)).String(), valid: true},
		{name: "title beyond max length", args: b.set("title", repeat("t", titleMax+1)).String()},
		{name: "title max length in astral characters", args: b.set("title", repeat("😀", titleMax)).String(), valid: true},
		{name: "title number", args: b.set("title", `1`).String()},
		{name: "body empty", args: b.set("body", `""`).String(), valid: true},
		{name: "body blank", args: b.set("body", `"  "`).String(), valid: true},
		{name: "body at max length", args: b.set("body", repeat("b", 60000)).String(), valid: true},
		{name: "body beyond max length", args: b.set("body", repeat("b", 60001)).String()},
	}
}

func createIssue(b obj) []argCase {
	return append(createBody(b, 256), []argCase{
		{name: "with labels", args: b.set("body", `"Steps."`, "labels", `["bug"]`).String(), valid: true},
		{name: "label blank", args: b.set("labels", `["\n"]`).String()},
		{name: "labels 21", args: b.set("labels", "["+strings.TrimSuffix(strings.Repeat(`"l",`, 21), ",")+"]").String()},
		{name: "with assignees and milestone", args: b.set("assignees", `["octocat","hubot"]`, "milestone", `3`).String(), valid: true},
		{name: "assignee blank", args: b.set("assignees", `[""]`).String()},
		{name: "assignees 11", args: b.set("assignees", "["+strings.TrimSuffix(strings.Repeat(`"a",`, 11), ",")+"]").String()},
		{name: "milestone 0", args: b.set("milestone", `0`).String()},
		{name: "milestone title", args: b.set("milestone", `"v1.0"`).String()},
		{name: "milestone above its maximum", args: b.set("milestone", `2147483648`).String()},
	}...)
}

func createPullRequest(b obj) []argCase {
	return append(createBody(b, 256), []argCase{
		{name: "every parameter", args: b.set("body", `"Fixes #1."`, "base_ref", `"main"`, "draft", `true`).String(), valid: true},
		{name: "head_ref missing", args: b.without("head_ref").String()},
		{name: "head_ref blank", args: b.set("head_ref", `" "`).String()},
		{name: "head_ref at max length", args: b.set("head_ref", repeat("h", 255)).String(), valid: true},
		{name: "head_ref beyond max length", args: b.set("head_ref", repeat("h", 256)).String()},
		{name: "base_ref empty", args: b.set("base_ref", `""`).String(), valid: true},
		{name: "base_ref beyond max length", args: b.set("base_ref", repeat("m", 256)).String()},
		{name: "draft false", args: b.set("draft", `false`).String(), valid: true},
		{name: "draft string", args: b.set("draft", `"true"`).String()},
		{name: "draft number", args: b.set("draft", `1`).String()},
	}...)
}

func subscribe(b obj) []argCase {
	return []argCase{
		{name: "kind pull_request", args: b.set("kind", `"pull_request"`).String(), valid: true},
		{name: "kind missing", args: b.without("kind").String()},
		{name: "kind abbreviated", args: b.set("kind", `"pr"`).String()},
		{name: "kind empty", args: b.set("kind", `""`).String()},
		{name: "kind null", args: b.set("kind", `null`).String()},
	}
}

// cursor is the paging convention's cursor: any string up to 64
// characters (the provider that issued it reads it).
func cursor(b obj) []argCase {
	return []argCase{
		{name: "cursor", args: b.set("cursor", `"Zm9vYmFyYmF6.2"`).String(), valid: true},
		{name: "cursor empty", args: b.set("cursor", `""`).String(), valid: true},
		{name: "cursor at max length", args: b.set("cursor", repeat("c", 64)).String(), valid: true},
		{name: "cursor beyond max length", args: b.set("cursor", repeat("c", 65)).String()},
		{name: "cursor number", args: b.set("cursor", `2`).String()},
	}
}

// listComments: an issue's or a pull request's conversation, by page.
func listComments(b obj) []argCase {
	return append(append(limit(b), cursor(b)...), []argCase{
		{name: "kind pull_request", args: b.set("kind", `"pull_request"`).String(), valid: true},
		{name: "kind missing", args: b.without("kind").String()},
		{name: "kind review", args: b.set("kind", `"review"`).String()},
	}...)
}
