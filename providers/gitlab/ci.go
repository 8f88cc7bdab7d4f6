package gitlab

import (
	"context"
	"fmt"
	"io"
	"strconv"

	gl "gitlab.com/gitlab-org/api/client-go"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/providers/internal/rest"
	"github.com/forgetools/forgetools/providers/kit"
	"github.com/forgetools/forgetools/toolserver"
)

// CI on GitLab is pipelines: a run is a pipeline, its jobs are the
// pipeline's jobs.

// runStatus maps a GitLab pipeline or job status to the tools' status and
// conclusion.
func runStatus(s string) (status, conclusion string) {
	switch s {
	case "running", "canceling":
		return "in_progress", ""
	case "success":
		return "completed", "success"
	case "failed":
		return "completed", "failure"
	case "canceled":
		return "completed", "cancelled"
	case "skipped":
		return "completed", "skipped"
	case "manual":
		return "completed", "action_required"
	default: // created, waiting_for_resource, preparing, pending, scheduled
		return "queued", ""
	}
}

// statusFilters are the GitLab statuses a CI status filter asks for; the
// queued and completed filters cover several, so those are filtered here.
var statusFilters = map[gatewayv1.CIStatusFilter]gl.BuildStateValue{
	gatewayv1.CIStatusFilter_CI_STATUS_FILTER_IN_PROGRESS: gl.Running,
	gatewayv1.CIStatusFilter_CI_STATUS_FILTER_SUCCESS:     gl.Success,
	gatewayv1.CIStatusFilter_CI_STATUS_FILTER_FAILURE:     gl.Failed,
}

// ListCiRuns lists pipelines newest first, the page the cursor names; a
// status GitLab has no filter for (queued, completed) is applied to the
// page.
func (p *Provider) ListCiRuns(ctx context.Context, _ toolserver.Call, req *gatewayv1.ListCIRunsRequest) (*forgev1.CIRunList, error) {
	repo, err := parseRepo(req.GetRepo())
	if err != nil {
		return nil, err
	}
	cur := kit.CursorsFor("forge_list_ci_runs", req)
	page, err := cur.Page(req.GetCursor())
	if err != nil {
		return nil, err
	}
	want := ""
	switch req.GetStatus() {
	case gatewayv1.CIStatusFilter_CI_STATUS_FILTER_QUEUED:
		want = "queued"
	case gatewayv1.CIStatusFilter_CI_STATUS_FILTER_COMPLETED:
		want = "completed"
	}
	opt := &gl.ListProjectPipelinesOptions{
		ListOptions: gl.ListOptions{PerPage: listLimit(req.GetLimit()), Page: page}, OrderBy: ptr("id"), Sort: ptr("desc"),
	}
	if s, ok := statusFilters[req.GetStatus()]; ok {
		opt.Status = ptr(s)
	}
	if r := req.GetRef(); r != "" {
		opt.Ref = ptr(r)
	}
	return call(ctx, p, "list pipelines in "+repo.String(), func(ro gl.RequestOptionFunc) (*forgev1.CIRunList, error) {
		pls, resp, err := p.author.Pipelines.ListProjectPipelines(repo.String(), opt, ro)
		if err != nil {
			return nil, fail(resp, err)
		}
		list := &forgev1.CIRunList{NextCursor: cur.NextKey(int64(nextPage(resp)))}
		for _, pl := range pls[:min(len(pls), int(opt.PerPage))] {
			if run := p.ciRun(repo, pl.ID, pl.Name, pl.Ref, pl.SHA, pl.Status, pl.WebURL, stamp(pl.CreatedAt)); want == "" || run.Status == want {
				list.Runs = append(list.Runs, run)
			}
		}
		return list, nil
	})
}

func (p *Provider) ciRun(repo project, id int64, name, ref, sha, status, url, created string) *forgev1.CIRun {
	st, concl := runStatus(status)
	if name == "" {
		name = "pipeline"
	}
	return &forgev1.CIRun{
		Forge: p.Ref(), Repo: repo.String(), RunId: strconv.FormatInt(id, 10), Name: name, Ref: ref,
		HeadSha: sha, Status: st, Conclusion: concl, Url: url, CreatedAt: created,
	}
}

func pipelineID(s string) (int64, error) {
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n <= 0 {
		return 0, toolserver.InvalidArgument("run_id %q is not a GitLab pipeline id (a number, from forge_list_ci_runs)", s)
	}
	return n, nil
}

// GetCiRun reads a pipeline, its jobs, and the end of each failed job's
// log (trace).
func (p *Provider) GetCiRun(ctx context.Context, _ toolserver.Call, req *gatewayv1.GetCIRunRequest) (*forgev1.CIRun, error) {
	repo, err := parseRepo(req.GetRepo())
	if err != nil {
		return nil, err
	}
	id, err := pipelineID(req.GetRunId())
	if err != nil {
		return nil, err
	}
	return call(ctx, p, fmt.Sprintf("get pipeline %d in %s", id, repo), func(ro gl.RequestOptionFunc) (*forgev1.CIRun, error) {
		pl, resp, err := p.author.Pipelines.GetPipeline(repo.String(), id, ro)
		if err != nil {
			return nil, fail(resp, err)
		}
		out := p.ciRun(repo, pl.ID, pl.Name, pl.Ref, pl.SHA, pl.Status, pl.WebURL, stamp(pl.CreatedAt))
		jobs, err := collect(func(o gl.ListOptions) ([]*gl.Job, *gl.Response, error) {
			return p.author.Jobs.ListPipelineJobs(repo.String(), id, &gl.ListJobsOptions{ListOptions: o}, ro)
		})
		if err != nil {
			return nil, err
		}
		for _, j := range jobs {
			st, concl := runStatus(j.Status)
			job := &forgev1.CIJob{JobId: strconv.FormatInt(j.ID, 10), Name: j.Name, Status: st, Conclusion: concl, Url: j.WebURL}
			if j.Status == "failed" {
				trace, resp, err := p.author.Jobs.GetTraceFile(repo.String(), j.ID, ro)
				if err != nil {
					return nil, fail(resp, err)
				}
				log, err := io.ReadAll(trace)
				if err != nil {
					return nil, err
				}
				job.LogTail = rest.LogTail(log)
			}
			out.Jobs = append(out.Jobs, job)
		}
		return out, nil
	})
}

// TriggerCi starts a pipeline on a ref, with the inputs as CI/CD
// variables. A project has one pipeline configuration, so workflow names
// none: the answer says "pipeline" and carries the new pipeline's id.
func (p *Provider) TriggerCi(ctx context.Context, _ toolserver.Call, req *gatewayv1.TriggerCIRequest) (*forgev1.CITriggered, error) {
	repo, err := parseRepo(req.GetRepo())
	if err != nil {
		return nil, err
	}
	in := &gl.CreatePipelineOptions{Ref: ptr(req.GetRef())}
	if len(req.GetInputs()) > 0 {
		vars := make([]*gl.PipelineVariableOptions, 0, len(req.GetInputs()))
		for _, i := range req.GetInputs() {
			vars = append(vars, &gl.PipelineVariableOptions{Key: ptr(i.GetName()), Value: ptr(i.GetValue())})
		}
		in.Variables = &vars
	}
	return call(ctx, p, fmt.Sprintf("start a pipeline on %s in %s", req.GetRef(), repo), func(ro gl.RequestOptionFunc) (*forgev1.CITriggered, error) {
		pl, resp, err := p.author.Pipelines.CreatePipeline(repo.String(), in, ro)
		if err != nil {
			return nil, fail(resp, err)
		}
		return &forgev1.CITriggered{
			Forge: p.Ref(), Repo: repo.String(), Workflow: "pipeline", Ref: pl.Ref,
			RunId: strconv.FormatInt(pl.ID, 10), Url: pl.WebURL,
		}, nil
	})
}

// RerunCi retries a pipeline's failed and canceled jobs, which is what
// GitLab's retry does. GitLab cannot re-run a whole pipeline in place, so
// a full re-run is refused with what to do instead.
func (p *Provider) RerunCi(ctx context.Context, _ toolserver.Call, req *gatewayv1.RerunCIRequest) (*forgev1.CIRun, error) {
	repo, err := parseRepo(req.GetRepo())
	if err != nil {
		return nil, err
	}
	id, err := pipelineID(req.GetRunId())
	if err != nil {
		return nil, err
	}
	if !req.GetFailedOnly() {
		return nil, toolserver.InvalidArgument("GitLab re-runs only a pipeline's failed and canceled jobs (retry), never a whole pipeline in place: set failed_only, or start a new pipeline with forge_trigger_ci")
	}
	return call(ctx, p, fmt.Sprintf("retry pipeline %d in %s", id, repo), func(ro gl.RequestOptionFunc) (*forgev1.CIRun, error) {
		pl, resp, err := p.author.Pipelines.RetryPipelineBuild(repo.String(), id, ro)
		if err != nil {
			return nil, fail(resp, err)
		}
		return p.ciRun(repo, pl.ID, pl.Name, pl.Ref, pl.SHA, pl.Status, pl.WebURL, stamp(pl.CreatedAt)), nil
	})
}
