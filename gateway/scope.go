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

// maxSegments bounds a repository path: GitLab nests up to 20 subgroups
// below a top-level group, then the project.
const maxSegments = 22

// validRepo reports whether repo is "owner/name", a nested path such as
// GitLab's "group/sub/name", or a bare key, with no empty, "." or ".."
// segment. Whether a forge takes a nested path is its provider's call.
func validRepo(repo string) bool {
	n := 0
	for seg := range strings.SplitSeq(repo, "/") {
		if n++; n > maxSegments || seg == "." || seg == ".." || !segmentRE.MatchString(seg) {
			return false
		}
	}
	return true
}

// scope is an account's repository allow-list, lower-cased (forges treat
// owner and name case-insensitively).
type scope struct {
	all      bool            // "*"
	exact    map[string]bool // "owner/name", "group/sub/name" and team keys
	children map[string]bool // "prefix" of "prefix/*": one level below it
	subtree  map[string]bool // "prefix" of "prefix/**": any depth below it
}

func parseScope(entries []string) (scope, error) {
	s := scope{exact: map[string]bool{}, children: map[string]bool{}, subtree: map[string]bool{}}
	for _, e := range entries {
		deep, isDeep := strings.CutSuffix(e, "/**")
		one, isOne := strings.CutSuffix(e, "/*")
		switch {
		case e == "*":
			s.all = true
		case isDeep && validRepo(deep):
			s.subtree[strings.ToLower(deep)] = true
		case isOne && validRepo(one):
			s.children[strings.ToLower(one)] = true
		case validRepo(e):
			s.exact[strings.ToLower(e)] = true
		default:
			return scope{}, fmt.Errorf(`scope entry %q is not "owner/name", "group/sub/name", "prefix/*", "prefix/**", a team key or "*"`, e)
		}
	}
	return s, nil
}

// allows reports whether repo (already validRepo) is in scope. "prefix/*"
// covers exactly one level below prefix (a GitHub owner's repositories,
// or the projects directly in a GitLab group, never its subgroups');
// "prefix/**" covers every depth below it.
func (s scope) allows(repo string) bool {
	repo = strings.ToLower(repo)
	if s.all || s.exact[repo] {
		return true
	}
	parent, _, ok := cutLast(repo)
	if ok && s.children[parent] {
		return true
	}
	for ok {
		if s.subtree[parent] {
			return true
		}
		parent, _, ok = cutLast(parent)
	}
	return false
}

// cutLast splits a path at its last slash.
func cutLast(p string) (parent, last string, ok bool) {
	i := strings.LastIndexByte(p, '/')
	if i < 0 {
		return "", p, false
	}
	return p[:i], p[i+1:], true
}
