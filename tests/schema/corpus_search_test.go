package schema_test

// searchTools are issue 21's searches: the query is the required
// non-blank address; repo is optional (empty or left out searches the
// account's scope) but otherwise a forge name.
var searchTools = []toolCorpus{
	{
		tool: "forge_search_code", base: obj{{"query", `"func main"`}},
		addr: "query", addrMax: 200,
		own: func(b obj) []argCase {
			return append(optionalRepo(b),
				argCase{name: "ref at max length", args: b.set("ref", repeat("r", 255)).String(), valid: true},
				argCase{name: "ref beyond max length", args: b.set("ref", repeat("r", 256)).String()},
			)
		},
	},
	{
		tool: "forge_search_issues", base: obj{{"query", `"crash"`}},
		addr: "query", addrMax: 200,
		own: func(b obj) []argCase {
			return append(optionalRepo(b),
				argCase{name: "state all", args: b.set("state", `"all"`).String(), valid: true},
				argCase{name: "state merged", args: b.set("state", `"merged"`).String()},
				argCase{name: "kind pull_request", args: b.set("kind", `"pull_request"`).String(), valid: true},
				argCase{name: "kind merge_request", args: b.set("kind", `"merge_request"`).String()},
			)
		},
	},
}

// optionalRepo are the cases of a search's repo and cursor.
func optionalRepo(b obj) []argCase {
	return []argCase{
		{name: "repo given", args: b.set("repo", `"acme/widgets"`).String(), valid: true},
		{name: "repo empty", args: b.set("repo", `""`).String(), valid: true},
		{name: "repo in nested groups", args: b.set("repo", `"group/sub.group/my_app-2"`).String(), valid: true},
		{name: "repo with an inner space", args: b.set("repo", `"acme/my widgets"`).String()},
		{name: "repo with a query", args: b.set("repo", `"acme/widgets?tab=issues"`).String()},
		{name: "repo at max length", args: b.set("repo", repeat("r", 200)).String(), valid: true},
		{name: "repo beyond max length", args: b.set("repo", repeat("r", 201)).String()},
		{name: "cursor at max length", args: b.set("cursor", repeat("c", 64)).String(), valid: true},
		{name: "cursor beyond max length", args: b.set("cursor", repeat("c", 65)).String()},
	}
}
