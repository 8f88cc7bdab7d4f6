package giteareal_test

import (
	"strings"
	"testing"
)

// Issue search against the real server: the repository's issue list with
// its keyword filter finds an issue by a word of its title, ignoring case,
// honours kind and state, and takes a query carrying URL syntax as text; code search answers unimplemented, saying why, since Gitea's API
// has none.
func TestRealGiteaSearch(t *testing.T) {
	e := start(t, asBot)
	e.addIssue(e.u.bot.Token, "Gadget squeaks when cold")
	e.addIssue(e.u.bot.Token, "Rattles at night")

	got := e.ok("forge_search_issues", `,"query":"SQUEAKS"`)
	if !strings.Contains(got, "Gadget squeaks when cold") || strings.Contains(got, "Rattles") || !strings.Contains(got, "kind: issue") {
		t.Errorf("search for squeaks:\n%s", got)
	}
	if got := e.ok("forge_search_issues", `,"query":"squeaks","kind":"pull_request"`); strings.Contains(got, "Gadget squeaks") {
		t.Errorf("a pull request search shows an issue:\n%s", got)
	}
	if got := e.ok("forge_search_issues", `,"query":"squeaks","state":"closed"`); strings.Contains(got, "Gadget squeaks") {
		t.Errorf("a closed search shows an open issue:\n%s", got)
	}
	if got := e.ok("forge_search_issues", `,"query":"squeaks&type=pulls&state=all"`); strings.Contains(got, "Rattles") {
		t.Errorf("URL syntax in the query widened the search:\n%s", got)
	}
	want(t, "search code", e.fails("forge_search_code", `,"query":"Squeak"`),
		"forge_search_code failed: unimplemented: Gitea's API has no code search (its code indexer, when enabled, serves only the web interface): read files with forge_read_file and forge_list_dir")
}
