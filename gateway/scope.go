package gateway

import (
	"fmt"
	"path"
	"regexp"
	"strings"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
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
	all   bool            // "*"
	exact map[string]bool // "owner/name" and team keys
	globs []string        // "owner/*", "acme/web-*": path.Match patterns
}

// globChars are the pattern characters path.Match knows.
const globChars = "*?["

func parseScope(entries []string) (scope, error) {
	s := scope{exact: map[string]bool{}}
	for _, e := range entries {
		switch {
		case e == "*":
			s.all = true
		case strings.ContainsAny(e, globChars) && validGlob(e):
			s.globs = append(s.globs, strings.ToLower(e))
		case !strings.ContainsAny(e, globChars) && validRepo(e):
			s.exact[strings.ToLower(e)] = true
		default:
			return scope{}, fmt.Errorf(`scope entry %q is not "owner/name", an owner's glob such as "owner/*" or "owner/web-*", a team key or "*"`, e)
		}
	}
	return s, nil
}

// validGlob accepts an "owner/name" pattern: a literal owner (a pattern
// there would reach every account's repositories of that name), no "**"
// (a '*' never crosses a '/', so it could only mislead), a name
// that is a valid segment once its pattern characters are read as
// letters, and a pattern path.Match can use.
func validGlob(e string) bool {
	owner, name, ok := strings.Cut(e, "/")
	if !ok || strings.Contains(name, "/") || strings.ContainsAny(owner, globChars) || strings.Contains(name, "**") {
		return false
	}
	literal := func(seg string) string {
		return strings.Map(func(r rune) rune {
			if strings.ContainsRune(globChars+"]^", r) {
				return 'x'
			}
			return r
		}, seg)
	}
	if !validRepo(literal(owner)) || !validRepo(literal(name)) {
		return false
	}
	_, err := path.Match(e, "")
	return err == nil
}

// allows reports whether repo (already validRepo) is in scope. A glob's
// '*' never crosses a '/': "owner/*" covers exactly one level below owner,
// never a GitLab subgroup's projects.
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
	return false
}
