package toolserver

import "context"

// AuthorVouch is implemented by a provider that can tell the gateway's
// untrusted-content rule who an author is on the forge: a member of an
// organisation, or a login with write permission on a repository. An
// account's trusted authors may name an organisation ("org:NAME") or the
// repository's writers ("collaborators:write"); on a provider without it
// those entries trust no one (the rule fails closed).
//
// Both answer false, with no error, for a login the forge does not know;
// an error is a failed lookup, which the gateway also reads as untrusted.
type AuthorVouch interface {
	// OrgMember reports whether login is a member of org, as c's identity
	// on the forge can see it.
	OrgMember(ctx context.Context, c Call, org, login string) (bool, error)
	// RepoWriter reports whether login may push to repo ("owner/name"):
	// write, maintain or admin permission, as c's identity can see it.
	RepoWriter(ctx context.Context, c Call, repo, login string) (bool, error)
}
