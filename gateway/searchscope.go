package gateway

import (
	"context"
	"slices"
	"strings"

	"google.golang.org/protobuf/reflect/protoreflect"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/toolserver"
)

// A search (an arm whose (tool).scope is SCOPE_ACCOUNT_REPOSITORIES) may
// name no repository: it then searches every repository the account's
// scope lists on the forge its selector names, and nothing else. The
// gateway, not the provider, decides what that is: it hands the provider
// the list (toolserver.Call.Repos), and whatever the forge answers, it
// drops every result item whose repository is not the one the call named
// or, naming none, one of that list. A forge that ignores the restriction
// (a hostile or buggy one, or a query that smuggled in the forge's own
// qualifiers) still shows the agent nothing outside its scope.

// maxScopeRepos bounds the repositories a search that names none fans out
// to: each is a forge request on the forges that search one repository at
// a time.
const maxScopeRepos = 20

// scopeAccountRepositories resolves the forge of a call that names no
// repository and lists the repositories it acts on.
func (s *Service) scopeAccountRepositories(o *operation) (Provider, error) {
	p, fe := s.cfg.registry.resolve(selectorOf(o.env))
	if fe != nil {
		return nil, inBand{fe}
	}
	o.ref, o.forge = p.Ref(), describe(p.Ref())
	repos, err := o.sc.listed(o.ref)
	if err != nil {
		return nil, err
	}
	if len(repos) == 0 {
		return nil, refuse(gatewayv1.ErrorCode_ERROR_CODE_PERMISSION_DENIED,
			"account %q has no repository in scope on %s, so %s has nothing to search there", o.acct.Name, o.forge, o.tool)
	}
	if len(repos) > maxScopeRepos {
		return nil, refuse(gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT,
			"your scope lists %d repositories on %s, more than the %d a search without repo covers: name a repo", len(repos), o.forge, maxScopeRepos)
	}
	o.repos = repos
	return p, nil
}

// listed is the repositories the scope names one by one on the forge at
// ref, lower-cased and sorted. A pattern ("*", "owner/*", "prefix/**")
// covers repositories the gateway cannot list without asking the forge,
// and a search of the whole forge filtered afterwards would page through
// what the account may not see: such a scope is refused, and the caller
// names a repository, which is checked against the patterns as usual.
func (s scope) listed(ref *forgev1.ForgeRef) ([]string, error) {
	patterns := func(what string) error {
		return refuse(gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT,
			"your scope on %s includes %s, which the gateway cannot list: name a repo to search", describe(ref), what)
	}
	if s.all {
		return nil, patterns(`"*" (every repository)`)
	}
	var repos []string
	for _, fs := range s.sets {
		if !fs.forge.covers(ref) {
			continue
		}
		switch r := fs.repos; {
		case r.all:
			return nil, patterns("every repository there")
		case len(r.globs) > 0:
			return nil, patterns("the pattern " + r.globs[0])
		case len(r.subtree) > 0:
			return nil, patterns("a pattern ending /**")
		}
		for repo := range fs.repos.exact {
			repos = append(repos, repo)
		}
	}
	slices.Sort(repos)
	return slices.Compact(repos), nil
}

// keepInScope drops from a search's result every item whose repository the
// call does not cover: the repository it named, else one of o.repos. It
// runs on every call of such an arm, before anything else reads the result.
func (s *Service) keepInScope(ctx context.Context, o *operation, out protoreflect.Message) {
	keep := func(repo string) bool {
		if !validRepo(repo) {
			return false
		}
		if o.repo != "" {
			return strings.EqualFold(repo, o.repo)
		}
		_, listed := slices.BinarySearch(o.repos, strings.ToLower(repo))
		return listed && o.sc.allows(o.ref, repo)
	}
	if n := dropItems(out, keep); n > 0 {
		s.log.WarnContext(ctx, "forge answered a search with results outside the call's repositories; dropped",
			"account", o.acct.Name, "tool", o.tool, "forge", o.forge, "dropped", n)
	}
}

// dropItems removes, from every repeated message field at any depth, the
// items whose (artifact) = REPO field keep refuses, and counts them.
func dropItems(m protoreflect.Message, keep func(repo string) bool) int {
	dropped := 0
	for _, fd := range planOf(m.Descriptor()).nested {
		if !m.Has(fd) {
			continue
		}
		if !fd.IsList() {
			dropped += dropItems(m.Get(fd).Message(), keep)
			continue
		}
		l := m.Mutable(fd).List()
		kept := 0
		for i := range l.Len() {
			item := l.Get(i).Message()
			if repo := planOf(item.Descriptor()).repo; repo != nil && !keep(item.Get(repo).String()) {
				dropped++
				continue
			}
			dropped += dropItems(item, keep)
			l.Set(kept, l.Get(i))
			kept++
		}
		l.Truncate(kept)
	}
	return dropped
}

// searchesScope reports whether the arm is a search scoped by the
// account's repositories.
func searchesScope(a *toolserver.Arm) bool {
	return a.ScopeWhenEmpty == toolserver.ScopeAccountRepositories
}
