package generator

import "testing"

// Unexported helper names lower a leading initialism whole, as Go spells
// it, whatever its length.
func TestLowerFirst(t *testing.T) {
	for in, want := range map[string]string{
		"CIStatusFilter": "ciStatusFilter",
		"URL":            "url",
		"HTTPServer":     "httpServer",
		"Forge":          "forge",
		"ForgeProvider":  "forgeProvider",
		"IssueState":     "issueState",
		"A":              "a",
		"":               "",
		"forgev1Ref":     "forgev1Ref",
	} {
		if got := lowerFirst(in); got != want {
			t.Errorf("lowerFirst(%q) = %q, want %q", in, got, want)
		}
	}
}
