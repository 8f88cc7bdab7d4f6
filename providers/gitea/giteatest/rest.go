package giteatest

import (
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/forgetools/forgetools/internal/forgemodel"
	"github.com/forgetools/forgetools/providers/internal/forgefake"
)

// listIssues is GET .../issues: state, type, labels, since, assigned_by;
// newest first; paged. As on Gitea, a label name the repository lacks is
// dropped from the filter and the rest match case-sensitively (so an
// unknown name widens the listing), and an assignee Gitea has no user
// for is a 404.
func (s *Server) listIssues(c *call) answer {
	rp, q := c.r, c.Query
	state := forgemodel.Or(q.Get("state"), "open")
	var labels []string
	if l := q.Get("labels"); l != "" {
		for _, name := range strings.Split(l, ",") {
			if slices.ContainsFunc(rp.Labels, func(x *forgemodel.Label) bool { return x.Name == name }) {
				labels = append(labels, name)
			}
		}
	}
	if a := q.Get("assigned_by"); a != "" && !s.HasToken(a) {
		return s.apiError(http.StatusNotFound, "user redirect does not exist [name: "+a+"]")
	}
	var since time.Time
	if v := q.Get("since"); v != "" {
		since, _ = time.Parse(time.RFC3339, v)
	}
	var items []*forgemodel.Item
	for i := len(rp.Items) - 1; i >= 0; i-- {
		it := rp.Items[i]
		switch {
		case state != "all" && it.State != state,
			q.Get("type") == "issues" && it.Pull != nil,
			q.Get("type") == "pulls" && it.Pull == nil,
			!hasLabels(it, labels),
			!since.IsZero() && it.Updated.Before(since),
			q.Get("assigned_by") != "" && !slices.Contains(it.Assignees, q.Get("assigned_by")),
			!hasKeyword(it, q.Get("q")):
			continue
		}
		items = append(items, it)
	}
	return paged(s, c, items, func(it *forgemodel.Item) any { return s.issueJSON(rp, it) })
}

func hasLabels(it *forgemodel.Item, want []string) bool {
	for _, w := range want {
		if !slices.Contains(it.Labels, w) {
			return false
		}
	}
	return true
}

func (s *Server) createIssue(c *call) answer {
	rp := c.r
	var in struct {
		Title     string   `json:"title"`
		Body      string   `json:"body"`
		Assignees []string `json:"assignees"`
		Milestone int64    `json:"milestone"`
		Labels    []int64  `json:"labels"`
	}
	if !forgefake.Decode(c.Body, &in) || strings.TrimSpace(in.Title) == "" {
		return s.apiError(http.StatusUnprocessableEntity, "[Title]: Required")
	}
	ls, found := rp.LabelsByID(in.Labels)
	if !found {
		return s.apiError(http.StatusUnprocessableEntity, "label does not exist")
	}
	it := s.AddItem(rp, in.Title, in.Body, c.login, "open", nil)
	if rp.Access >= 30 {
		// Gitea keeps these only from a credential that can write, and
		// drops them silently otherwise; it drops a milestone that is not
		// the repository's.
		it.Labels, it.Assignees, it.Milestone = ls, in.Assignees, rp.Milestone(in.Milestone)
	}
	return created(s.issueJSON(rp, it))
}

func (s *Server) editIssue(c *call, it *forgemodel.Item) answer {
	var in struct {
		Title     string   `json:"title"`
		Body      *string  `json:"body"`
		Assignees []string `json:"assignees"`
		State     *string  `json:"state"`
	}
	if !forgefake.Decode(c.Body, &in) {
		return s.apiError(http.StatusUnprocessableEntity, "invalid JSON")
	}
	if in.Title != "" {
		it.Title = in.Title
	}
	if in.Body != nil {
		it.Body = *in.Body
	}
	if in.Assignees != nil {
		it.Assignees = in.Assignees
	}
	it.Updated = s.Tick()
	if in.State != nil && *in.State != it.State {
		it.State = *in.State
		if it.State == "closed" {
			it.Closed = &it.Updated
		} else {
			it.Closed = nil
		}
	}
	return created(s.issueJSON(c.r, it))
}

func (s *Server) replaceLabels(c *call, it *forgemodel.Item) answer {
	var in struct {
		Labels []int64 `json:"labels"`
	}
	if !forgefake.Decode(c.Body, &in) {
		return s.apiError(http.StatusUnprocessableEntity, "invalid JSON")
	}
	ls, found := c.r.LabelsByID(in.Labels)
	if !found {
		return s.apiError(http.StatusUnprocessableEntity, "label does not exist")
	}
	it.Labels = ls
	return ok(s.labelsJSON(c.r, ls))
}

func (s *Server) listPulls(c *call) answer {
	rp := c.r
	state := forgemodel.Or(c.Query.Get("state"), "open")
	var items []*forgemodel.Item
	for i := len(rp.Items) - 1; i >= 0; i-- {
		if it := rp.Items[i]; it.Pull != nil && (state == "all" || it.State == state) {
			items = append(items, it)
		}
	}
	return paged(s, c, items, func(it *forgemodel.Item) any { return s.pullJSON(rp, it) })
}

func (s *Server) createPull(c *call) answer {
	rp := c.r
	var in struct {
		Head, Base, Title, Body string
	}
	if !forgefake.Decode(c.Body, &in) || strings.TrimSpace(in.Title) == "" {
		return s.apiError(http.StatusUnprocessableEntity, "[Title]: Required")
	}
	if _, found := rp.Branches[in.Head]; !found {
		return s.apiError(http.StatusNotFound, "The target couldn't be found.")
	}
	if _, found := rp.Branches[in.Base]; !found {
		return s.apiError(http.StatusNotFound, "The target couldn't be found.")
	}
	for _, it := range rp.Items {
		if it.Pull != nil && it.State == "open" && it.Pull.Head == in.Head && it.Pull.Base == in.Base {
			return s.apiError(http.StatusConflict, "pull request already exists for these targets [id: "+strconv.FormatInt(it.ID, 10)+", issue_id: "+strconv.FormatInt(it.ID, 10)+", head_repo_id: "+strconv.FormatInt(rp.ID, 10)+", base_repo_id: "+strconv.FormatInt(rp.ID, 10)+", head_branch: "+in.Head+", base_branch: "+in.Base+"]")
		}
	}
	it := s.addPull(rp, in.Title, in.Body, c.login, in.Head, in.Base, "", false)
	return created(s.pullJSON(rp, it))
}

// merge is POST .../pulls/N/merge: 405 when it cannot be merged, 409 when
// head_commit_id is not the head; 200 with no body when merged.
func (s *Server) merge(c *call, it *forgemodel.Item) answer {
	rp := c.r
	var in struct {
		Do           string `json:"Do"`
		HeadCommitID string `json:"head_commit_id"`
	}
	if !forgefake.Decode(c.Body, &in) {
		return s.apiError(http.StatusUnprocessableEntity, "invalid JSON")
	}
	p := it.Pull
	switch {
	case p.Merged:
		return s.apiError(http.StatusMethodNotAllowed, "The PR is already merged")
	case workInProgress(it.Title):
		return s.apiError(http.StatusMethodNotAllowed, "Work in progress PRs cannot be merged")
	case p.Blocked || it.State != "open":
		return s.apiError(http.StatusMethodNotAllowed, "Please try again later")
	case in.HeadCommitID != "" && in.HeadCommitID != rp.PullHead(p):
		return s.apiError(http.StatusConflict, "head out of date")
	case !slices.Contains([]string{"merge", "rebase", "rebase-merge", "squash", "fast-forward-only"}, in.Do):
		return s.apiError(http.StatusUnprocessableEntity, "[Do]: In")
	}
	changed := rp.MergePull(p)
	m := forgemodel.Meta{Author: c.login, Message: mergeMessage(it)}
	if in.Do == "merge" || in.Do == "rebase-merge" {
		// A merge commit, its second parent the head; the other styles
		// are one commit on the base here (Gitea replays a rebase).
		m.Merge = p.HeadSHA
	}
	p.MergeSHA = s.Commit(rp, p.Base, m, changed...)
	it.State, it.Updated = "closed", s.Tick()
	it.Closed = &it.Updated
	return answer{Status: http.StatusOK}
}

// mergeMessage is the message of the commit Gitea's merge makes.
func mergeMessage(it *forgemodel.Item) string {
	return fmt.Sprintf("Merge pull request '%s' (#%d) from %s into %s\n", it.Title, it.Number, it.Pull.Head, it.Pull.Base)
}

// createReview posts a review: APPROVED, REQUEST_CHANGES or COMMENT (an
// empty event leaves it PENDING); Gitea refuses a verdict from the pull
// request's author.
func (s *Server) createReview(c *call, it *forgemodel.Item) answer {
	var in struct {
		Event    string `json:"event"`
		Body     string `json:"body"`
		CommitID string `json:"commit_id"`
		Comments []struct {
			Path string `json:"path"`
			Body string `json:"body"`
			Old  int64  `json:"old_position"`
			New  int64  `json:"new_position"`
		} `json:"comments"`
	}
	if !forgefake.Decode(c.Body, &in) {
		return s.apiError(http.StatusUnprocessableEntity, "invalid JSON")
	}
	state := map[string]string{"": "PENDING", "APPROVED": "APPROVED", "REQUEST_CHANGES": "REQUEST_CHANGES", "COMMENT": "COMMENT"}[in.Event]
	switch {
	case state == "":
		return s.apiError(http.StatusUnprocessableEntity, "unknown review event: "+in.Event)
	case c.login == it.Author && (state == "APPROVED" || state == "REQUEST_CHANGES"):
		return s.apiError(http.StatusUnprocessableEntity, "reject your own pull is not allowed")
	case state != "APPROVED" && state != "PENDING" && strings.TrimSpace(in.Body) == "" && len(in.Comments) == 0:
		return s.apiError(http.StatusUnprocessableEntity, "review event COMMENT requires a body or comment")
	}
	v := &forgemodel.Review{ID: s.ID(), Author: c.login, State: state, Body: in.Body, Commit: c.r.PullHead(it.Pull), Created: s.Tick()}
	for _, rc := range in.Comments {
		if rc.Path == "" || (rc.New == 0) == (rc.Old == 0) {
			return s.apiError(http.StatusUnprocessableEntity, "comment needs a path and exactly one of old_position and new_position")
		}
		v.Comments = append(v.Comments, &forgemodel.ReviewComment{ID: s.ID(), Path: rc.Path, NewLine: rc.New, OldLine: rc.Old, Body: rc.Body})
	}
	s.User(c.login)
	it.Pull.Reviews = append(it.Pull.Reviews, v)
	return ok(s.reviewJSON(c.r, it, v))
}

func (s *Server) combinedStatus(c *call) answer {
	rp, sha := c.r, c.Value("ref")
	state, total := "", 0
	for _, it := range rp.Items {
		if it.Pull != nil && rp.PullHead(it.Pull) == sha && it.Pull.Status != "" {
			state, total = it.Pull.Status, 1
		}
	}
	return ok(map[string]any{
		"state": state, "sha": sha, "total_count": total, "statuses": []any{}, "repository": s.repoJSON(rp),
		"commit_url": s.api("/repos/%s/commits/%s", rp.Path, sha),
		"url":        s.api("/repos/%s/commits/%s/status", rp.Path, sha),
	})
}

// createBranch is POST .../branches: new_branch_name from old_ref_name
// (a branch or a commit) or the deprecated old_branch_name (a branch),
// the default branch when neither is given; 409 when it exists.
func (s *Server) createBranch(c *call) answer {
	rp := c.r
	var in struct {
		New    string `json:"new_branch_name"`
		Old    string `json:"old_branch_name"`
		OldRef string `json:"old_ref_name"`
	}
	if !forgefake.Decode(c.Body, &in) || in.New == "" {
		return s.apiError(http.StatusUnprocessableEntity, "[NewBranchName]: Required")
	}
	old := rp.DefaultBranch
	switch {
	case in.OldRef != "":
		// Any ref or commit; one that names nothing is a 500 on Gitea.
		if old = rp.BranchAt(in.OldRef); old == "" {
			return s.apiError(http.StatusInternalServerError, "object does not exist [id: "+in.OldRef+", rel_path: ]")
		}
	case in.Old != "":
		// The deprecated field: a branch name only.
		if _, found := rp.Branches[in.Old]; !found {
			return s.apiError(http.StatusNotFound, "The old branch does not exist")
		}
		old = in.Old
	}
	if _, found := rp.Branches[in.New]; found {
		return s.apiError(http.StatusConflict, "The branch already exists.")
	}
	rp.Branch(in.New, old)
	return created(map[string]any{
		"name": in.New, "protected": false, "user_can_push": true, "user_can_merge": true,
		"commit": map[string]any{
			"id": rp.Branches[in.New], "message": "Initial commit\n", "url": s.web("/%s/commit/%s", rp.Path, rp.Branches[in.New]),
			"timestamp": stamp(s.Now()),
		},
	})
}

// listRuns is GET .../actions/runs: branch and status filters, newest
// first, {total_count, workflow_runs}.
func (s *Server) listRuns(c *call) answer {
	rp, q := c.r, c.Query
	var runs []any
	for i := len(rp.Runs) - 1; i >= 0; i-- {
		ru := rp.Runs[i]
		st := q.Get("status")
		if (q.Get("branch") != "" && ru.Ref != q.Get("branch")) || (st != "" && st != ru.Status && st != ru.Conclusion) {
			continue
		}
		runs = append(runs, s.runJSON(rp, ru))
	}
	limit, _ := strconv.Atoi(q.Get("limit"))
	if limit > 0 && len(runs) > limit {
		runs = runs[:limit]
	}
	if runs == nil {
		runs = []any{}
	}
	return ok(map[string]any{"total_count": len(runs), "workflow_runs": runs})
}

// dispatch is POST .../actions/workflows/{file}/dispatches: 204, the run
// queued.
func (s *Server) dispatch(c *call) answer {
	rp, workflow := c.r, c.Value("workflow")
	var in struct {
		Ref    string            `json:"ref"`
		Inputs map[string]string `json:"inputs"`
	}
	if !forgefake.Decode(c.Body, &in) || in.Ref == "" {
		return s.apiError(http.StatusUnprocessableEntity, "[Ref]: Required")
	}
	if _, found := rp.Branches[in.Ref]; !found {
		return s.apiError(http.StatusNotFound, "ref does not exist")
	}
	// Gitea reads the workflow at the dispatched ref.
	if _, found := rp.Files[in.Ref][".gitea/workflows/"+workflow]; !found {
		if _, found := rp.Files[in.Ref][".forgejo/workflows/"+workflow]; !found {
			return s.apiError(http.StatusNotFound, "workflow "+workflow+" not found")
		}
	}
	s.State.AddRun(rp, &forgemodel.Run{
		Workflow: workflow, Ref: in.Ref, SHA: rp.Branches[in.Ref],
		Status: "queued", Event: "workflow_dispatch", Attempt: 1, // not started: Gitea sends the Unix epoch
	})
	return answer{Status: http.StatusNoContent}
}
