package gitlabtest

import (
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/forgetools/forgetools/internal/forgemodel"
	"github.com/forgetools/forgetools/providers/internal/forgefake"
)

func (s *Server) listIssues(c *call) answer {
	q := c.Query
	state := fakeOr(q.Get("state"), "all")
	var labels []string
	if l := q.Get("labels"); l != "" {
		labels = strings.Split(l, ",")
	}
	var after time.Time
	if v := q.Get("updated_after"); v != "" {
		after, _ = time.Parse(time.RFC3339, v)
	}
	var out []*forgemodel.Item
	for _, i := range c.p.Kind(false) {
		switch {
		case state != "all" && i.State != state,
			!hasAll(i.Labels, labels),
			q.Get("assignee_username") != "" && !slices.Contains(i.Assignees, q.Get("assignee_username")),
			!after.IsZero() && i.Updated.Before(after):
			continue
		}
		out = append(out, i)
	}
	if q.Get("sort") != "asc" {
		slices.Reverse(out)
	}
	return paged(q, out, func(i *forgemodel.Item) any { return s.issueJSON(c.p, i) })
}

func hasAll(have, want []string) bool {
	for _, w := range want {
		if !slices.ContainsFunc(have, func(h string) bool { return strings.EqualFold(h, w) }) {
			return false
		}
	}
	return true
}

type issueInput struct {
	Title       *string  `json:"title"`
	Description *string  `json:"description"`
	Labels      *string  `json:"labels"`
	AssigneeIDs *[]int64 `json:"assignee_ids"`
	MilestoneID *int64   `json:"milestone_id"`
	StateEvent  *string  `json:"state_event"`
}

// labelsOf reads GitLab's labels parameter: a comma-separated string (the
// client sends a JSON string).
func labelsOf(v *string) []string {
	if v == nil || *v == "" {
		return nil
	}
	return strings.Split(*v, ",")
}

func (s *Server) usernames(ids []int64) ([]string, bool) {
	var out []string
	for _, id := range ids {
		name, found := s.UserName(id)
		if !found {
			return nil, false
		}
		out = append(out, name)
	}
	return out, true
}

func (s *Server) createIssue(c *call) answer {
	var in issueInput
	if !forgefake.Decode(c.Body, &in) {
		return s.message(http.StatusBadRequest, "400 Bad request")
	}
	if in.Title == nil || strings.TrimSpace(*in.Title) == "" {
		return answer{Status: http.StatusBadRequest, Body: map[string]any{"error": "title is missing"}}
	}
	i := s.addItem(c.p, *in.Title, deref(in.Description), c.user, nil)
	i.Labels = labelsOf(in.Labels)
	return s.applyIssue(c.p, i, in, created)
}

func (s *Server) updateIssue(c *call, i *forgemodel.Item) answer {
	var in issueInput
	if !forgefake.Decode(c.Body, &in) {
		return s.message(http.StatusBadRequest, "400 Bad request")
	}
	if in.Title != nil {
		i.Title = *in.Title
	}
	if in.Description != nil {
		i.Body = *in.Description
	}
	if in.Labels != nil {
		i.Labels = labelsOf(in.Labels)
	}
	i.Updated = s.Tick()
	switch deref(in.StateEvent) {
	case "close":
		i.State, i.Closed = "closed", &i.Updated
	case "reopen":
		i.State, i.Closed = "opened", nil
	}
	return s.applyIssue(c.p, i, in, ok)
}

// applyIssue sets assignees and milestone by id, refusing unknown ones as
// GitLab does.
func (s *Server) applyIssue(p *forgemodel.Repo, i *forgemodel.Item, in issueInput, reply func(any) answer) answer {
	if in.AssigneeIDs != nil {
		names, found := s.usernames(*in.AssigneeIDs)
		if !found {
			return s.message(http.StatusNotFound, "404 User Not Found")
		}
		i.Assignees = names
	}
	if in.MilestoneID != nil {
		m := p.Milestone(*in.MilestoneID)
		if m == nil {
			return s.message(http.StatusNotFound, "404 Milestone Not Found")
		}
		i.Milestone = m
	}
	return reply(s.issueJSON(p, i))
}

// addNote posts a note (a diff note when pos is set) on an issue or a
// merge request.
func (s *Server) addNote(c *call, kind string, it *forgemodel.Item, pos map[string]any) answer {
	var in struct {
		Body string `json:"body"`
	}
	if !forgefake.Decode(c.Body, &in) || strings.TrimSpace(in.Body) == "" {
		return s.message(http.StatusBadRequest, map[string]any{"note": []string{"can't be blank"}})
	}
	x := s.AddComment(&it.Comments, c.user, in.Body, pos)
	return created(s.noteJSON(c.p, kind, it.Number, x))
}

func deref(v *string) string {
	if v == nil {
		return ""
	}
	return *v
}
