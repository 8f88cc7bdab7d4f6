package githubtest

import (
	"strings"

	"github.com/forgetools/forgetools/internal/forgemodel"
)

// A pull request's files, as GitHub lists them: the diff of its head
// from the merge base with its base (git diff base...head), so a change
// the base made after the head left it is not in it. A test may seed
// fixed patches instead (Pull.Files, AddBranch's changes): a pull
// request with seeded patches lists those.

// pullDiffs is pull request p's diff from the history; nil when its base
// or head has no commit. A merged pull request keeps the diff it was
// merged with: from the base's head before its merge commit.
func pullDiffs(r *repo, p *pull) []forgemodel.FileDiff {
	head, base := r.Commits[r.PullHead(p)], r.Commits[r.Branches[p.Base]]
	if mc := r.Commits[p.MergeSHA]; p.Merged && mc != nil && len(mc.Parents) > 0 {
		base = r.Commits[mc.Parents[0]]
	}
	if head == nil || base == nil {
		return nil
	}
	mb := r.Commits[r.MergeBase(base.SHA, head.SHA)]
	if mb == nil {
		return nil
	}
	return forgemodel.DiffFiles(forgemodel.Contents(mb.Tree), forgemodel.Contents(head.Tree))
}

// changesOf is what pull request p changes: its seeded patches, or its
// diff from the history with each patch as GitHub sends it (no newline
// after the last line).
func changesOf(r *repo, p *pull) []Change {
	if p.Changes != nil {
		return p.Changes
	}
	var out []Change
	for _, d := range pullDiffs(r, p) {
		out = append(out, Change{Path: d.Path, Patch: strings.TrimSuffix(d.Patch, "\n")})
	}
	return out
}
