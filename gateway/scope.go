package gateway

import (
	"fmt"
	"path"
	"strings"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
)

// maxSegments bounds a repository path: GitLab nests up to 20 subgroups
// below a top-level group, then the project.
const maxSegments = 22

// validRepo reports whether repo is "owner/name" (GitLab: "group/sub/name")
// or a bare key, with no empty, "." or ".." segment. A segment is 1-100
// letters, digits, '_', '.' or '-': what GitHub, GitLab, Gitea and Linear
// team keys have in common. Anything else (spaces, "%", "?") could change
// the URL a provider builds, so it never gets that far.
func validRepo(repo string) bool {
	n := 0
	for seg := range strings.SplitSeq(repo, "/") {
		if n++; n > maxSegments || seg == "." || seg == ".." || seg == "" || len(seg) > 100 || !allIn(seg, "_.-") {
			return false
		}
	}
	return true
}

// repoShape refuses a repository the forge cannot name, before the scope
// check, so a model that left out the owner learns the shape it needs
// instead of reading a scope denial: Linear takes a team key, every other
// forge "owner/name".
func repoShape(p forgev1.ForgeProvider, repo string) *gatewayv1.ForgeCallError {
	slash := strings.Contains(repo, "/")
	switch {
	case p == forgev1.ForgeProvider_FORGE_PROVIDER_LINEAR && slash:
		return failure(gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT,
			"repo %q is not a Linear team key: on Linear, repo is the team key, e.g. \"ENG\"", repo)
	case p != forgev1.ForgeProvider_FORGE_PROVIDER_LINEAR && !slash:
		return failure(gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT,
			"repo %q names no repository on %s: want \"owner/name\"", repo, providerName(p))
	}
	return nil
}

// scope is an account's repository allow-list, lower-cased (forges treat
// owner and name case-insensitively).
type scope struct {
	all     bool            // "*"
	exact   map[string]bool // "owner/name", "group/sub/name" and team keys
	globs   []string        // "owner/*", "acme/web-*", "group/sub/*": path.Match patterns
	subtree map[string]bool // "prefix" of "prefix/**": any depth below it
}

// globChars are the pattern characters path.Match knows.
const globChars = "*?["

func parseScope(entries []string) (scope, error) {
	s := scope{exact: map[string]bool{}, subtree: map[string]bool{}}
	for _, e := range entries {
		deep, isDeep := strings.CutSuffix(e, "/**")
		switch {
		case e == "*":
			s.all = true
		case isDeep && validRepo(deep):
			s.subtree[strings.ToLower(deep)] = true
		case strings.ContainsAny(e, globChars) && validGlob(e):
			s.globs = append(s.globs, strings.ToLower(e))
		case !strings.ContainsAny(e, globChars) && validRepo(e):
			s.exact[strings.ToLower(e)] = true
		default:
			return scope{}, fmt.Errorf(`scope entry %q is not "owner/name", "group/sub/name", a glob on the last segment such as "owner/*" or "owner/web-*", "prefix/**", a team key or "*"`, e)
		}
	}
	return s, nil
}

// validGlob accepts a pattern on a repository's last segment below a
// literal prefix ("owner/*", "acme/web-*", "group/sub/*"): a pattern in
// the prefix would reach every account's repositories of that name; "**"
// is only a whole suffix ("prefix/**", parsed before this); the last
// segment must be a valid one once its pattern characters are read as
// letters, and path.Match must be able to use the pattern.
func validGlob(e string) bool {
	i := strings.LastIndexByte(e, '/')
	if i < 0 {
		return false
	}
	prefix, name := e[:i], e[i+1:]
	if strings.ContainsAny(prefix, globChars) || strings.Contains(name, "**") || !validRepo(prefix) {
		return false
	}
	literal := strings.Map(func(r rune) rune {
		if strings.ContainsRune(globChars+"]^", r) {
			return 'x'
		}
		return r
	}, name)
	if !validRepo(literal) {
		return false
	}
	_, err := path.Match(e, "")
	return err == nil
}

// allowsRepo is allows for a repository read from stored state, which
// is checked for shape first.
func (s scope) allowsRepo(repo string) bool { return validRepo(repo) && s.allows(repo) }

// allows reports whether repo (already validRepo) is in scope. A glob's
// '*' never crosses a '/': "owner/*" covers exactly one level below owner
// (a GitHub owner's repositories, or the projects directly in a GitLab
// group, never its subgroups'); "prefix/**" covers every depth below it.
func (s scope) allows(repo string) bool {
	repo = strings.ToLower(repo)
	if s.all || s.exact[repo] {
		return true
	}
	for _, g := range s.globs {
		if ok, _ := path.Match(g, repo); ok {
			return true
		}
	}
	for parent, _, ok := cutLast(repo); ok; parent, _, ok = cutLast(parent) {
		if s.subtree[parent] {
			return true
		}
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
