package githubtest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/forgetools/forgetools/providers/internal/forgefake"
)

const (
	docRuns     = "https://docs.github.com/rest/actions/workflow-runs"
	docJobs     = "https://docs.github.com/rest/actions/workflow-jobs"
	docDispatch = "https://docs.github.com/rest/actions/workflows#create-a-workflow-dispatch-event"
)

// actionRoutes are /repos/o/n/actions/...: runs, a run, its jobs, a
// job's logs (a redirect to the log store), workflow dispatch and re-runs.
func (s *Server) actionRoutes(rt *forgefake.Router) {
	onRun := func(pattern, doc string, h func(c *call, ru *run) answer) {
		on(rt, pattern, func(c *call) answer {
			ru := runOf(c.rp, c.Value("id"))
			if ru == nil {
				return errorAnswer(http.StatusNotFound, "Not Found", doc, nil)
			}
			return h(c, ru)
		})
	}
	on(rt, "GET /actions/runs", func(c *call) answer { return s.listRuns(c.rp, c.path, c.Query) })
	onRun("GET /actions/runs/{id}", docRuns+"#get-a-workflow-run", func(c *call, ru *run) answer {
		return jsonAnswer(http.StatusOK, s.runJSON(c.rp, ru))
	})
	onRun("GET /actions/runs/{id}/jobs", docJobs+"#list-jobs-for-a-workflow-run", func(c *call, ru *run) answer {
		jobs := []jobJSON{}
		for _, j := range ru.Jobs {
			jobs = append(jobs, s.jobJSON(c.rp, ru, j))
		}
		return jsonAnswer(http.StatusOK, jobsJSON{TotalCount: len(jobs), Jobs: jobs})
	})
	on(rt, "GET /actions/jobs/{id}/logs", func(c *call) answer {
		if jr, _, j := s.job(c.Value("id")); jr == c.rp {
			// GitHub answers with a short-lived signed URL on its log host.
			return answer{Status: http.StatusFound, Header: http.Header{"Location": {s.LogURL(j.ID)}}}
		}
		return errorAnswer(http.StatusNotFound, "Not Found", docJobs+"#download-job-logs-for-a-workflow-run", nil)
	})
	on(rt, "POST /actions/workflows/{id}/dispatches", func(c *call) answer { return s.dispatch(c.rp, c.Value("id"), c.Body) })
	for _, how := range []string{"rerun", "rerun-failed-jobs"} {
		onRun("POST /actions/runs/{id}/"+how, docRuns+"#re-run-a-workflow", func(c *call, ru *run) answer {
			if ru.Status != "completed" {
				return errorAnswer(http.StatusForbidden, "This workflow is already running", docRuns+"#re-run-a-workflow", nil)
			}
			s.rerun(ru, how == "rerun-failed-jobs")
			return jsonAnswer(http.StatusCreated, struct{}{})
		})
	}
}

// listRuns is GET /repos/o/n/actions/runs: newest first, filtered by
// branch, event, head sha and status (a status or a conclusion), paged.
func (s *Server) listRuns(r *repo, path string, q url.Values) answer {
	var runs []*run
	for _, ru := range slices.Backward(r.Runs) {
		st := q.Get("status")
		if (q.Get("branch") == "" || ru.Ref == q.Get("branch")) && (q.Get("event") == "" || ru.Event == q.Get("event")) &&
			(q.Get("head_sha") == "" || ru.SHA == q.Get("head_sha")) && (st == "" || ru.Status == st || ru.Conclusion == st) {
			runs = append(runs, ru)
		}
	}
	// total_count says how many; the Link header names the other pages.
	n, per, header := s.pageOf(path, q, len(runs))
	out := workflowRunsJSON{TotalCount: len(runs)}
	out.WorkflowRuns, _ = forgefake.Page(runs, n, per, func(ru *run) any { return s.runJSON(r, ru) })
	a := jsonAnswer(http.StatusOK, out)
	a.Header = header
	return a
}

// dispatch is POST /repos/o/n/actions/workflows/{id|file}/dispatches: an
// unknown workflow is 404; one without a workflow_dispatch trigger, a ref
// that is not a branch or tag, or an input the workflow does not declare
// is 422. The run it starts is queued; its id comes back only when asked
// for (return_run_details), otherwise 204 with no body.
func (s *Server) dispatch(r *repo, which string, body []byte) answer {
	var in struct {
		Ref              string         `json:"ref"`
		Inputs           map[string]any `json:"inputs"`
		ReturnRunDetails bool           `json:"return_run_details"`
	}
	if err := json.Unmarshal(body, &in); err != nil {
		return errorAnswer(http.StatusBadRequest, "Problems parsing JSON", docDispatch, nil)
	}
	wf := workflowOf(r, which)
	if wf == nil {
		return errorAnswer(http.StatusNotFound, "Not Found", docDispatch, nil)
	}
	if !wf.Dispatch {
		return errorAnswer(http.StatusUnprocessableEntity, "Workflow does not have 'workflow_dispatch' trigger", docDispatch, nil)
	}
	name := strings.TrimPrefix(strings.TrimPrefix(in.Ref, "refs/"), "heads/")
	sha, ok := r.Branches[name]
	if !ok {
		sha, ok = r.Tags[strings.TrimPrefix(name, "tags/")]
	}
	if !ok {
		return errorAnswer(http.StatusUnprocessableEntity, "No ref found for: "+in.Ref, docDispatch, nil)
	}
	var unexpected []string
	for k := range in.Inputs {
		if !slices.Contains(wf.Inputs, k) {
			unexpected = append(unexpected, strconv.Quote(k))
		}
	}
	if len(unexpected) > 0 {
		slices.Sort(unexpected)
		return errorAnswer(http.StatusUnprocessableEntity, "Unexpected inputs provided: ["+strings.Join(unexpected, ", ")+"]", docDispatch, nil)
	}
	ru := s.addRun(r, wf, name, sha, "workflow_dispatch", "queued")
	if !in.ReturnRunDetails {
		return answer{Status: http.StatusNoContent}
	}
	return jsonAnswer(http.StatusOK, dispatchJSON{
		WorkflowRunID: ru.ID, RunURL: s.api("/repos/%s/actions/runs/%d", r.Path, ru.ID),
		HTMLURL: s.web("/%s/actions/runs/%d", r.Path, ru.ID),
	})
}

// The JSON shapes, as in workflow_run.json, workflow_runs.json,
// workflow_jobs.json and dispatch_details.json.

type runJSON struct {
	ID                 int64    `json:"id"`
	Name               string   `json:"name"`
	NodeID             string   `json:"node_id"`
	HeadBranch         string   `json:"head_branch"`
	HeadSHA            string   `json:"head_sha"`
	Path               string   `json:"path"`
	RunNumber          int64    `json:"run_number"`
	Event              string   `json:"event"`
	DisplayTitle       string   `json:"display_title"`
	Status             string   `json:"status"`
	Conclusion         *string  `json:"conclusion"`
	WorkflowID         int64    `json:"workflow_id"`
	URL                string   `json:"url"`
	HTMLURL            string   `json:"html_url"`
	PullRequests       []any    `json:"pull_requests"`
	CreatedAt          string   `json:"created_at"`
	UpdatedAt          string   `json:"updated_at"`
	Actor              userJSON `json:"actor"`
	RunAttempt         int64    `json:"run_attempt"`
	RunStartedAt       string   `json:"run_started_at"`
	JobsURL            string   `json:"jobs_url"`
	LogsURL            string   `json:"logs_url"`
	RerunURL           string   `json:"rerun_url"`
	PreviousAttemptURL *string  `json:"previous_attempt_url"`
	WorkflowURL        string   `json:"workflow_url"`
	Repository         repoJSON `json:"repository"`
	// GitHub's description requires both; the fake's runs are never from
	// a fork, so the head repository is the repository.
	HeadRepository repoJSON        `json:"head_repository"`
	HeadCommit     *headCommitJSON `json:"head_commit"`
}

// headCommitJSON is a run's head commit (simple-commit); null when the
// fake's git model does not hold the sha.
type headCommitJSON struct {
	ID        string          `json:"id"`
	TreeID    string          `json:"tree_id"`
	Message   string          `json:"message"`
	Timestamp string          `json:"timestamp"`
	Author    *commitUserJSON `json:"author"`
	Committer *commitUserJSON `json:"committer"`
}

type commitUserJSON struct {
	Name  string `json:"name"`
	Email string `json:"email"`
}

type workflowRunsJSON struct {
	TotalCount   int   `json:"total_count"`
	WorkflowRuns []any `json:"workflow_runs"`
}

type stepJSON struct {
	Name       string  `json:"name"`
	Status     string  `json:"status"`
	Conclusion *string `json:"conclusion"`
	Number     int     `json:"number"`
}

type jobJSON struct {
	ID           int64      `json:"id"`
	RunID        int64      `json:"run_id"`
	WorkflowName string     `json:"workflow_name"`
	HeadBranch   string     `json:"head_branch"`
	RunURL       string     `json:"run_url"`
	RunAttempt   int64      `json:"run_attempt"`
	NodeID       string     `json:"node_id"`
	HeadSHA      string     `json:"head_sha"`
	URL          string     `json:"url"`
	HTMLURL      string     `json:"html_url"`
	Status       string     `json:"status"`
	Conclusion   *string    `json:"conclusion"`
	CreatedAt    string     `json:"created_at"`
	StartedAt    string     `json:"started_at"`
	CompletedAt  *string    `json:"completed_at"`
	Name         string     `json:"name"`
	Steps        []stepJSON `json:"steps"`
	CheckRunURL  string     `json:"check_run_url"`
	Labels       []string   `json:"labels"`
	// The runner that took the job: GitHub's description requires the
	// four, null until a runner has it; the fake models no runner.
	RunnerID        *int64  `json:"runner_id"`
	RunnerName      *string `json:"runner_name"`
	RunnerGroupID   *int64  `json:"runner_group_id"`
	RunnerGroupName *string `json:"runner_group_name"`
}

type jobsJSON struct {
	TotalCount int       `json:"total_count"`
	Jobs       []jobJSON `json:"jobs"`
}

type dispatchJSON struct {
	WorkflowRunID int64  `json:"workflow_run_id"`
	RunURL        string `json:"run_url"`
	HTMLURL       string `json:"html_url"`
}

func (s *Server) runJSON(r *repo, ru *run) runJSON {
	wf := workflowOfRun(r, ru)
	api := s.api("/repos/%s/actions/runs/%d", r.Path, ru.ID)
	out := runJSON{
		ID: ru.ID, Name: workflowName(wf), NodeID: fmt.Sprintf("WFR_kwLO%d", ru.ID), HeadBranch: ru.Ref, HeadSHA: ru.SHA,
		Path: wf.Path + "@" + ru.Ref, RunNumber: ru.Number, Event: ru.Event, DisplayTitle: workflowName(wf),
		Status: ru.Status, Conclusion: nullable(ru.Conclusion), WorkflowID: wf.ID, URL: api,
		HTMLURL: s.web("/%s/actions/runs/%d", r.Path, ru.ID), PullRequests: []any{},
		CreatedAt: stamp(ru.Created), UpdatedAt: stamp(ru.Updated), Actor: s.userJSON(owner(r)), RunAttempt: ru.Attempt,
		RunStartedAt: stamp(ru.Updated), JobsURL: api + "/jobs", LogsURL: api + "/logs", RerunURL: api + "/rerun",
		WorkflowURL: s.api("/repos/%s/actions/workflows/%d", r.Path, wf.ID), Repository: s.minimalRepoJSON(r),
		HeadRepository: s.minimalRepoJSON(r),
	}
	if c := r.Commits[ru.SHA]; c != nil {
		who := &commitUserJSON{Name: c.Author, Email: c.Author + "@users.noreply.github.com"}
		out.HeadCommit = &headCommitJSON{ID: c.SHA, TreeID: hashOf("tree", c.SHA), Message: c.Message,
			Timestamp: stamp(c.When), Author: who, Committer: who}
	}
	if ru.Attempt > 1 {
		out.PreviousAttemptURL = nullable(fmt.Sprintf("%s/attempts/%d", api, ru.Attempt-1))
	}
	return out
}

func (s *Server) jobJSON(r *repo, ru *run, j *job) jobJSON {
	wf := workflowOfRun(r, ru)
	out := jobJSON{
		ID: j.ID, RunID: ru.ID, WorkflowName: workflowName(wf), HeadBranch: ru.Ref,
		RunURL: s.api("/repos/%s/actions/runs/%d", r.Path, ru.ID), RunAttempt: ru.Attempt,
		NodeID: fmt.Sprintf("CR_kwDO%d", j.ID), HeadSHA: ru.SHA, URL: s.api("/repos/%s/actions/jobs/%d", r.Path, j.ID),
		HTMLURL: s.web("/%s/actions/runs/%d/job/%d", r.Path, ru.ID, j.ID), Status: j.Status,
		Conclusion: nullable(j.Conclusion), CreatedAt: stamp(ru.Created), StartedAt: stamp(ru.Created), Name: j.Name,
		Steps:       []stepJSON{{Name: "Set up job", Status: j.Status, Conclusion: nullable(j.Conclusion), Number: 1}},
		CheckRunURL: s.api("/repos/%s/check-runs/%d", r.Path, j.ID), Labels: []string{"ubuntu-latest"},
	}
	if j.Status == "completed" {
		out.CompletedAt = nullable(stamp(ru.Updated))
	}
	return out
}
