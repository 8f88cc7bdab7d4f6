package gitlabtest

import (
	"fmt"
	"net/http"
	"slices"
	"strconv"

	"github.com/forgetools/forgetools/internal/forgemodel"
	"github.com/forgetools/forgetools/providers/internal/forgefake"
)

func (s *Server) listMRs(c *call) answer {
	q := c.Query
	state := fakeOr(q.Get("state"), "all")
	var out []*forgemodel.Item
	for _, m := range c.p.Kind(true) {
		switch {
		case state != "all" && m.State != state,
			q.Get("source_branch") != "" && m.Pull.Head != q.Get("source_branch"),
			q.Get("target_branch") != "" && m.Pull.Base != q.Get("target_branch"):
			continue
		}
		out = append(out, m)
	}
	if q.Get("sort") != "asc" {
		slices.Reverse(out)
	}
	return paged(q, out, func(m *forgemodel.Item) any { return s.mrJSON(c.p, m, false) })
}

func (s *Server) createMR(c *call) answer {
	var in struct {
		Title        string `json:"title"`
		Description  string `json:"description"`
		SourceBranch string `json:"source_branch"`
		TargetBranch string `json:"target_branch"`
	}
	if !forgefake.Decode(c.Body, &in) || in.Title == "" || in.SourceBranch == "" || in.TargetBranch == "" {
		return answer{Status: http.StatusBadRequest, Body: map[string]any{"error": "title, source_branch, target_branch are missing"}}
	}
	for _, b := range []string{in.SourceBranch, in.TargetBranch} {
		if _, found := c.p.Branches[b]; !found {
			return s.message(http.StatusNotFound, "404 Branch Not Found")
		}
	}
	for _, m := range c.p.Kind(true) {
		if m.State == "opened" && m.Pull.Head == in.SourceBranch && m.Pull.Base == in.TargetBranch {
			return s.message(http.StatusConflict, []string{"Another open merge request already exists for this source branch: !" + strconv.FormatInt(m.Number, 10)})
		}
	}
	m := s.addItem(c.p, in.Title, in.Description, c.user, &forgemodel.Pull{Head: in.SourceBranch, Base: in.TargetBranch, HeadSHA: c.p.Branches[in.SourceBranch]})
	return created(s.mrJSON(c.p, m, true))
}

// updateMR is PUT .../merge_requests/:iid: title (a "Draft:" prefix
// makes it a draft), description, target_branch (which must exist),
// state_event close or reopen (ignored on a merged one, as GitLab does),
// and reviewer_ids, which replace the reviewers.
func (s *Server) updateMR(c *call, m *forgemodel.Item) answer {
	var in struct {
		Title        *string  `json:"title"`
		Description  *string  `json:"description"`
		TargetBranch *string  `json:"target_branch"`
		StateEvent   *string  `json:"state_event"`
		ReviewerIDs  *[]int64 `json:"reviewer_ids"`
	}
	if !forgefake.Decode(c.Body, &in) {
		return s.message(http.StatusBadRequest, "400 Bad request")
	}
	if in.TargetBranch != nil {
		if _, found := c.p.Branches[*in.TargetBranch]; !found {
			return answer{Status: http.StatusBadRequest, Body: map[string]any{"message": map[string]any{"target_branch": []string{"doesn't exist"}}}}
		}
	}
	var reviewers []string
	if in.ReviewerIDs != nil {
		names, found := s.usernames(*in.ReviewerIDs)
		if !found {
			return s.message(http.StatusNotFound, "404 User Not Found")
		}
		reviewers = names
	}
	if in.Title != nil {
		m.Title = *in.Title
	}
	if in.Description != nil {
		m.Body = *in.Description
	}
	if in.TargetBranch != nil {
		m.Pull.Base = *in.TargetBranch
	}
	if in.ReviewerIDs != nil {
		m.Pull.Requested = reviewers
	}
	m.Updated = s.Tick()
	if m.State != "merged" {
		switch deref(in.StateEvent) {
		case "close":
			m.State, m.Closed = "closed", &m.Updated
		case "reopen":
			m.State, m.Closed = "opened", nil
		}
	}
	return ok(s.mrJSON(c.p, m, true))
}

func (s *Server) approvalsJSON(p *forgemodel.Repo, m *forgemodel.Item, user string) map[string]any {
	by := []any{}
	approvers := m.Pull.Approvers()
	for _, a := range approvers {
		by = append(by, map[string]any{"user": s.userJSON(a)})
	}
	return map[string]any{
		"id": m.ID, "iid": m.Number, "project_id": p.ID, "title": m.Title, "state": m.State,
		"approved": len(approvers) > 0, "approvals_required": 0, "approvals_left": 0, "approved_by": by,
		"user_has_approved": slices.Contains(approvers, user), "user_can_approve": user != m.Author,
	}
}

// approve is POST .../approve: the author cannot approve (401, as GitLab
// answers), nor can anyone twice; a sha that is not the head is 409.
func (s *Server) approve(c *call, m *forgemodel.Item) answer {
	var in struct {
		SHA string `json:"sha"`
	}
	forgefake.Decode(c.Body, &in)
	head := c.p.PullHead(m.Pull)
	switch {
	case c.user == m.Author || slices.Contains(m.Pull.Approvers(), c.user):
		return s.message(http.StatusUnauthorized, "401 Unauthorized")
	case in.SHA != "" && in.SHA != head:
		return s.message(http.StatusConflict, "SHA does not match HEAD of source branch: "+head)
	}
	// An approval has no id of its own on GitLab.
	m.Pull.Reviews = append(m.Pull.Reviews, &forgemodel.Review{Author: c.user, State: "APPROVED", Commit: head, Created: s.Now()})
	s.User(c.user)
	return created(s.approvalsJSON(c.p, m, c.user))
}

// discussion is POST .../discussions with a diff position: base, start and
// head sha must be the merge request's diff refs, and a text position
// needs new_line or old_line.
func (s *Server) discussion(c *call, m *forgemodel.Item) answer {
	var in struct {
		Body     string         `json:"body"`
		Position map[string]any `json:"position"`
	}
	if !forgefake.Decode(c.Body, &in) {
		return s.message(http.StatusBadRequest, "400 Bad request")
	}
	pos := in.Position
	base, start, head := diffRefs(c.p, m)
	if pos != nil {
		if pos["base_sha"] != base || pos["head_sha"] != head || pos["start_sha"] != start {
			return s.message(http.StatusBadRequest, "400 Bad request - Note {:line_code=>[\"can't be blank\", \"must be a valid line code\"]}")
		}
		if pos["position_type"] != "text" || (pos["new_line"] == nil && pos["old_line"] == nil) {
			return s.message(http.StatusBadRequest, "400 Bad request - position is invalid")
		}
	}
	a := s.addNote(c, "MergeRequest", m, pos)
	if a.Status != http.StatusCreated {
		return a
	}
	n := m.Comments[len(m.Comments)-1]
	n.Discussion = fmt.Sprintf("%040x", s.ID())
	return created(s.discussionJSON(c.p, m, &thread{id: n.Discussion, notes: []*forgemodel.Comment{n}}))
}

// mergeMessage is GitLab's default merge commit message.
func mergeMessage(p *forgemodel.Repo, m *forgemodel.Item) string {
	return fmt.Sprintf("Merge branch '%s' into '%s'\n\n%s\n\nSee merge request %s!%d", m.Pull.Head, m.Pull.Base, m.Title, p.Path, m.Number)
}

// merge is PUT .../merge: 405 when it cannot be merged, 409 when sha is
// not the head of the source branch. It merges as GitLab's default merge
// method does: a merge commit on the target, its parents the target's
// head and the source's; with squash, the source's changes first become
// one commit on the merge base, and the merge commit merges that.
func (s *Server) merge(c *call, m *forgemodel.Item) answer {
	var in struct {
		SHA    string `json:"sha"`
		Squash bool   `json:"squash"`
	}
	forgefake.Decode(c.Body, &in)
	p, pull := c.p, m.Pull
	switch {
	case m.State != "opened" || pull.Blocked:
		return s.message(http.StatusMethodNotAllowed, "405 Method Not Allowed")
	case in.SHA != "" && in.SHA != p.PullHead(pull):
		return s.message(http.StatusConflict, "SHA does not match HEAD of source branch: "+p.PullHead(pull))
	}
	head := p.PullHead(pull)
	changed := p.MergePull(pull)
	merged := forgemodel.Meta{Author: c.user, Message: mergeMessage(p, m), Merge: head}
	if in.Squash {
		base := p.MergeBase(p.Branches[pull.Base], head)
		pull.SquashSHA = s.NewCommit(p, []string{base}, c.user, m.Title, p.Commits[head].Tree).SHA
		merged.Merge = pull.SquashSHA
	}
	pull.MergeSHA = s.Commit(p, pull.Base, merged, changed...)
	m.State, m.Updated = "merged", s.Tick()
	return ok(s.mrJSON(p, m, true))
}
