package gitlabtest

import (
	"cmp"

	"github.com/forgetools/forgetools/internal/forgemodel"
)

// diffRefs are merge request m's diff_refs as GitLab keeps them: start
// the target branch's head, base the merge base of it and the source
// (what the diff is taken from), head the source's head. A merged merge
// request keeps the target's head from before its merge commit, so its
// refs stay those of the diff that was merged.
func diffRefs(p *forgemodel.Repo, m *forgemodel.Item) (base, start, head string) {
	head, start = p.PullHead(m.Pull), p.Branches[m.Pull.Base]
	if c := p.Commits[m.Pull.MergeSHA]; m.Pull.Merged && c != nil && len(c.Parents) > 1 {
		start = c.Parents[0]
	}
	return cmp.Or(p.MergeBase(start, head), start), start, head
}
