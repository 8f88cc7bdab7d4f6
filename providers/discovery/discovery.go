// Package discovery is what `forgetools repos` asks a forge provider: the
// repositories (or, on Linear, the teams) its configured credential can
// reach, with the credential's permission on each, so an operator builds
// an account's scope from what exists instead of guessing globs.
package discovery

import "context"

// Repository is one reachable repository.
type Repository struct {
	// Repo is the name the tools take as `repo`: "owner/name",
	// "group/sub/project" on GitLab, a team key on Linear.
	Repo string
	// Permission is the credential's access in the tools' vocabulary:
	// admin, maintain, write, triage or read ("" when the forge does not
	// say).
	Permission string
}

// Lister is implemented by providers that can list what their credential
// reaches.
type Lister interface {
	// Repositories calls each for every reachable repository, paging
	// through the forge's listing in order; it stops at the first error
	// each returns.
	Repositories(ctx context.Context, each func(Repository) error) error
}
