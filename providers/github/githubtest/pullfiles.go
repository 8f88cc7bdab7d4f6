package githubtest

import (
	"strings"
)

// A pull request's files, as GitHub lists them: the diff of its head
// from the merge base with its base (git diff base...head, forgemodel's
// PullDiff), so a change the base made after the head left it is not in
// it, and a merged pull request keeps the diff it was merged with. A
// test may seed fixed patches instead (Pull.Files, AddBranch's changes):
// a pull request with seeded patches lists those.

// changesOf is what pull request p changes: its seeded patches, or its
// diff from the history with each patch as GitHub sends it (no newline
// after the last line).
func changesOf(r *repo, p *pull) []Change {
	if p.Changes != nil {
		return p.Changes
	}
	var out []Change
	for _, d := range r.PullDiff(p) {
		out = append(out, Change{Path: d.Path, Patch: strings.TrimSuffix(d.Patch, "\n")})
	}
	return out
}
