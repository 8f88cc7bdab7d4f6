package github

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	gh "github.com/google/go-github/v84/github"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/providers/kit"
	"github.com/forgetools/forgetools/toolserver"
)

// CI on GitHub is Actions: a CI run is a workflow run, its jobs are the
// run's jobs of the latest attempt, and forge_trigger_ci is a workflow
// dispatch.

// ciStatuses are GitHub's status filter values; it takes a conclusion
// (success, failure) as a status too.
var ciStatuses = map[gatewayv1.CIStatusFilter]string{
	gatewayv1.CIStatusFilter_CI_STATUS_FILTER_QUEUED:      "queued",
	gatewayv1.CIStatusFilter_CI_STATUS_FILTER_IN_PROGRESS: "in_progress",
	gatewayv1.CIStatusFilter_CI_STATUS_FILTER_COMPLETED:   "completed",
	gatewayv1.CIStatusFilter_CI_STATUS_FILTER_SUCCESS:     "success",
	gatewayv1.CIStatusFilter_CI_STATUS_FILTER_FAILURE:     "failure",
}

// ListCiRuns lists the repository's workflow runs, newest first, one
// page of at most limit (paging.go).
func (p *Provider) ListCiRuns(ctx context.Context, _ toolserver.Call, req *gatewayv1.ListCIRunsRequest) (*forgev1.CIRunList, error) {
	repo, err := parseRepo(req.GetRepo())
	if err != nil {
		return nil, err
	}
	cur := kit.CursorsFor("forge_list_ci_runs", req)
	page, err := listPage(cur, req.GetCursor(), req.Limit)
	if err != nil {
		return nil, err
	}
	opts := &gh.ListWorkflowRunsOptions{
		Branch:      req.GetRef(),
		Status:      ciStatuses[req.GetStatus()],
		ListOptions: page,
	}
	return call(ctx, p, "list CI runs in "+repo.String(), func(ctx context.Context) (*forgev1.CIRunList, error) {
		runs, resp, err := p.author.Actions.ListRepositoryWorkflowRuns(ctx, repo.owner, repo.name, opts)
		if err != nil {
			return nil, err
		}
		list := &forgev1.CIRunList{NextCursor: nextCursor(cur, page, resp)}
		for _, r := range runs.WorkflowRuns[:min(len(runs.WorkflowRuns), opts.PerPage)] {
			list.Runs = append(list.Runs, p.ciRun(repo, r))
		}
		return list, nil
	})
}

// GetCiRun reads a workflow run and the jobs of its latest attempt, with
// the log tail of each failed job (up to maxLogTails of them). A log that
// cannot be had (expired, not permitted, refused egress) does not fail the
// read: the job's tail says why instead.
func (p *Provider) GetCiRun(ctx context.Context, _ toolserver.Call, req *gatewayv1.GetCIRunRequest) (*forgev1.CIRun, error) {
	repo, id, err := parseRun(req.GetRepo(), req.GetRunId())
	if err != nil {
		return nil, err
	}
	return call(ctx, p, fmt.Sprintf("get CI run %d in %s", id, repo), func(ctx context.Context) (*forgev1.CIRun, error) {
		r, _, err := p.author.Actions.GetWorkflowRunByID(ctx, repo.owner, repo.name, id)
		if err != nil {
			return nil, err
		}
		jobs, _, err := p.author.Actions.ListWorkflowJobs(ctx, repo.owner, repo.name, id,
			&gh.ListWorkflowJobsOptions{Filter: "latest", ListOptions: gh.ListOptions{PerPage: maxPerPage}})
		if err != nil {
			return nil, err
		}
		out := p.ciRun(repo, r)
		tails := 0
		for _, j := range jobs.Jobs {
			job := &forgev1.CIJob{
				JobId:      strconv.FormatInt(j.GetID(), 10),
				Name:       j.GetName(),
				Status:     j.GetStatus(),
				Conclusion: j.GetConclusion(),
				Url:        j.GetHTMLURL(),
			}
			if failed(j.GetConclusion()) && tails < maxLogTails {
				tails++
				job.LogTail = p.logTailOrWhy(ctx, repo, j.GetID())
			}
			out.Jobs = append(out.Jobs, job)
		}
		return out, nil
	})
}

func failed(conclusion string) bool { return conclusion == "failure" || conclusion == "timed_out" }

// logTailOrWhy is a job's log tail, or one line saying why there is none.
func (p *Provider) logTailOrWhy(ctx context.Context, repo repoName, job int64) string {
	tail, err := p.jobLogTail(ctx, repo, job)
	if err != nil {
		e := p.mapError(fmt.Sprintf("job %d log", job), err)
		p.log.DebugContext(ctx, "github: no log tail for a failed job", "host", p.host, "repo", repo.String(), "job", job, "code", e.Code.String())
		return "(log not available: " + e.Message + ")"
	}
	return tail
}

// TriggerCi dispatches a workflow (it must declare on: workflow_dispatch)
// on a branch or tag. GitHub starts the run asynchronously; on github.com
// and GHE.com it is asked for the new run's id (return_run_details), which
// GitHub Enterprise Server does not offer, so there the result has none.
func (p *Provider) TriggerCi(ctx context.Context, _ toolserver.Call, req *gatewayv1.TriggerCIRequest) (*forgev1.CITriggered, error) {
	repo, err := parseRepo(req.GetRepo())
	if err != nil {
		return nil, err
	}
	workflow, id, err := workflowRef(req.GetWorkflow())
	if err != nil {
		return nil, err
	}
	event := gh.CreateWorkflowDispatchEventRequest{Ref: req.GetRef()}
	for _, in := range req.GetInputs() {
		if event.Inputs == nil {
			event.Inputs = map[string]any{}
		}
		if _, dup := event.Inputs[in.GetName()]; dup {
			return nil, toolserver.InvalidArgument("input %q is given twice", in.GetName())
		}
		event.Inputs[in.GetName()] = in.GetValue()
	}
	if p.dispatchDetails() {
		event.ReturnRunDetails = gh.Ptr(true)
	}
	what := fmt.Sprintf("trigger workflow %s on %s in %s", workflow, req.GetRef(), repo)
	return call(ctx, p, what, func(ctx context.Context) (*forgev1.CITriggered, error) {
		var (
			run *gh.WorkflowDispatchRunDetails
			err error
		)
		if id != 0 {
			run, _, err = p.author.Actions.CreateWorkflowDispatchEventByID(ctx, repo.owner, repo.name, id, event)
		} else {
			run, _, err = p.author.Actions.CreateWorkflowDispatchEventByFileName(ctx, repo.owner, repo.name, workflow, event)
		}
		switch status, said := answered(err); {
		case status == 404:
			return nil, toolserver.NotFound("%s: GitHub has no workflow %s in %s (404); give the file name of a workflow under .github/workflows (e.g. ci.yml) or its numeric id; nothing was started",
				what, workflow, repo)
		case status == 422:
			msg := fmt.Sprintf("%s: GitHub refused to start it: %s", what, said)
			if strings.Contains(said, "workflow_dispatch") {
				msg += "; only a workflow that declares on: workflow_dispatch can be triggered"
			}
			return nil, toolserver.InvalidArgument("%s; nothing was started", msg)
		case err != nil:
			return nil, err
		}
		out := &forgev1.CITriggered{
			Forge:    p.Ref(),
			Repo:     repo.String(),
			Workflow: workflow,
			Ref:      req.GetRef(),
			Url:      run.GetHTMLURL(),
		}
		if run.GetWorkflowRunID() > 0 {
			out.RunId = strconv.FormatInt(run.GetWorkflowRunID(), 10)
		}
		if out.Url == "" {
			out.Url = p.webURL(repo, "actions/workflows/"+workflow)
		}
		return out, nil
	})
}

// dispatchDetails reports whether the host returns a dispatched run's id:
// GitHub's hosted services do; Enterprise Server does not know the option.
func (p *Provider) dispatchDetails() bool {
	return p.host == DefaultHost || strings.HasSuffix(p.host, ".ghe.com")
}

var workflowFile = regexp.MustCompile(`^[A-Za-z0-9_.-]+\.ya?ml$`)

// workflowRef is a workflow as the dispatch URL takes it: a numeric id, or a
// file name under .github/workflows (a path to one is cut to its name).
func workflowRef(w string) (name string, id int64, err error) {
	if n, err := strconv.ParseInt(w, 10, 64); err == nil && n > 0 {
		return w, n, nil
	}
	name = strings.TrimPrefix(strings.TrimPrefix(w, "./"), ".github/workflows/")
	if !workflowFile.MatchString(name) {
		return "", 0, toolserver.InvalidArgument("workflow %q is neither a workflow id nor the file name of a workflow under .github/workflows (e.g. ci.yml)", w)
	}
	return name, 0, nil
}

// RerunCi re-runs a completed workflow run, or only its failed jobs, then
// reads the run back: its new attempt is queued. GitHub answers a re-run of
// a run still in progress with 403; that is a state, not a permission.
func (p *Provider) RerunCi(ctx context.Context, _ toolserver.Call, req *gatewayv1.RerunCIRequest) (*forgev1.CIRun, error) {
	repo, id, err := parseRun(req.GetRepo(), req.GetRunId())
	if err != nil {
		return nil, err
	}
	what := fmt.Sprintf("re-run CI run %d in %s", id, repo)
	if req.GetFailedOnly() {
		what = fmt.Sprintf("re-run the failed jobs of CI run %d in %s", id, repo)
	}
	return call(ctx, p, what, func(ctx context.Context) (*forgev1.CIRun, error) {
		var err error
		if req.GetFailedOnly() {
			_, err = p.author.Actions.RerunFailedJobsByID(ctx, repo.owner, repo.name, id)
		} else {
			_, err = p.author.Actions.RerunWorkflowByID(ctx, repo.owner, repo.name, id)
		}
		if status, said := answered(err); status == 403 && strings.Contains(said, "already running") {
			return nil, toolserver.FailedPrecondition("%s: GitHub answered 403: %s; wait for it to finish (forge_get_ci_run), then re-run", what, said)
		} else if err != nil {
			return nil, err
		}
		r, _, err := p.author.Actions.GetWorkflowRunByID(ctx, repo.owner, repo.name, id)
		if err != nil {
			// The re-run was requested; only the read-back failed.
			p.log.DebugContext(ctx, "github: re-run requested, run not read back", "host", p.host, "repo", repo.String(), "code", p.mapError("read back", err).Code.String())
			return &forgev1.CIRun{Forge: p.Ref(), Repo: repo.String(), RunId: strconv.FormatInt(id, 10), Url: p.webURL(repo, fmt.Sprintf("actions/runs/%d", id))}, nil
		}
		return p.ciRun(repo, r), nil
	})
}

// parseRun is a repository and one of its GitHub Actions runs, whose id is
// a positive number.
func parseRun(repoArg, id string) (repoName, int64, error) {
	repo, err := parseRepo(repoArg)
	if err != nil {
		return repoName{}, 0, err
	}
	n, err := strconv.ParseInt(id, 10, 64)
	if err != nil || n <= 0 {
		return repoName{}, 0, toolserver.InvalidArgument("run_id %q is not a GitHub Actions run id (a number, as forge_list_ci_runs shows)", id)
	}
	return repo, n, nil
}

func (p *Provider) ciRun(repo repoName, r *gh.WorkflowRun) *forgev1.CIRun {
	return &forgev1.CIRun{
		Forge:      p.Ref(),
		Repo:       repo.String(),
		RunId:      strconv.FormatInt(r.GetID(), 10),
		Name:       r.GetName(),
		Ref:        r.GetHeadBranch(),
		HeadSha:    r.GetHeadSHA(),
		Status:     r.GetStatus(),
		Conclusion: r.GetConclusion(),
		Url:        r.GetHTMLURL(),
		CreatedAt:  timestamp(r.CreatedAt),
	}
}
