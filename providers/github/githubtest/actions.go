package githubtest

import (
	"cmp"
	"fmt"
	"path"
	"strconv"
	"strings"

	"github.com/forgetools/forgetools/internal/forgemodel"
)

// GitHub Actions as the fake holds it: workflows (a file under
// .github/workflows, dispatchable or not), and runs of them on a branch,
// each with its jobs and their logs. Logs are served by the log store
// (logstore.go), another host, as GitHub serves them.

type (
	workflow = forgemodel.Workflow
	run      = forgemodel.Run
	job      = forgemodel.Job
)

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
	wf := &workflow{ID: s.ID(), Name: w.Name, Path: w.Path, Dispatch: w.Dispatch, Inputs: w.Inputs}
	r.Workflows = append(r.Workflows, wf)
	return wf.ID
}

// AddRun records a run of a workflow and returns its id.
func (s *Server) AddRun(fullName string, in Run) int64 {
	s.Lock()
	defer s.Unlock()
	r := s.mustRepo(fullName)
	wf := workflowOf(r, path.Base(in.Workflow))
	if wf == nil {
		panic(fmt.Sprintf("githubtest: no workflow %q in %s (AddWorkflow it first)", in.Workflow, fullName))
	}
	branch := cmp.Or(in.Branch, r.DefaultBranch)
	ru := s.addRun(r, wf, branch, r.Branches[branch], cmp.Or(in.Event, "push"), cmp.Or(in.Status, "completed"))
	ru.Conclusion = in.Conclusion
	for _, j := range in.Jobs {
		jb := &job{ID: s.ID(), Name: j.Name, Status: ru.Status, Log: j.Log}
		if ru.Status == "completed" {
			jb.Conclusion = j.Conclusion
		}
		ru.Jobs = append(ru.Jobs, jb)
	}
	return ru.ID
}

// addRun starts a run of wf, numbered among that workflow's runs as
// GitHub numbers them.
func (s *Server) addRun(r *repo, wf *workflow, branch, sha, event, status string) *run {
	n := int64(1)
	for _, x := range r.Runs {
		if x.Workflow == wf.Path {
			n++
		}
	}
	ru := &run{ID: s.ID(), Workflow: wf.Path, Number: n, Attempt: 1, Ref: branch, SHA: sha, Event: event, Status: status, Created: s.Tick()}
	ru.Updated = ru.Created
	r.Runs = append(r.Runs, ru)
	return ru
}

// workflowOf finds a workflow by id or file name.
func workflowOf(r *repo, idOrFile string) *workflow {
	for _, wf := range r.Workflows {
		if strconv.FormatInt(wf.ID, 10) == idOrFile || path.Base(wf.Path) == idOrFile {
			return wf
		}
	}
	return nil
}

// workflowOfRun is the workflow a run is of.
func workflowOfRun(r *repo, ru *run) *workflow {
	for _, wf := range r.Workflows {
		if wf.Path == ru.Workflow {
			return wf
		}
	}
	return &workflow{Path: ru.Workflow}
}

func runOf(r *repo, id string) *run {
	for _, ru := range r.Runs {
		if strconv.FormatInt(ru.ID, 10) == id {
			return ru
		}
	}
	return nil
}

// job finds a job of any repository by id.
func (s *Server) job(id string) (*repo, *run, *job) {
	for _, r := range s.Repos {
		for _, ru := range r.Runs {
			for _, j := range ru.Jobs {
				if strconv.FormatInt(j.ID, 10) == id {
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
	ru.Attempt++
	ru.Status, ru.Conclusion, ru.Updated = "queued", "", s.Tick()
	for _, j := range ru.Jobs {
		if !failedOnly || j.Conclusion == "failure" || j.Conclusion == "timed_out" || j.Conclusion == "cancelled" {
			j.Status, j.Conclusion, j.Log = "queued", "", ""
		}
	}
}

func workflowName(wf *workflow) string {
	return cmp.Or(wf.Name, strings.TrimSuffix(path.Base(wf.Path), path.Ext(wf.Path)))
}
