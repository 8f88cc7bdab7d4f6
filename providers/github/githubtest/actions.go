package githubtest

import (
	"cmp"
	"fmt"
	"path"
	"strconv"
	"strings"
	"time"
)

// GitHub Actions as the fake holds it: workflows (a file under
// .github/workflows, dispatchable or not), and runs of them on a branch,
// each with its jobs and their logs. Logs are served by the log store
// (logstore.go), another host, as GitHub serves them.

type workflow struct {
	id       int64
	name     string
	path     string // .github/workflows/NAME.yml
	dispatch bool   // declares on: workflow_dispatch
	inputs   []string
}

type run struct {
	id         int64
	wf         *workflow
	number     int
	attempt    int
	branch     string
	sha        string
	event      string
	status     string // queued, in_progress or completed
	conclusion string // once completed
	created    time.Time
	updated    time.Time
	jobs       []*job
}

type job struct {
	id         int64
	name       string
	status     string
	conclusion string
	log        string
	started    time.Time
}

// Workflow is a workflow to seed a repository with.
type Workflow struct {
	// Path is the workflow file, e.g. ".github/workflows/ci.yml".
	Path string
	Name string
	// Dispatch says the workflow declares on: workflow_dispatch, so it can
	// be triggered through the API.
	Dispatch bool
	// Inputs are the dispatch inputs it declares.
	Inputs []string
}

// Run is a workflow run to seed a repository with.
type Run struct {
	// Workflow is the path of a workflow added with AddWorkflow.
	Workflow string
	// Branch is the branch it ran on; "" = the default branch.
	Branch string
	// Event is what started it; "" = push.
	Event string
	// Status is queued, in_progress or completed (the default).
	Status string
	// Conclusion is the completed run's: success, failure, cancelled...
	Conclusion string
	Jobs       []Job
}

// Job is one job of a seeded run.
type Job struct {
	Name string
	// Conclusion is the job's (a completed run's jobs are completed).
	Conclusion string
	// Log is the job's log, as the runner wrote it.
	Log string
}

// AddWorkflow adds a workflow and returns its id.
func (s *Server) AddWorkflow(fullName string, w Workflow) int64 {
	s.Lock()
	defer s.Unlock()
	r := s.mustRepo(fullName)
	wf := &workflow{id: s.ID(), name: w.Name, path: w.Path, dispatch: w.Dispatch, inputs: w.Inputs}
	r.workflows = append(r.workflows, wf)
	return wf.id
}

// AddRun records a run of a workflow and returns its id.
func (s *Server) AddRun(fullName string, in Run) int64 {
	s.Lock()
	defer s.Unlock()
	r := s.mustRepo(fullName)
	wf := r.workflow(path.Base(in.Workflow))
	if wf == nil {
		panic(fmt.Sprintf("githubtest: no workflow %q in %s (AddWorkflow it first)", in.Workflow, fullName))
	}
	branch := cmp.Or(in.Branch, r.defaultBranch)
	ru := s.addRun(r, wf, branch, r.branches[branch], cmp.Or(in.Event, "push"), cmp.Or(in.Status, "completed"))
	ru.conclusion = in.Conclusion
	for _, j := range in.Jobs {
		jb := &job{id: s.ID(), name: j.Name, status: ru.status, log: j.Log, started: ru.created}
		if ru.status == "completed" {
			jb.conclusion = j.Conclusion
		}
		ru.jobs = append(ru.jobs, jb)
	}
	return ru.id
}

func (s *Server) addRun(r *repo, wf *workflow, branch, sha, event, status string) *run {
	n := 1
	for _, x := range r.runs {
		if x.wf == wf {
			n++
		}
	}
	ru := &run{id: s.ID(), wf: wf, number: n, attempt: 1, branch: branch, sha: sha, event: event, status: status, created: s.Tick()}
	ru.updated = ru.created
	r.runs = append(r.runs, ru)
	return ru
}

// workflow finds a workflow by id or file name.
func (r *repo) workflow(idOrFile string) *workflow {
	for _, wf := range r.workflows {
		if strconv.FormatInt(wf.id, 10) == idOrFile || path.Base(wf.path) == idOrFile {
			return wf
		}
	}
	return nil
}

func (r *repo) run(id string) *run {
	for _, ru := range r.runs {
		if strconv.FormatInt(ru.id, 10) == id {
			return ru
		}
	}
	return nil
}

// job finds a job of any repository by id.
func (s *Server) job(id string) (*repo, *run, *job) {
	for _, r := range s.repos {
		for _, ru := range r.runs {
			for _, j := range ru.jobs {
				if strconv.FormatInt(j.id, 10) == id {
					return r, ru, j
				}
			}
		}
	}
	return nil, nil, nil
}

// rerun starts a new attempt of a completed run: every job, or only the
// failed ones, queued again.
func (s *Server) rerun(ru *run, failedOnly bool) {
	ru.attempt++
	ru.status, ru.conclusion, ru.updated = "queued", "", s.Tick()
	for _, j := range ru.jobs {
		if !failedOnly || j.conclusion == "failure" || j.conclusion == "timed_out" || j.conclusion == "cancelled" {
			j.status, j.conclusion, j.log = "queued", "", ""
		}
	}
}

func workflowName(wf *workflow) string {
	return cmp.Or(wf.name, strings.TrimSuffix(path.Base(wf.path), path.Ext(wf.path)))
}
