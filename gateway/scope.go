package gateway

import (
	"fmt"
	"path"
	"slices"
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

// scope is an account's repository allow-list: "*", or patterns each on
// the forge its entry names.
type scope struct {
	all  bool // "*": every repository on every forge
	sets []forgeSet
}

// forgeSet is the patterns of the entries that name one forge.
type forgeSet struct {
	forge forgeMatch
	repos repoSet
}

// forgeMatch is the forge an entry names: "host" (any provider there),
// "provider/host", or nothing (the gateway's default forge, def).
type forgeMatch struct {
	provider forgev1.ForgeProvider // 0: any provider on host
	host     string                // lower-cased; "" with provider 0: the default forge
}

// repoSet is the patterns of one forge's entries, lower-cased (forges
// treat owner and name case-insensitively).
type repoSet struct {
	all     bool            // "host:*"
	exact   map[string]bool // "owner/name", "group/sub/name" and team keys
	globs   []string        // "owner/*", "acme/web-*", "group/sub/*": path.Match patterns
	subtree map[string]bool // "prefix" of "prefix/**": any depth below it
}

// globChars are the pattern characters path.Match knows.
const globChars = "*?["

// scopeSyntax describes an entry for error messages.
const scopeSyntax = `"owner/name", "group/sub/name", a glob on the last segment such as "owner/*" or "owner/web-*", "prefix/**", a team key or "*", optionally after the forge it applies to ("github.com:acme/app", "github/ghe.example.com:acme/*"; without one, the default forge)`

// parseScope parses an account's entries. def is the gateway's default
// forge, which an entry naming no forge applies to.
func parseScope(entries []string, def coordinate) (scope, error) {
	s := scope{}
	for _, e := range entries {
		if e == "*" {
			s.all = true
			continue
		}
		fm, pattern, err := parseForgePart(e, def)
		if err != nil {
			return scope{}, err
		}
		i := slices.IndexFunc(s.sets, func(fs forgeSet) bool { return fs.forge == fm })
		if i < 0 {
			s.sets = append(s.sets, forgeSet{forge: fm, repos: repoSet{exact: map[string]bool{}, subtree: map[string]bool{}}})
			i = len(s.sets) - 1
		}
		if !s.sets[i].repos.add(pattern) {
			return scope{}, fmt.Errorf("scope entry %q is not %s", e, scopeSyntax)
		}
	}
	return s, nil
}

// parseForgePart splits an entry into the forge it names and its
// pattern. A repository never contains ':', so the forge is what comes
// before the last one (a host may carry a port).
func parseForgePart(e string, def coordinate) (forgeMatch, string, error) {
	i := strings.LastIndexByte(e, ':')
	if i < 0 {
		return forgeMatch{provider: def.provider, host: def.host}, e, nil
	}
	forge, pattern := e[:i], e[i+1:]
	var fm forgeMatch
	if prov, host, ok := strings.Cut(forge, "/"); ok {
		v, known := forgev1.ForgeProvider_value["FORGE_PROVIDER_"+strings.ToUpper(prov)]
		if !known || v == 0 {
			return forgeMatch{}, "", fmt.Errorf("scope entry %q names provider %q, which is not one of github, gitlab, gitea, linear or local", e, prov)
		}
		fm.provider, forge = forgev1.ForgeProvider(v), host
	}
	if forge == "" || len(forge) > 253 || !allIn(forge, ".:-") {
		return forgeMatch{}, "", fmt.Errorf("scope entry %q names forge host %q, which is not a host name with an optional port", e, forge)
	}
	fm.host = strings.ToLower(forge)
	return fm, pattern, nil
}

// add adds one pattern; false when it is not one.
func (r *repoSet) add(e string) bool {
	deep, isDeep := strings.CutSuffix(e, "/**")
	switch {
	case e == "*":
		r.all = true
	case isDeep && validRepo(deep):
		r.subtree[strings.ToLower(deep)] = true
	case strings.ContainsAny(e, globChars) && validGlob(e):
		r.globs = append(r.globs, strings.ToLower(e))
	case !strings.ContainsAny(e, globChars) && validRepo(e):
		r.exact[strings.ToLower(e)] = true
	default:
		return false
	}
	return true
}

// covers reports whether the entry's forge is the forge at ref.
func (f forgeMatch) covers(ref *forgev1.ForgeRef) bool {
	return (f.provider == 0 || f.provider == ref.GetProvider()) && f.host == strings.ToLower(ref.GetHost())
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
func (s scope) allowsRepo(ref *forgev1.ForgeRef, repo string) bool {
	return validRepo(repo) && s.allows(ref, repo)
}

// allows reports whether repo (already validRepo) on the forge at ref is
// in scope: "*", or an entry for that forge that covers it.
func (s scope) allows(ref *forgev1.ForgeRef, repo string) bool {
	if s.all {
		return true
	}
	repo = strings.ToLower(repo)
	for _, fs := range s.sets {
		if fs.forge.covers(ref) && fs.repos.allows(repo) {
			return true
		}
	}
	return false
}

// allows reports whether repo (lower-cased) matches a pattern. A glob's
// '*' never crosses a '/': "owner/*" covers exactly one level below owner
// (a GitHub owner's repositories, or the projects directly in a GitLab
// group, never its subgroups'); "prefix/**" covers every depth below it.
func (r *repoSet) allows(repo string) bool {
	if r.all || r.exact[repo] {
		return true
	}
	for _, g := range r.globs {
		if ok, _ := path.Match(g, repo); ok {
			return true
		}
	}
	for parent, _, ok := cutLast(repo); ok; parent, _, ok = cutLast(parent) {
		if r.subtree[parent] {
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
