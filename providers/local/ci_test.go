package local_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/providers/local"
	"github.com/forgetools/forgetools/toolserver"
)

// ciScript prints what a run sees, then fails when asked to.
const ciScript = `printf 'mode=%s ref=%s\n' "$INPUT_MODE" "$FORGETOOLS_CI_REF"; cat marker.txt 2>/dev/null; env | sort; test "$INPUT_MODE" != fail`

func trigger(t *testing.T, f *local.Forge, ref, mode string) *forgev1.CIRun {
	t.Helper()
	ctx := context.Background()
	tr, err := f.TriggerCi(ctx, alice, &gatewayv1.TriggerCIRequest{Repo: "acme/app", Workflow: "ci.yml", Ref: ref,
		Inputs: []*gatewayv1.CIInput{{Name: "mode", Value: mode}}})
	if err != nil {
		t.Fatalf("trigger on %s: %v", ref, err)
	}
	if tr.GetRunId() == "" || tr.GetWorkflow() != "ci.yml" || tr.GetUrl() != testBase+"/acme/app/actions/runs/"+tr.GetRunId() {
		t.Fatalf("triggered %v", tr)
	}
	run, err := f.GetCiRun(ctx, alice, &gatewayv1.GetCIRunRequest{Repo: "acme/app", RunId: tr.GetRunId()})
	if err != nil {
		t.Fatal(err)
	}
	return run
}

func TestCIWithoutACommand(t *testing.T) {
	eachDialect(t, func(t *testing.T, d database) {
		f, _ := newForge(t, d, local.Options{})
		_, err := f.TriggerCi(context.Background(), alice, &gatewayv1.TriggerCIRequest{Repo: "acme/app", Workflow: "ci", Ref: "main"})
		var u *toolserver.UnimplementedError
		if !errors.As(err, &u) || u.Capability != "ci" || u.Arm != "trigger_ci" {
			t.Fatalf("err = %v, want unimplemented ci", err)
		}
		if got := f.Unsupported("ci"); got != local.NoCI || !strings.Contains(got, "set ci_command") {
			t.Errorf("explanation %q", got)
		}
		with, _ := newForge(t, d, local.Options{CI: local.CI{Command: "true"}})
		if got := with.Unsupported("ci") + with.Unsupported("issues"); got != "" {
			t.Errorf("a forge with CI explains %q", got)
		}
	})
}

func TestCIRuns(t *testing.T) {
	t.Setenv("FORGETOOLS_TEST_CI_SECRET", "s3cret-token")
	t.Setenv("FORGETOOLS_TEST_CI_PASSED", "passed-through")
	eachDialect(t, func(t *testing.T, d database) {
		ctx := context.Background()
		f, _ := newForge(t, d, local.Options{CI: local.CI{Command: ciScript, Env: []string{"FORGETOOLS_TEST_CI_PASSED"}}})
		branch(t, f, "acme/app", "fix")
		fix := writeFile(t, f, alice, "acme/app", "fix", "marker.txt", "checked out from fix\n", "")

		ok := trigger(t, f, "main", "fast")
		if ok.GetStatus() != "completed" || ok.GetConclusion() != "success" || ok.GetRef() != "main" || ok.GetName() != "ci.yml" ||
			len(ok.GetHeadSha()) != 40 || len(ok.GetJobs()) != 1 || ok.GetJobs()[0].GetLogTail() != "" || ok.GetJobs()[0].GetConclusion() != "success" {
			t.Fatalf("successful run %v", ok)
		}
		bad := trigger(t, f, "fix", "fail")
		if bad.GetConclusion() != "failure" || bad.GetHeadSha() != fix.GetCommitSha() {
			t.Fatalf("failed run %v", bad)
		}
		log := bad.GetJobs()[0].GetLogTail()
		for _, want := range []string{"mode=fail ref=fix\n", "checked out from fix\n", "CI=true\n", "FORGETOOLS_CI_REPO=acme/app\n",
			"FORGETOOLS_CI_SHA=" + fix.GetCommitSha() + "\n", "FORGETOOLS_CI_RUN_ID=" + bad.GetRunId() + "\n",
			"FORGETOOLS_TEST_CI_PASSED=passed-through\n", "INPUT_MODE=fail\n"} {
			if !strings.Contains(log, want) {
				t.Errorf("log tail lacks %q:\n%s", want, log)
			}
		}
		if strings.Contains(log, "s3cret-token") || strings.Contains(log, "FORGETOOLS_TEST_POSTGRES") {
			t.Errorf("the gateway's environment reached the CI command:\n%s", log)
		}

		list, err := f.ListCiRuns(ctx, alice, &gatewayv1.ListCIRunsRequest{Repo: "acme/app"})
		if err != nil || len(list.GetRuns()) != 2 || list.GetRuns()[0].GetRunId() != bad.GetRunId() || list.GetRuns()[0].GetJobs() != nil {
			t.Fatalf("list %v, %v: want both runs, newest first, without jobs", list, err)
		}
		for _, tc := range []struct {
			req  *gatewayv1.ListCIRunsRequest
			want []string
		}{
			{&gatewayv1.ListCIRunsRequest{Status: gatewayv1.CIStatusFilter_CI_STATUS_FILTER_FAILURE}, []string{bad.GetRunId()}},
			{&gatewayv1.ListCIRunsRequest{Status: gatewayv1.CIStatusFilter_CI_STATUS_FILTER_SUCCESS}, []string{ok.GetRunId()}},
			{&gatewayv1.ListCIRunsRequest{Status: gatewayv1.CIStatusFilter_CI_STATUS_FILTER_COMPLETED}, []string{bad.GetRunId(), ok.GetRunId()}},
			{&gatewayv1.ListCIRunsRequest{Status: gatewayv1.CIStatusFilter_CI_STATUS_FILTER_IN_PROGRESS}, nil},
			{&gatewayv1.ListCIRunsRequest{Ref: "main"}, []string{ok.GetRunId()}},
		} {
			tc.req.Repo = "acme/app"
			got, err := f.ListCiRuns(ctx, alice, tc.req)
			if err != nil {
				t.Fatal(err)
			}
			var ids []string
			for _, r := range got.GetRuns() {
				ids = append(ids, r.GetRunId())
			}
			if !slices.Equal(ids, tc.want) {
				t.Errorf("list %v: %v, want %v", tc.req, ids, tc.want)
			}
		}

		// A re-run runs the same commit again, in place.
		writeFile(t, f, alice, "acme/app", "fix", "marker.txt", "fix moved on\n", fix.GetBlobSha())
		again, err := f.RerunCi(ctx, alice, &gatewayv1.RerunCIRequest{Repo: "acme/app", RunId: bad.GetRunId(), FailedOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		if again.GetRunId() != bad.GetRunId() || again.GetConclusion() != "failure" || again.GetJobs()[0].GetJobId() != bad.GetRunId()+"-2" ||
			!strings.Contains(again.GetJobs()[0].GetLogTail(), "checked out from fix\n") {
			t.Errorf("re-run %v", again)
		}
		_, err = f.RerunCi(ctx, alice, &gatewayv1.RerunCIRequest{Repo: "acme/app", RunId: ok.GetRunId(), FailedOnly: true})
		wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_FAILED_PRECONDITION, "has no failed jobs")

		// Runs belong to their repository.
		_, err = f.GetCiRun(ctx, alice, &gatewayv1.GetCIRunRequest{Repo: "acme/other", RunId: ok.GetRunId()})
		wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_NOT_FOUND, "not found in acme/other")
		_, err = f.TriggerCi(ctx, alice, &gatewayv1.TriggerCIRequest{Repo: "acme/app", Workflow: "ci", Ref: "nope"})
		wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_NOT_FOUND, `"nope" is not a branch`)
	})
}

// A command that outlives the timeout is stopped, process group and all,
// and the run says so.
func TestCITimeout(t *testing.T) {
	eachDialect(t, func(t *testing.T, d database) {
		f, _ := newForge(t, d, local.Options{CI: local.CI{Command: "echo started; sleep 60 & wait", Timeout: 200 * time.Millisecond}})
		run := trigger(t, f, "main", "")
		log := run.GetJobs()[0].GetLogTail()
		if run.GetConclusion() != "timed_out" || !strings.Contains(log, "started\n") || !strings.Contains(log, "ran longer than 200ms") {
			t.Fatalf("timed-out run %v", run)
		}
	})
}

// A run whose caller gave up ends cancelled, and is recorded as such.
func TestCICancelled(t *testing.T) {
	eachDialect(t, func(t *testing.T, d database) {
		f, _ := newForge(t, d, local.Options{CI: local.CI{Command: "sleep 60"}})
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() {
			_, err := f.TriggerCi(ctx, alice, &gatewayv1.TriggerCIRequest{Repo: "acme/app", Workflow: "ci", Ref: "main"})
			done <- err
		}()
		// Wait until the run is recorded in progress, then give up on it.
		for {
			list, err := f.ListCiRuns(context.Background(), alice, &gatewayv1.ListCIRunsRequest{Repo: "acme/app",
				Status: gatewayv1.CIStatusFilter_CI_STATUS_FILTER_IN_PROGRESS})
			if err != nil {
				t.Fatal(err)
			}
			if len(list.GetRuns()) == 1 {
				break
			}
			select {
			case err := <-done:
				t.Fatalf("the run ended before it was cancelled: %v", err)
			case <-time.After(10 * time.Millisecond):
			}
		}
		cancel()
		if err := <-done; err != nil {
			t.Fatalf("a cancelled run still reports its trigger: %v", err)
		}
		list, _ := f.ListCiRuns(context.Background(), alice, &gatewayv1.ListCIRunsRequest{Repo: "acme/app"})
		if len(list.GetRuns()) != 1 || list.GetRuns()[0].GetConclusion() != "cancelled" {
			t.Fatalf("runs %v", list)
		}
	})
}
