package schema_test

// threadTools is the corpus of issue 21's review-thread tools.
var threadTools = []toolCorpus{
	{
		tool: "forge_list_review_threads", base: obj{{"repo", `"acme/widgets"`}, {"pull_number", `4`}},
		addr: "repo", addrMax: 200, number: "pull_number",
		own: cursor,
	},
	{
		tool: "forge_reply_to_review_thread", base: obj{{"repo", `"acme/widgets"`}, {"pull_number", `4`}, {"thread_id", `"PRRT_kwDOA1b2"`}, {"body", `"Fixed."`}},
		addr: "repo", addrMax: 200, number: "pull_number",
		own: func(b obj) []argCase { return append(threadID(b), commentBody(b)...) },
	},
	{
		tool: "forge_resolve_review_thread", base: obj{{"repo", `"acme/widgets"`}, {"pull_number", `4`}, {"thread_id", `"17"`}},
		addr: "repo", addrMax: 200, number: "pull_number",
		own: func(b obj) []argCase {
			return append(threadID(b), []argCase{
				{name: "unresolve", args: b.set("unresolve", `true`).String(), valid: true},
				{name: "unresolve string", args: b.set("unresolve", `"true"`).String()},
			}...)
		},
	},
}

// threadID is a thread's id as a forge gives it: a token of word
// characters, '.', ':' and '-', at most 100 of them.
func threadID(b obj) []argCase {
	return []argCase{
		{name: "thread_id missing", args: b.without("thread_id").String()},
		{name: "thread_id empty", args: b.set("thread_id", `""`).String()},
		{name: "thread_id GitLab style", args: b.set("thread_id", `"6a9c1750b37d513a43987b574953fceb50b03ce7"`).String(), valid: true},
		{name: "thread_id with a space", args: b.set("thread_id", `"1 OR 1=1"`).String()},
		{name: "thread_id with a slash", args: b.set("thread_id", `"../1"`).String()},
		{name: "thread_id number", args: b.set("thread_id", `17`).String()},
		{name: "thread_id at max length", args: b.set("thread_id", repeat("1", 100)).String(), valid: true},
		{name: "thread_id beyond max length", args: b.set("thread_id", repeat("1", 101)).String()},
	}
}
