package giteatest

import (
	"strings"

	"github.com/forgetools/forgetools/internal/forgemodel"
)

// hasKeyword is the issue list's q filter: Gitea's issue indexer matches
// the keyword in an issue's title, body and comments, ignoring case; an
// empty keyword matches everything. (Gitea's API has no code search, so
// the fake has none either.)
func hasKeyword(it *forgemodel.Item, q string) bool {
	if q == "" {
		return true
	}
	q = strings.ToLower(q)
	if strings.Contains(strings.ToLower(it.Title), q) || strings.Contains(strings.ToLower(it.Body), q) {
		return true
	}
	for _, c := range it.Comments {
		if strings.Contains(strings.ToLower(c.Body), q) {
			return true
		}
	}
	return false
}
