package schema_test

// diffTools is the corpus of issue 21's diff arms, with the same shared
// cases as the others.
var diffTools = []toolCorpus{
	{
		tool: "forge_get_pull_request_diff", base: obj{{"repo", `"acme/widgets"`}, {"pull_number", `4`}},
		addr: "repo", addrMax: 200, number: "pull_number",
		own: diffFilters,
	},
	{
		tool: "forge_compare", base: obj{{"repo", `"acme/widgets"`}, {"base", `"main"`}, {"head", `"fix-crash"`}},
		addr: "repo", addrMax: 200,
		own: func(b obj) []argCase {
			return append(diffFilters(b), []argCase{
				{name: "head omitted", args: b.without("head").String()},
				{name: "base blank", args: b.set("base", `" "`).String()},
				{name: "head at max length", args: b.set("head", repeat("h", 255)).String(), valid: true},
				{name: "head beyond max length", args: b.set("head", repeat("h", 256)).String()},
				{name: "base number", args: b.set("base", `1`).String()},
			}...)
		},
	},
}

// diffFilters are the cases of a diff's path filter and cursor.
func diffFilters(b obj) []argCase {
	return []argCase{
		{name: "path filter", args: b.set("path", `"cmd/main.go"`).String(), valid: true},
		{name: "path empty", args: b.set("path", `""`).String(), valid: true},
		{name: "path beyond max length", args: b.set("path", repeat("p", 1025)).String()},
		{name: "cursor at max length", args: b.set("cursor", repeat("c", 64)).String(), valid: true},
		{name: "cursor beyond max length", args: b.set("cursor", repeat("c", 65)).String()},
		{name: "cursor number", args: b.set("cursor", `3`).String()},
	}
}
