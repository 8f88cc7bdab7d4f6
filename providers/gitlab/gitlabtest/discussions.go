package gitlabtest

import (
	"fmt"
	"net/http"
	"strconv"

	"github.com/forgetools/forgetools/internal/forgemodel"
	"github.com/forgetools/forgetools/providers/internal/forgefake"
)

// A merge request's discussions are its notes grouped by Discussion: a
// note made with POST .../notes is a discussion of its own (individual
// note), one made with POST .../discussions opens one and replies join it,
// as GitLab keeps them. A diff discussion is resolvable; its notes carry
// the discussion's resolved state.

// thread is one discussion: its id and notes, oldest first.
type thread struct {
	id    string
	notes []*forgemodel.Comment
}

// discussionOf is the id of the discussion note n belongs to: its own,
// or for an individual note one derived from the note's id (40 hex digits,
// as GitLab's are).
func discussionOf(n *forgemodel.Comment) string {
	if n.Discussion != "" {
		return n.Discussion
	}
	return fmt.Sprintf("%040x", n.ID)
}

// threads are m's discussions in the order they were opened.
func threads(m *forgemodel.Item) []*thread {
	var out []*thread
	byID := map[string]*thread{}
	for _, n := range m.Comments {
		id := discussionOf(n)
		if byID[id] == nil {
			byID[id] = &thread{id: id}
			out = append(out, byID[id])
		}
		byID[id].notes = append(byID[id].notes, n)
	}
	return out
}

// findThread is m's discussion id; nil when m has none by that id.
func findThread(m *forgemodel.Item, id string) *thread {
	for _, t := range threads(m) {
		if t.id == id {
			return t
		}
	}
	return nil
}

func (s *Server) discussionJSON(p *forgemodel.Repo, m *forgemodel.Item, t *thread) map[string]any {
	notes := []any{}
	for _, n := range t.notes {
		notes = append(notes, s.noteJSON(p, "MergeRequest", m.Number, n))
	}
	return map[string]any{"id": t.id, "individual_note": t.notes[0].Discussion == "", "notes": notes}
}

// listDiscussions is GET .../discussions, paged like every list.
func (s *Server) listDiscussions(c *call, m *forgemodel.Item) answer {
	return paged(c.Query, threads(m), func(t *thread) any { return s.discussionJSON(c.p, m, t) })
}

// thread serves a route on one discussion of a merge request: 404 when
// the merge request has none by that id (another merge request's is not
// found here).
func (s *Server) thread(pattern string, h func(c *call, m *forgemodel.Item, t *thread) answer) {
	s.mr(pattern, func(c *call, m *forgemodel.Item) answer {
		if t := findThread(m, c.Value("did")); t != nil {
			return h(c, m, t)
		}
		return s.message(http.StatusNotFound, "404 Not found")
	})
}

// replyToDiscussion is POST .../discussions/:id/notes: the note joins the
// discussion, a diff note at the discussion's position when it is one.
func (s *Server) replyToDiscussion(c *call, m *forgemodel.Item, t *thread) answer {
	if t.notes[0].Discussion == "" {
		return s.message(http.StatusBadRequest, "400 Bad request - discussion is an individual note")
	}
	a := s.addNote(c, "MergeRequest", m, t.notes[0].Position)
	if a.Status != http.StatusCreated {
		return a
	}
	n := m.Comments[len(m.Comments)-1]
	n.Discussion, n.Resolved = t.id, t.notes[0].Resolved
	return created(s.noteJSON(c.p, "MergeRequest", m.Number, n))
}

// resolveDiscussion is PUT .../discussions/:id with resolved (query or
// body): 400 without it, 403 on a discussion that is not resolvable.
func (s *Server) resolveDiscussion(c *call, m *forgemodel.Item, t *thread) answer {
	var in struct {
		Resolved *bool `json:"resolved"`
	}
	forgefake.Decode(c.Body, &in)
	if q := c.Query.Get("resolved"); q != "" {
		if v, err := strconv.ParseBool(q); err == nil {
			in.Resolved = &v
		}
	}
	switch {
	case in.Resolved == nil:
		return s.message(http.StatusBadRequest, "400 Bad request - resolved is missing")
	case t.notes[0].Position == nil:
		return s.message(http.StatusForbidden, "403 Forbidden")
	}
	for _, n := range t.notes {
		n.Resolved = *in.Resolved
	}
	return ok(s.discussionJSON(c.p, m, t))
}
