package schema_test

import (
	"slices"
	"strings"
)

// toolCorpus describes one tool for the cases every tool shares.
type toolCorpus struct {
	tool string
	// base is a minimal valid call.
	base obj
	// addr is the required non-blank string that addresses the target:
	// repo, or subscription_id for forge_unsubscribe; "" for a tool whose
	// every parameter is optional (forge_get_events).
	addr    string
	addrMax int
	// number is the issue/pull request number parameter; "" if none.
	number string
	// own is the tool's own cases.
	own func(base obj) []argCase
}

// corpus is every case: the shared ones for each tool, then its own.
func corpus() []argCase {
	var out []argCase
	for _, tc := range slices.Concat(tools, handsTools, searchTools, threadTools, diffTools, updatePRTools) {
		out = append(out, shared(tc)...)
		for _, c := range tc.own(tc.base) {
			c.tool = tc.tool
			out = append(out, c)
		}
	}
	return out
}

// shared are the cases every tool gets: the call as a whole, the address
// parameter, the number parameter and the forge selector.
func shared(tc toolCorpus) []argCase {
	b, a := tc.base, tc.addr
	cases := []argCase{
		{name: "minimal valid call", args: b.String(), valid: true},
		{name: "unknown parameter", args: b.set("bogus", "1").String()},
		{name: "empty object", args: `{}`, valid: a == ""},
		{name: "array instead of object", args: `[]`},
		{name: "null instead of object", args: `null`},
	}
	cases = append(cases, addressed(tc)...)
	cases = append(cases, []argCase{
		{name: "forge_provider and forge_host", args: b.set("forge_provider", `"linear"`, "forge_host", `"linear.app"`).String(), valid: true},
		{name: "forge_provider every value", args: b.set("forge_provider", `"local"`).String(), valid: true},
		{name: "forge_provider unknown", args: b.set("forge_provider", `"bitbucket"`).String()},
		{name: "forge_provider wrong case", args: b.set("forge_provider", `"GitHub"`).String()},
		{name: "forge_provider empty", args: b.set("forge_provider", `""`).String()},
		{name: "forge_provider number", args: b.set("forge_provider", `1`).String()},
		{name: "forge_provider null", args: b.set("forge_provider", `null`).String(), valid: true},
		{name: "forge_host alone with port", args: b.set("forge_host", `"ghe.example.com:8443"`).String(), valid: true},
		{name: "forge_host empty", args: b.set("forge_host", `""`).String(), valid: true},
		{name: "forge_host with scheme", args: b.set("forge_host", `"https://ghe.example.com"`).String()},
		{name: "forge_host with user info", args: b.set("forge_host", `"user@ghe.example.com"`).String()},
		{name: "forge_host with path", args: b.set("forge_host", `"ghe.example.com/api"`).String()},
		{name: "forge_host at max length", args: b.set("forge_host", repeat("h", 253)).String(), valid: true},
		{name: "forge_host beyond max length", args: b.set("forge_host", repeat("h", 254)).String()},
	}...)
	cases = append(cases, numbered(tc)...)
	for i := range cases {
		cases[i].tool = tc.tool
	}
	return cases
}

// addressed are the cases of the address parameter; none for a tool
// without one.
func addressed(tc toolCorpus) []argCase {
	b, a := tc.base, tc.addr
	if a == "" {
		return nil
	}
	// repo is a forge name: letters, digits, '-', '.', '_' and '/' on every
	// forge, so characters that pass a non-blank rule (Unicode, padding)
	// break its pattern. Other addresses (subscription ids) are only
	// non-blank.
	free := a != "repo"
	return []argCase{
		{name: "misspelled parameter", args: b.without(a).set(a+"s", `"x"`).String()},
		{name: "repeated key", args: strings.Replace(b.String(), "{", "{"+str(a)+`:"first",`, 1)},
		{name: a + " missing", args: b.without(a).String()},
		{name: a + " empty", args: b.set(a, `""`).String()},
		{name: a + " whitespace only", args: b.set(a, `" \t\n\r "`).String()},
		{name: a + " null", args: b.set(a, `null`).String()},
		{name: a + " number", args: b.set(a, `7`).String()},
		{name: a + " array", args: b.set(a, `["acme/widgets"]`).String()},
		{name: a + " at max length", args: b.set(a, repeat("r", tc.addrMax)).String(), valid: true},
		{name: a + " beyond max length", args: b.set(a, repeat("r", tc.addrMax+1)).String()},
		// Lengths count characters (code points) on both sides, not bytes
		// and not UTF-16 units.
		{name: a + " max length in multibyte characters", args: b.set(a, repeat("é", tc.addrMax)).String(), valid: free},
		{name: a + " max length in astral characters", args: b.set(a, repeat("😀", tc.addrMax)).String(), valid: free},
		// Blank is Unicode White_Space, alike in the runtime (RE2), the
		// gateway and a JavaScript client (ECMA-262): the non-blank rule
		// is charset.NonBlank, not \S.
		{name: a + " no-break space only", args: b.set(a, `"\u00a0"`).String()},
		{name: a + " vertical tab only", args: b.set(a, `"\u000b"`).String()},
		{name: a + " ideographic and em spaces only", args: b.set(a, `"\u3000\u2003"`).String()},
		{name: a + " line separator and next line only", args: b.set(a, `"\u2028\u0085"`).String()},
		{name: a + " zero-width space", args: b.set(a, `"\u200b"`).String(), valid: free}, // Cf, not a space
		{name: a + " byte order mark", args: b.set(a, `"\ufeff"`).String(), valid: free},  // ECMA's \s has it; White_Space does not
		{name: a + " padded", args: b.set(a, `"  acme/widgets  "`).String(), valid: free},
		{name: a + " padded with no-break spaces", args: b.set(a, `"\u00a0acme/widgets\u00a0"`).String(), valid: free},
		{name: a + " in nested groups", args: b.set(a, `"group/sub.group/my_app-2"`).String(), valid: true},
		{name: a + " with a query", args: b.set(a, `"acme/widgets?tab=issues"`).String(), valid: free},
		{name: a + " with an inner space", args: b.set(a, `"acme/my widgets"`).String(), valid: free},
	}
}

// numbered are the cases of the issue or pull request number parameter.
func numbered(tc toolCorpus) []argCase {
	b := tc.base
	var cases []argCase
	if n := tc.number; n != "" {
		cases = append(cases, []argCase{
			{name: n + " 1", args: b.set(n, `1`).String(), valid: true},
			{name: n + " 0", args: b.set(n, `0`).String()},
			{name: n + " negative", args: b.set(n, `-1`).String()},
			{name: n + " fraction", args: b.set(n, `1.5`).String()},
			{name: n + " integral float", args: b.set(n, `12.0`).String(), valid: true},
			{name: n + " exponent", args: b.set(n, `1e2`).String(), valid: true},
			{name: n + " string", args: b.set(n, `"7"`).String()},
			{name: n + " boolean", args: b.set(n, `true`).String()},
			{name: n + " null", args: b.set(n, `null`).String()},
			{name: n + " missing", args: b.without(n).String()},
			{name: n + " at its maximum", args: b.set(n, `2147483647`).String(), valid: true},
			{name: n + " above its maximum", args: b.set(n, `2147483648`).String()},
			{name: n + " above uint64", args: b.set(n, `18446744073709551616`).String()},
		}...)
	}
	return cases
}
