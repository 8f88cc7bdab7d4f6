package gitea

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	sdk "code.gitea.io/sdk/gitea"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/providers/internal/rest"
	"github.com/forgetools/forgetools/providers/kit"
	"github.com/forgetools/forgetools/toolserver"
)

// noRunAPI is the Forgejo answer for the arms that need Gitea's Actions
// run API.
func (p *Provider) noRunAPI(arm string) error {
	if p.flavor != Forgejo {
		return nil
	}
	return toolserver.NotImplemented("%s cannot run on Forgejo: forgetools reads and re-runs CI through Gitea's Actions run API, and Forgejo's Actions API has different endpoints and shapes; forge_trigger_ci works (workflow dispatch), and runs can be seen in the repository's Actions tab", arm)
}

// ciFailure words a failed Actions call on repo (run > 0: about that
// run). Gitea answers 404 both for a run that does not exist and for an
// instance without the run API, and 404, 403 or an empty list when
// Actions is disabled for the repository: the repository says which.
func (p *Provider) ciFailure(c *sdk.Client, repo repoName, run int64, resp *sdk.Response, err error) error {
	if resp == nil || (resp.StatusCode != http.StatusNotFound && resp.StatusCode != http.StatusForbidden) {
		return fail(resp, err)
	}
	r, rr, gerr := c.GetRepo(repo.owner, repo.name)
	if gerr != nil {
		return fail(rr, gerr) // the repository is what is missing
	}
	if !r.HasActions {
		return p.actionsOff(repo)
	}
	if resp.StatusCode != http.StatusNotFound {
		return fail(resp, err)
	}
	if run > 0 {
		if _, lr, lerr := c.ListRepoActionRuns(repo.owner, repo.name, sdk.ListRepoActionRunsOptions{ListOptions: sdk.ListOptions{Page: 1, PageSize: 1}}); lerr == nil {
			return toolserver.NotFound("%s has no Actions run %d (forge_list_ci_runs lists its runs)", repo, run)
		} else if lr == nil || lr.StatusCode != http.StatusNotFound {
			return fail(lr, lerr)
		}
	}
	return toolserver.NotImplemented("%s answered 404 for the Actions run API of %s, which exists: this instance serves no Actions run API (Gitea before 1.26)", p.flavor.Name(), repo)
}

// actionsOff is the answer for a repository whose Actions is disabled.
func (p *Provider) actionsOff(repo repoName) error {
	return toolserver.NotImplemented("Actions is disabled for %s on this %s, so it has no CI runs to read or re-run (an owner can enable it in the repository's settings)", repo, p.flavor.Name())
}

var runStatusFilters = map[gatewayv1.CIStatusFilter]string{
	gatewayv1.CIStatusFilter_CI_STATUS_FILTER_QUEUED:      "queued",
	gatewayv1.CIStatusFilter_CI_STATUS_FILTER_IN_PROGRESS: "in_progress",
	gatewayv1.CIStatusFilter_CI_STATUS_FILTER_SUCCESS:     "success",
	gatewayv1.CIStatusFilter_CI_STATUS_FILTER_FAILURE:     "failure",
}

// ListCiRuns lists Actions workflow runs, newest first, the page the
// cursor names. Gitea filters by every status but "completed", which is
// filtered here, on the page.
func (p *Provider) ListCiRuns(ctx context.Context, _ toolserver.Call, req *gatewayv1.ListCIRunsRequest) (*forgev1.CIRunList, error) {
	if err := p.noRunAPI("forge_list_ci_runs"); err != nil {
		return nil, err
	}
	repo, err := p.parseRepo(req.GetRepo())
	if err != nil {
		return nil, err
	}
	cur := kit.CursorsFor("forge_list_ci_runs", req)
	page, err := listPage(cur, req.GetCursor(), req.GetLimit())
	if err != nil {
		return nil, err
	}
	completed := req.GetStatus() == gatewayv1.CIStatusFilter_CI_STATUS_FILTER_COMPLETED
	opt := sdk.ListRepoActionRunsOptions{
		ListOptions: page,
		Branch:      req.GetRef(), Status: runStatusFilters[req.GetStatus()],
	}
	return call(ctx, p, "list CI runs in "+repo.String(), func(c *sdk.Client) (*forgev1.CIRunList, error) {
		got, resp, err := c.ListRepoActionRuns(repo.owner, repo.name, opt)
		if err != nil {
			return nil, p.ciFailure(c, repo, 0, resp, err)
		}
		if opt.Page == 1 && len(got.WorkflowRuns) == 0 {
			// With Actions disabled Gitea lists no runs rather than
			// failing: say it is off, not that nothing ran.
			r, rr, gerr := c.GetRepo(repo.owner, repo.name)
			if gerr != nil {
				return nil, fail(rr, gerr)
			}
			if !r.HasActions {
				return nil, p.actionsOff(repo)
			}
		}
		list := &forgev1.CIRunList{NextCursor: nextCursor(cur, opt.ListOptions, len(got.WorkflowRuns), resp)}
		for _, r := range got.WorkflowRuns[:min(len(got.WorkflowRuns), opt.PageSize)] {
			if !completed || r.Status == "completed" {
				list.Runs = append(list.Runs, p.ciRun(repo, r))
			}
		}
		return list, nil
	})
}

func (p *Provider) ciRun(repo repoName, r *sdk.ActionWorkflowRun) *forgev1.CIRun {
	name := r.DisplayTitle
	if r.Path != "" {
		// The workflow file, without Gitea's "@ref" suffix.
		name, _, _ = strings.Cut(r.Path, "@")
	}
	return &forgev1.CIRun{
		Forge: p.Ref(), Repo: repo.String(), RunId: strconv.FormatInt(r.ID, 10), Name: name,
		Ref: r.HeadBranch, HeadSha: r.HeadSha, Status: r.Status, Conclusion: r.Conclusion,
		Url: r.HTMLURL, CreatedAt: runStart(r),
	}
}

// runStart is the nearest Gitea comes to a run's creation time: it
// reports no creation, only the start of the run's latest attempt, and
// the Unix epoch for a run not yet started (again after each re-run). So
// created_at is that start for a first attempt that has started, and
// empty otherwise: never 1970, and never a re-run's start posing as the
// creation.
func runStart(r *sdk.ActionWorkflowRun) string {
	if r.StartedAt.Unix() <= 0 || r.RunAttempt > 1 {
		return ""
	}
	return stamp(r.StartedAt)
}

func runID(s string) (int64, error) {
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n <= 0 {
		return 0, toolserver.InvalidArgument("run_id %q is not a Gitea Actions run id (a number, from forge_list_ci_runs)", s)
	}
	return n, nil
}

// GetCiRun reads a run, its jobs, and the end of each failed job's log.
func (p *Provider) GetCiRun(ctx context.Context, _ toolserver.Call, req *gatewayv1.GetCIRunRequest) (*forgev1.CIRun, error) {
	if err := p.noRunAPI("forge_get_ci_run"); err != nil {
		return nil, err
	}
	repo, err := p.parseRepo(req.GetRepo())
	if err != nil {
		return nil, err
	}
	id, err := runID(req.GetRunId())
	if err != nil {
		return nil, err
	}
	return call(ctx, p, fmt.Sprintf("get CI run %d in %s", id, repo), func(c *sdk.Client) (*forgev1.CIRun, error) {
		return p.runWithJobs(c, repo, id)
	})
}

func (p *Provider) runWithJobs(c *sdk.Client, repo repoName, id int64) (*forgev1.CIRun, error) {
	r, resp, err := c.GetRepoActionRun(repo.owner, repo.name, id)
	if err != nil {
		return nil, p.ciFailure(c, repo, id, resp, err)
	}
	out := p.ciRun(repo, r)
	jobs, resp, err := c.ListRepoActionRunJobs(repo.owner, repo.name, id, sdk.ListRepoActionJobsOptions{ListOptions: sdk.ListOptions{PageSize: pageSize}})
	if err != nil {
		return nil, fail(resp, err)
	}
	for _, j := range jobs.Jobs {
		job := &forgev1.CIJob{
			JobId: strconv.FormatInt(j.ID, 10), Name: j.Name, Status: j.Status, Conclusion: j.Conclusion, Url: j.HTMLURL,
		}
		if j.Conclusion == "failure" {
			log, resp, err := c.GetRepoActionJobLogs(repo.owner, repo.name, j.ID)
			if err != nil {
				return nil, fail(resp, err)
			}
			job.LogTail = rest.LogTail(log)
		}
		out.Jobs = append(out.Jobs, job)
	}
	return out, nil
}

// TriggerCi dispatches a workflow (POST .../actions/workflows/{file}/
// dispatches, on Gitea and Forgejo alike). The run starts asynchronously,
// so the answer carries no run id.
func (p *Provider) TriggerCi(ctx context.Context, _ toolserver.Call, req *gatewayv1.TriggerCIRequest) (*forgev1.CITriggered, error) {
	repo, err := p.parseRepo(req.GetRepo())
	if err != nil {
		return nil, err
	}
	in := sdk.CreateActionWorkflowDispatchOption{Ref: req.GetRef()}
	if len(req.GetInputs()) > 0 {
		in.Inputs = map[string]string{}
		for _, i := range req.GetInputs() {
			in.Inputs[i.GetName()] = i.GetValue()
		}
	}
	return call(ctx, p, fmt.Sprintf("trigger %s on %s in %s", req.GetWorkflow(), req.GetRef(), repo), func(c *sdk.Client) (*forgev1.CITriggered, error) {
		if _, resp, err := c.DispatchRepoActionWorkflow(repo.owner, repo.name, req.GetWorkflow(), in, false); err != nil {
			return nil, fail(resp, err)
		}
		return &forgev1.CITriggered{Forge: p.Ref(), Repo: repo.String(), Workflow: req.GetWorkflow(), Ref: req.GetRef()}, nil
	})
}

// RerunCi re-runs a run, or only its failed jobs, and reads it back.
func (p *Provider) RerunCi(ctx context.Context, _ toolserver.Call, req *gatewayv1.RerunCIRequest) (*forgev1.CIRun, error) {
	if err := p.noRunAPI("forge_rerun_ci"); err != nil {
		return nil, err
	}
	repo, err := p.parseRepo(req.GetRepo())
	if err != nil {
		return nil, err
	}
	id, err := runID(req.GetRunId())
	if err != nil {
		return nil, err
	}
	return call(ctx, p, fmt.Sprintf("re-run CI run %d in %s", id, repo), func(c *sdk.Client) (*forgev1.CIRun, error) {
		var (
			resp *sdk.Response
			err  error
		)
		if req.GetFailedOnly() {
			resp, err = c.RerunRepoActionRunFailedJobs(repo.owner, repo.name, id)
		} else {
			_, resp, err = c.RerunRepoActionRun(repo.owner, repo.name, id)
		}
		if err != nil {
			if resp != nil && resp.StatusCode == http.StatusBadRequest {
				// Gitea re-runs only a run that is done, and only failed
				// jobs when there are some: its reason is the state's.
				return nil, toolserver.FailedPrecondition("%s refused to re-run run %d in %s: %s; nothing was re-run", p.flavor.Name(), id, repo, detail(err))
			}
			return nil, p.ciFailure(c, repo, id, resp, err)
		}
		r, resp, err := c.GetRepoActionRun(repo.owner, repo.name, id)
		if err != nil {
			return nil, fail(resp, err)
		}
		return p.ciRun(repo, r), nil
	})
}
