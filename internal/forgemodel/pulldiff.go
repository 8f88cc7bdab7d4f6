package forgemodel

// PullStart is the commit pull request p is diffed against: its base
// branch's head, or once merged the base's head before the merge (the
// merge or squash commit's first parent), so that a merged pull request
// keeps the diff it was merged with rather than none.
func (r *Repo) PullStart(p *Pull) string {
	if c := r.Commits[p.MergeSHA]; p.Merged && c != nil && len(c.Parents) > 0 {
		return c.Parents[0]
	}
	return r.Branches[p.Base]
}

// PullDiff is what pull request p changes, as every forge diffs it: its
// head commit from the merge base with PullStart (three-dot); the
// branches' Diff when either commit is unknown.
func (r *Repo) PullDiff(p *Pull) []FileDiff {
	head := r.Commits[r.PullHead(p)]
	mb := r.Commits[r.MergeBase(r.PullStart(p), r.PullHead(p))]
	if head == nil || mb == nil {
		return r.Diff(p.Base, p.Head)
	}
	return DiffFiles(Contents(mb.Tree), Contents(head.Tree))
}
