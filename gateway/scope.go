package gateway

import (
	"fmt"
	"strings"
)

// validRepo reports whether repo is "owner/name" (GitLab: "group/sub/name")
// or a bare key, with no empty, "." or ".." segment. A segment is 1-100
// letters, digits, '_', '.' or '-': what GitHub, GitLab, Gitea and Linear
// team keys have in common. Anything else (spaces, "%", "?") could change
// the URL a provider builds, so it never gets that far.
func validRepo(repo string) bool {
	for seg := range strings.SplitSeq(repo, "/") {
		if seg == "" || len(seg) > 100 || seg == "." || seg == ".." || !allIn(seg, "_.-") {
			return false
		}
	}
	return true
}

// scope is an account's repository allow-list, lower-cased (forges treat
// owner and name case-insensitively).
type scope struct {
	all    bool            // "*"
	exact  map[string]bool // "owner/name" and team keys
	owners map[string]bool // "owner" of "owner/*"
}

func parseScope(entries []string) (scope, error) {
	s := scope{exact: map[string]bool{}, owners: map[string]bool{}}
	for _, e := range entries {
		switch owner, ok := strings.CutSuffix(e, "/*"); {
		case e == "*":
			s.all = true
		case ok && !strings.Contains(owner, "/") && validRepo(owner):
			s.owners[strings.ToLower(owner)] = true
		case validRepo(e):
			s.exact[strings.ToLower(e)] = true
		default:
			return scope{}, fmt.Errorf(`scope entry %q is not "owner/name", "owner/*", a team key or "*"`, e)
		}
	}
	return s, nil
}

// allows reports whether repo (already validRepo) is in scope. "owner/*"
// covers exactly one level below owner, never a GitLab subgroup's projects.
func (s scope) allows(repo string) bool {
	repo = strings.ToLower(repo)
	if s.all || s.exact[repo] {
		return true
	}
	owner, name, ok := strings.Cut(repo, "/")
	return ok && !strings.Contains(name, "/") && s.owners[owner]
}
