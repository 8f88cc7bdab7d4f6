package gitlabtest

import (
	"maps"

	"github.com/forgetools/forgetools/internal/forgemodel"
)

// Outdated diff notes, as GitLab keeps them: when a push updates a merge
// request, GitLab's position tracer moves each diff note whose line the
// push left as it was onto the new diff (the new diff refs, the line's
// new number), and leaves a note whose line the push changed at its old
// position, against diff refs that are no longer the merge request's:
// that is how a client tells it is outdated.

// position is a diff note's position on merge request m now.
func position(p *forgemodel.Repo, m *forgemodel.Item, pos map[string]any) map[string]any {
	base, start, head := diffRefs(p, m)
	if pos["head_sha"] == head && pos["base_sha"] == base && pos["start_sha"] == start {
		return pos
	}
	out := maps.Clone(pos)
	for _, side := range []struct{ line, path, from, to string }{
		{"new_line", "new_path", "head_sha", head},
		{"old_line", "old_path", "base_sha", base},
	} {
		n, ok := pos[side.line].(float64)
		if !ok {
			continue // no line on that side
		}
		from, _ := pos[side.from].(string)
		path, _ := pos[side.path].(string)
		now, kept := p.TrackLine(from, side.to, path, int64(n))
		if !kept {
			return pos
		}
		out[side.line] = now
	}
	out["base_sha"], out["start_sha"], out["head_sha"] = base, start, head
	return out
}
