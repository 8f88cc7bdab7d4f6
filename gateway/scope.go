package gateway

import (
	"fmt"
	"regexp"
	"strings"
)

// segmentRE is one path segment of a repository: what GitHub, GitLab,
// Gitea and Linear team keys have in common. Anything else (spaces, "%",
// "?") could change the URL a provider builds, so it never gets that far.
var segmentRE = regexp.MustCompile(`^[A-Za-z0-9_.-]{1,100}$`)

// validRepo reports whether repo is "owner/name" (GitLab: "group/sub/name")
// or a bare key, with no empty, "." or ".." segment.
func validRepo(repo string) bool {
	for seg := range strings.SplitSeq(repo, "/") {
		if seg == "." || seg == ".." || !segmentRE.MatchString(seg) {
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

// allowsRepo is allows for a repository read from stored state, which
// is checked for shape first.
func (s scope) allowsRepo(repo string) bool { return validRepo(repo) && s.allows(repo) }

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
