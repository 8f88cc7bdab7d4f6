package gitlabtest

import (
	"cmp"

	"github.com/forgetools/forgetools/internal/forgemodel"
)

// diffRefs are merge request m's diff_refs as GitLab keeps them: start
// the target branch's head (before the merge, once merged), base the
// merge base of it and the source (what the diff is taken from), head
// the source's head.
func diffRefs(p *forgemodel.Repo, m *forgemodel.Item) (base, start, head string) {
	head, start = p.PullHead(m.Pull), p.PullStart(m.Pull)
	return cmp.Or(p.MergeBase(start, head), start), start, head
}
