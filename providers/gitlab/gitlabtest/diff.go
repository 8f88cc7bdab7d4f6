package gitlabtest

import (
	"net/http"

	"github.com/forgetools/forgetools/internal/forgemodel"
)

// diffJSON is one entry of a merge request's diffs or a compare's diffs:
// the file's hunks as GitLab sends them ("@@" sections, no header).
func diffJSON(d forgemodel.FileDiff) map[string]any {
	mode := func(absent bool) string {
		if absent {
			return "0"
		}
		return "100644"
	}
	return map[string]any{
		"old_path": d.Path, "new_path": d.Path, "a_mode": mode(d.Added), "b_mode": mode(d.Deleted), "diff": d.Patch,
		"new_file": d.Added, "renamed_file": false, "deleted_file": d.Deleted, "generated_file": false,
	}
}

// mrDiffs is GET .../merge_requests/{iid}/diffs, paged by files: the
// source's head from the merge base (diff_refs.base_sha).
func (s *Server) mrDiffs(c *call, m *forgemodel.Item) answer {
	diffs := c.p.PullDiff(m.Pull)
	return paged(c.Query, diffs, func(d forgemodel.FileDiff) any {
		out := diffJSON(d)
		out["collapsed"], out["too_large"] = false, false
		return out
	})
}

// compare is GET .../repository/compare?from=&to=: the commits to has
// that from has not, oldest first as GitLab lists them, and the diffs.
func (s *Server) compare(c *call) answer {
	from, to := c.p.BranchAt(c.Query.Get("from")), c.p.BranchAt(c.Query.Get("to"))
	if from == "" || to == "" {
		return s.message(http.StatusNotFound, "404 Ref Not Found")
	}
	diffs := c.p.Diff(from, to)
	out := []any{}
	commits := []any{}
	ahead := c.p.Ahead(c.p.Commits[c.p.Branches[from]], c.p.Commits[c.p.Branches[to]])
	for i := len(ahead) - 1; i >= 0; i-- {
		commits = append(commits, s.commitJSON(c.p, ahead[i]))
	}
	for _, d := range diffs {
		out = append(out, diffJSON(d))
	}
	var head any
	if len(diffs) > 0 {
		head = s.commitOf(c.p, c.p.Branches[to])
	}
	return ok(map[string]any{
		"commit": head, "commits": commits, "diffs": out, "compare_timeout": false, "compare_same_ref": from == to,
		"web_url": s.web("/%s/-/compare/%s...%s", c.p.Path, from, to),
	})
}

// mergeBase is GET .../repository/merge_base?refs[]=&refs[]=: the newest
// commit both refs descend from.
func (s *Server) mergeBase(c *call) answer {
	refs := c.Query["refs[]"]
	if len(refs) != 2 {
		return s.message(http.StatusBadRequest, "Provide exactly two refs")
	}
	a, b := c.p.CommitAt(refs[0]), c.p.CommitAt(refs[1])
	if a == nil || b == nil || c.p.MergeBase(a.SHA, b.SHA) == "" {
		return s.message(http.StatusNotFound, "Could not find merge base")
	}
	return ok(s.commitOf(c.p, c.p.MergeBase(a.SHA, b.SHA)))
}

// commitOf is the commit sha names, as GitLab's commit entity spells it.
func (s *Server) commitOf(p *forgemodel.Repo, sha string) map[string]any {
	return s.commitJSON(p, p.Commits[sha])
}
