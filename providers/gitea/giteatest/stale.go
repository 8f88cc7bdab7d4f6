package giteatest

import (
	"slices"

	"github.com/forgetools/forgetools/internal/forgemodel"
)

// Stale reviews, as Gitea marks them: a push to a pull request's head
// that changes what the pull request changes (its diff from the merge
// base; checkIfPRContentChanged) makes every review of an older commit
// stale, and a review of the new head is not. Gitea keeps no per-line
// outdated state in its API: a review comment has no such field, so a
// review's stale is what says its threads are outdated. (Gitea's flag
// sticks once set; the fake reads it from the history, so a push that
// restores the reviewed diff clears it.)

// stale reports whether review v of pull request p is stale.
func stale(r *forgemodel.Repo, p *forgemodel.Pull, v *forgemodel.Review) bool {
	head := r.PullHead(p)
	if v.Commit == "" || v.Commit == head {
		return false
	}
	return !slices.Equal(pullDiff(r, p, v.Commit), pullDiff(r, p, head))
}

// pullDiff is what the pull request changes were its head at commit.
func pullDiff(r *forgemodel.Repo, p *forgemodel.Pull, commit string) []forgemodel.FileDiff {
	base, head := r.Commits[r.MergeBase(r.Branches[p.Base], commit)], r.Commits[commit]
	if base == nil || head == nil {
		return nil
	}
	return forgemodel.DiffFiles(forgemodel.Contents(base.Tree), forgemodel.Contents(head.Tree))
}
