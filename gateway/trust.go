package gateway

import (
	"context"
	"fmt"
	"strings"
	"time"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	"github.com/forgetools/forgetools/toolserver"
)

// Trusted authors beyond named logins: FlowRules.TrustedAuthors may name
// an organisation ("org:acme": its members) or the writers of the
// repository the text is in ("collaborators:write": logins with write,
// maintain or admin permission). The forge answers, through its
// provider's toolserver.AuthorVouch; a provider without it, a failed lookup,
// a text whose forge or repository is unknown, or an author no forge
// would issue all leave the author untrusted: the rule fails closed, and
// a lookup never fails the read that caused it.

// Spellings of the trusted-author entries that are not logins.
const (
	orgPrefix    = "org:"
	writersEntry = "collaborators:write"
)

// trustSet is FlowRules.TrustedAuthors as the gateway checks it.
type trustSet struct {
	logins  map[string]bool // lower-cased
	orgs    []string        // lower-cased organisation names
	writers bool            // the repository's writers are trusted
}

// parseTrusted validates FlowRules.TrustedAuthors (nil: a's own handles).
func parseTrusted(a Account) (trustSet, error) {
	list := a.Flow.TrustedAuthors
	if list == nil {
		list = []string{a.Name, a.AgentHandle, a.OwnerHandle}
	}
	t := trustSet{logins: map[string]bool{}}
	for _, l := range list {
		switch {
		case strings.EqualFold(l, writersEntry):
			t.writers = true
		case strings.HasPrefix(strings.ToLower(l), orgPrefix):
			org := l[len(orgPrefix):]
			if !lookupName(org) {
				return trustSet{}, fmt.Errorf("trusted author %q: the organisation must be 1-100 letters, digits, '-', '_' or '.', starting with a letter or digit", l)
			}
			t.orgs = append(t.orgs, strings.ToLower(org))
		case strings.HasPrefix(strings.ToLower(l), "collaborators:"):
			return trustSet{}, fmt.Errorf("trusted author %q: the only collaborators entry is %q (logins with write permission on the repository)", l, writersEntry)
		case strings.Contains(l, ":"):
			return trustSet{}, fmt.Errorf("trusted author %q: an entry is a forge login, %q or %q", l, orgPrefix+"NAME", writersEntry)
		case !validLogin(l):
			return trustSet{}, fmt.Errorf("trusted author %q is not a forge login (1-100 letters, digits, '-', '_', '.', '[' or ']')", l)
		default:
			t.logins[strings.ToLower(l)] = true
		}
	}
	return t, nil
}

// lookupName is a login or organisation the gateway may put in a forge
// request's path: no "." or ".." segment, no bot suffix, nothing a path
// could read as structure.
func lookupName(s string) bool {
	return s != "" && len(s) <= 100 && isAlnum(s[0]) && allIn(s, "-_.") && !strings.Contains(s, "..")
}

// vouches reports whether the set needs the forge to answer for anyone.
func (t trustSet) vouches() bool { return len(t.orgs) > 0 || t.writers }

// Trust cache lifetimes: a forge's answer holds for trustTTL (a member
// removed from an organisation is seen within it); a failed lookup is
// retried after unknownTTL.
const trustTTL = 5 * time.Minute

// maxTrustLookups bounds the forge lookups one read can cause: a result
// naming many authors (a hostile forge's) costs no more; the rest stay
// untrusted.
const maxTrustLookups = 20

// lookupTimeout bounds one lookup, and lookupBudget all of one read's;
// past them, the authors left are untrusted.
const (
	lookupTimeout = 10 * time.Second
	lookupBudget  = 20 * time.Second
)

type trustKey struct {
	coordinate
	kind  string // "org" or "writer"
	where string // organisation or repository, lower-cased
	login string // lower-cased
}

// trustCache remembers forges' answers per (forge, organisation or
// repository, login).
type trustCache = expiring[trustKey, bool]

// authorTrust answers, for one read, whether each text's author is
// trusted, asking the forge at most maxTrustLookups times.
type authorTrust struct {
	s       *Service
	o       *operation
	lookups int
	until   time.Time // the lookups' budget, set at the first
}

// trusted reports whether login, the author of a text in repo on the
// forge at ref, is one of the account's trusted authors.
func (t *authorTrust) trusted(ctx context.Context, ref *forgev1.ForgeRef, repo, login string) bool {
	set := t.o.acct.trusted
	if set.logins[strings.ToLower(login)] {
		return true
	}
	if !set.vouches() || !lookupName(login) || ref.GetProvider() == 0 {
		return false
	}
	for _, org := range set.orgs {
		if t.ask(ctx, ref, "org", org, login) {
			return true
		}
	}
	// A repository outside the account's scope (named by a hostile
	// forge's result) is not asked about.
	return set.writers && validRepo(repo) && t.o.sc.allowsRepo(ref, repo) && t.ask(ctx, ref, "writer", repo, login)
}

// ask is one (cached) forge lookup; every failure is "not trusted".
func (t *authorTrust) ask(ctx context.Context, ref *forgev1.ForgeRef, kind, where, login string) bool {
	k := trustKey{coordinate{ref.GetProvider(), strings.ToLower(ref.GetHost())}, kind, strings.ToLower(where), strings.ToLower(login)}
	cache := &t.s.flow.trust
	if v, ok := cache.get(k); ok {
		return v
	}
	if t.lookups++; t.lookups > maxTrustLookups {
		return false
	}
	if t.until.IsZero() {
		t.until = time.Now().Add(lookupBudget)
	}
	if !time.Now().Before(t.until) {
		return false
	}
	v, err := t.lookup(ctx, ref, kind, where, login)
	ttl := trustTTL
	if err != nil {
		v, ttl = false, unknownTTL
	}
	cache.put(k, v, ttl)
	return v
}

func (t *authorTrust) lookup(ctx context.Context, ref *forgev1.ForgeRef, kind, where, login string) (bool, error) {
	p, fe := t.s.cfg.registry.resolve(ref)
	if fe != nil {
		return false, fmt.Errorf("%s", fe.GetMessage())
	}
	av, ok := p.(toolserver.AuthorVouch)
	if !ok {
		return false, fmt.Errorf("the provider cannot say who its authors are")
	}
	// A slow forge delays the read by at most lookupTimeout per lookup.
	ctx, cancel := context.WithTimeout(ctx, min(lookupTimeout, time.Until(t.until)))
	defer cancel()
	c := toolserver.Call{Account: t.o.acct.Name, Session: t.o.id.Session, AgentHandle: t.o.acct.AgentHandle, OwnerHandle: t.o.acct.OwnerHandle}
	if kind == "org" {
		return av.OrgMember(ctx, c, where, login)
	}
	return av.RepoWriter(ctx, c, where, login)
}
