package local

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"strconv"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/forgetools/forgetools/enumname"
	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/toolserver"
)

// NoCI is how the local forge explains its CI tools when no command is
// configured.
const NoCI = "the local forge runs no CI until its configuration names a command: set ci_command on the local forge " +
	`(e.g. ci_command: "make test") and forge_trigger_ci runs it in a fresh checkout of the ref`

// Unsupported implements toolserver.Explainer: the only capability the local
// forge can lack is CI, when no command is configured.
func (f *Forge) Unsupported(capability string) string {
	if capability == "ci" && f.ci.Command == "" {
		return NoCI
	}
	return ""
}

// ciInput is one workflow input as a run stores it, for re-runs.
type ciInput struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// The local forge's CI has one job per run.
const ciJobName = "ci_command"

// run is a row of local_ci_runs.
type run struct {
	id                                  int64
	workflow, ref, headSHA, inputs      string
	status, conclusion, logTail, author string
	attempt                             int64
	createdAt                           int64
}

const runColumns = `id, workflow, ref, head_sha, inputs, status, conclusion, log_tail, author, attempt, created_at`

func (r *run) dest() []any {
	return []any{&r.id, &r.workflow, &r.ref, &r.headSHA, &r.inputs, &r.status, &r.conclusion, &r.logTail, &r.author,
		&r.attempt, &r.createdAt}
}

// TriggerCi runs the configured command on the commit ref names, in a
// fresh checkout, and records the run. The call returns when the run has
// finished (or timed out), so the run it names is complete.
func (f *Forge) TriggerCi(ctx context.Context, c toolserver.Call, req *gatewayv1.TriggerCIRequest) (*forgev1.CITriggered, error) {
	if f.ci.Command == "" {
		return nil, toolserver.Unimplemented("ci", "trigger_ci")
	}
	r, ref, commit, err := f.at(ctx, req.GetRepo(), req.GetRef())
	if err != nil {
		return nil, err
	}
	sb, err := f.sandbox(ctx)
	if err != nil {
		return nil, err
	}
	inputs := make([]ciInput, len(req.GetInputs()))
	for i, in := range req.GetInputs() {
		inputs[i] = ciInput{Name: in.GetName(), Value: in.GetValue()}
	}
	stored, err := json.Marshal(inputs)
	if err != nil {
		return nil, internal(err)
	}
	ru := &run{workflow: req.GetWorkflow(), ref: ref, headSHA: commit.String(), inputs: string(stored), author: author(c), attempt: 1}
	err = f.write(ctx, func(tx *sql.Tx) error {
		ru.createdAt = f.now().UnixMicro()
		return tx.QueryRowContext(ctx, `INSERT INTO local_ci_runs
			(repo_id, workflow, ref, head_sha, inputs, status, author, created_at, updated_at)
			VALUES ($1, $2, $3, $4, $5, 'in_progress', $6, $7, $7) RETURNING id`,
			r.id, ru.workflow, ru.ref, ru.headSHA, ru.inputs, ru.author, ru.createdAt).Scan(&ru.id)
	})
	if err != nil {
		return nil, err
	}
	if err := f.execute(ctx, sb, r, ru, inputs); err != nil {
		return nil, err
	}
	return &forgev1.CITriggered{
		Forge: f.Ref(), Repo: r.name, Workflow: ru.workflow, Ref: ref, RunId: strconv.FormatInt(ru.id, 10), Url: f.runURL(r.name, ru.id),
	}, nil
}

// RerunCi runs a finished run again on the same commit, in place: the run
// keeps its id and shows its latest attempt. A run has one job, so
// failed_only re-runs it only if it did not succeed.
func (f *Forge) RerunCi(ctx context.Context, _ toolserver.Call, req *gatewayv1.RerunCIRequest) (*forgev1.CIRun, error) {
	if f.ci.Command == "" {
		return nil, toolserver.Unimplemented("ci", "rerun_ci")
	}
	r, ru, err := f.findRun(ctx, req.GetRepo(), req.GetRunId())
	if err != nil {
		return nil, err
	}
	if ru.status != "completed" {
		return nil, toolserver.FailedPrecondition("run %d in %s is still %s", ru.id, r.name, ru.status)
	}
	if req.GetFailedOnly() && ru.conclusion == "success" {
		return nil, toolserver.FailedPrecondition("run %d in %s has no failed jobs to re-run", ru.id, r.name)
	}
	var inputs []ciInput
	if err := json.Unmarshal([]byte(ru.inputs), &inputs); err != nil {
		return nil, internal(err)
	}
	sb, err := f.sandbox(ctx)
	if err != nil {
		return nil, err
	}
	// Only a finished run starts again, checked in the update itself, so
	// two re-runs of one run cannot both start it.
	err = f.write(ctx, func(tx *sql.Tx) error {
		err := tx.QueryRowContext(ctx, `UPDATE local_ci_runs SET status = 'in_progress', conclusion = '', log_tail = '',
			attempt = attempt + 1, updated_at = $1 WHERE id = $2 AND status = 'completed' RETURNING attempt`,
			f.now().UnixMicro(), ru.id).Scan(&ru.attempt)
		if errors.Is(err, sql.ErrNoRows) {
			return toolserver.FailedPrecondition("run %d in %s is already running again", ru.id, r.name)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	if err := f.execute(ctx, sb, r, ru, inputs); err != nil {
		return nil, err
	}
	return f.ciRun(r.name, ru, true), nil
}

// ListCiRuns lists a repository's runs, newest first (keyset on the id).
func (f *Forge) ListCiRuns(ctx context.Context, _ toolserver.Call, req *gatewayv1.ListCIRunsRequest) (*forgev1.CIRunList, error) {
	if f.ci.Command == "" {
		return nil, toolserver.Unimplemented("ci", "list_ci_runs")
	}
	r, err := f.repository(ctx, req.GetRepo())
	if err != nil {
		return nil, err
	}
	query := `SELECT ` + runColumns + ` FROM local_ci_runs WHERE repo_id = $1`
	args := []any{r.id}
	if ref := req.GetRef(); ref != "" {
		args = append(args, ref)
		query += ` AND ref = $` + strconv.Itoa(len(args))
	}
	// The filter's spellings are the stored ones: a status or a conclusion.
	switch st := req.GetStatus(); st {
	case gatewayv1.CIStatusFilter_CI_STATUS_FILTER_QUEUED, gatewayv1.CIStatusFilter_CI_STATUS_FILTER_IN_PROGRESS,
		gatewayv1.CIStatusFilter_CI_STATUS_FILTER_COMPLETED:
		args = append(args, enumname.Of(st))
		query += ` AND status = $` + strconv.Itoa(len(args))
	case gatewayv1.CIStatusFilter_CI_STATUS_FILTER_SUCCESS, gatewayv1.CIStatusFilter_CI_STATUS_FILTER_FAILURE:
		args = append(args, enumname.Of(st))
		query += ` AND conclusion = $` + strconv.Itoa(len(args))
	}
	page, err := keysetOf("forge_list_ci_runs", req, req.Limit)
	if err != nil {
		return nil, err
	}
	query, args = page.newestFirst(query, args, "id")
	var runs []*run
	err = f.readOne(ctx, func(q querier) error {
		rows, err := q.QueryContext(ctx, query, args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			ru := &run{}
			if err := rows.Scan(ru.dest()...); err != nil {
				return err
			}
			runs = append(runs, ru)
		}
		return rows.Err()
	})
	if err != nil {
		return nil, err
	}
	out := &forgev1.CIRunList{}
	runs, out.NextCursor = cut(page, runs, func(ru *run) int64 { return ru.id })
	for _, ru := range runs {
		out.Runs = append(out.Runs, f.ciRun(r.name, ru, false))
	}
	return out, nil
}

// GetCiRun reads one run with its job; a job that did not succeed carries
// the end of its log.
func (f *Forge) GetCiRun(ctx context.Context, _ toolserver.Call, req *gatewayv1.GetCIRunRequest) (*forgev1.CIRun, error) {
	if f.ci.Command == "" {
		return nil, toolserver.Unimplemented("ci", "get_ci_run")
	}
	r, ru, err := f.findRun(ctx, req.GetRepo(), req.GetRunId())
	if err != nil {
		return nil, err
	}
	return f.ciRun(r.name, ru, true), nil
}

// findRun reads run id of repo; a run of another repository is not found.
func (f *Forge) findRun(ctx context.Context, repo, id string) (*repository, *run, error) {
	r, err := f.repository(ctx, repo)
	if err != nil {
		return nil, nil, err
	}
	n, perr := strconv.ParseInt(id, 10, 64)
	notFound := toolserver.NotFound("CI run %q not found in %s", id, r.name)
	if perr != nil {
		return nil, nil, notFound
	}
	ru := &run{}
	err = f.readOne(ctx, func(q querier) error {
		err := q.QueryRowContext(ctx, `SELECT `+runColumns+` FROM local_ci_runs WHERE id = $1 AND repo_id = $2`, n, r.id).Scan(ru.dest()...)
		if errors.Is(err, sql.ErrNoRows) {
			return notFound
		}
		return err
	})
	return r, ru, err
}

// ciRun is the CIRun a row describes; withJobs adds its one job.
func (f *Forge) ciRun(repo string, ru *run, withJobs bool) *forgev1.CIRun {
	out := &forgev1.CIRun{
		Forge: f.Ref(), Repo: repo, RunId: strconv.FormatInt(ru.id, 10), Name: ru.workflow, Ref: ru.ref,
		HeadSha: ru.headSHA, Status: ru.status, Conclusion: ru.conclusion, Url: f.runURL(repo, ru.id), CreatedAt: stamp(ru.createdAt),
	}
	if withJobs {
		job := &forgev1.CIJob{JobId: strconv.FormatInt(ru.id, 10) + "-" + strconv.FormatInt(ru.attempt, 10), Name: ciJobName,
			Status: ru.status, Conclusion: ru.conclusion, Url: out.Url + "#attempt-" + strconv.FormatInt(ru.attempt, 10)}
		if ru.status == "completed" && ru.conclusion != "success" {
			job.LogTail = ru.logTail
		}
		out.Jobs = []*forgev1.CIJob{job}
	}
	return out
}

func (f *Forge) runURL(repo string, id int64) string {
	return f.baseURL + "/" + repo + "/actions/runs/" + strconv.FormatInt(id, 10)
}

// execute runs the command for ru and records how it ended. The record is
// written even when the caller has gone, so a run never stays in progress
// because the agent stopped waiting.
func (f *Forge) execute(ctx context.Context, sb *sandbox, r *repository, ru *run, inputs []ciInput) error {
	res := f.runCommand(ctx, sb, r, plumbing.NewHash(ru.headSHA), ru, inputs)
	ru.status, ru.conclusion, ru.logTail = "completed", res.conclusion, res.logTail
	done, cancel := context.WithTimeout(context.WithoutCancel(ctx), storeGrace)
	defer cancel()
	err := f.write(done, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(done, `UPDATE local_ci_runs SET status = 'completed', conclusion = $1, log_tail = $2,
			updated_at = $3 WHERE id = $4`, ru.conclusion, ru.logTail, f.now().UnixMicro(), ru.id)
		return err
	})
	if err == nil {
		f.checked(done, r, ru)
	}
	return err
}
