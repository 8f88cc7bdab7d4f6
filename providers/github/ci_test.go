package github

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/providers/github/githubtest"
	"github.com/forgetools/forgetools/providers/kit"
)

const (
	runID30433642 = "30433642"
	testJob       = 399444497
	blobHost      = "productionresultssa0.blob.core.windows.net"
)

// jobLogTail is job_log.txt as the model reads it: no byte order mark,
// timestamps or colour codes.
const jobLogTail = `##[group]Run go test ./...
go test ./...
shell: /usr/bin/bash -e {0}
##[endgroup]
ok  	example.com/hello/lib	0.012s
--- FAIL: TestParse (0.00s)
    parse_test.go:42: Parse("") = nil, want an error
FAIL
FAIL	example.com/hello/parse	0.004s
##[error]Process completed with exit code 1.`

func TestListCiRuns(t *testing.T) {
	f := newFake(t, exchange{method: "GET", path: repoPath + "/actions/runs",
		query: q("branch", "main", "status", "failure", "per_page", "1"), reply: fixture(t, "workflow_runs.json")})
	limit := uint32(1)
	got, err := f.provider(t).ListCiRuns(ctx, noCall, &gatewayv1.ListCIRunsRequest{
		Repo: hello, Ref: "main", Status: gatewayv1.CIStatusFilter_CI_STATUS_FILTER_FAILURE, Limit: &limit,
	})
	if err != nil {
		t.Fatal(err)
	}
	// The answer held two runs; the limit keeps one.
	wantProto(t, got, &forgev1.CIRunList{Runs: []*forgev1.CIRun{{
		Forge: githubCo, Repo: hello, RunId: runID30433642, Name: "Build", Ref: "main",
		HeadSha: "acb5820ced9479c074f688cc328bf03f341a511d", Status: "completed", Conclusion: "failure",
		Url: "https://github.com/octocat/Hello-World/actions/runs/30433642", CreatedAt: "2026-11-29T08:15:02Z",
	}}})
}

// runReads is what GetCiRun asks before any log: the run, then its jobs.
func runReads(t *testing.T) []exchange {
	return []exchange{
		{method: "GET", path: repoPath + "/actions/runs/30433642", reply: fixture(t, "workflow_run.json")},
		{method: "GET", path: repoPath + "/actions/runs/30433642/jobs", query: q("filter", "latest", "per_page", "100"), reply: fixture(t, "workflow_jobs.json")},
	}
}

func logsRedirect(location string) exchange {
	return exchange{method: "GET", path: fmt.Sprintf("%s/actions/jobs/%d/logs", repoPath, testJob), status: 302, header: hdr("Location", location)}
}

// The failed job's log is fetched from where the logs endpoint redirects,
// without the credential, and its tail cleaned for reading.
func TestGetCiRun(t *testing.T) {
	f := newFake(t, runReads(t)...)
	f.expect(logsRedirect(f.srv.LogURL(testJob)), f.logDownload(t, testJob, 200, nil, githubtest.Fixture("job_log.txt")))
	got, err := f.provider(t).GetCiRun(ctx, noCall, &gatewayv1.GetCIRunRequest{Repo: hello, RunId: runID30433642})
	if err != nil {
		t.Fatal(err)
	}
	jobs := "https://github.com/octocat/Hello-World/actions/runs/30433642/job/"
	wantProto(t, got, &forgev1.CIRun{
		Forge: githubCo, Repo: hello, RunId: runID30433642, Name: "Build", Ref: "main",
		HeadSha: "acb5820ced9479c074f688cc328bf03f341a511d", Status: "completed", Conclusion: "failure",
		Url: "https://github.com/octocat/Hello-World/actions/runs/30433642", CreatedAt: "2026-11-29T08:15:02Z",
		Jobs: []*forgev1.CIJob{
			{JobId: "399444496", Name: "lint", Status: "completed", Conclusion: "success", Url: jobs + "399444496"},
			{JobId: "399444497", Name: "test", Status: "completed", Conclusion: "failure", Url: jobs + "399444497", LogTail: jobLogTail},
		},
	})
}

// A log host that honours Range sends only the end: its first line is
// partial and dropped, and the tail says earlier lines are not shown.
func TestGetCiRunLogRange(t *testing.T) {
	log := githubtest.Fixture("job_log.txt")
	from := strings.Index(log, "2026-11-29T08:19:38.0000005Z") - 3 // within the line before
	f := newFake(t, runReads(t)...)
	f.expect(logsRedirect(f.srv.LogURL(testJob)),
		f.logDownload(t, testJob, 206, hdr("Content-Range", fmt.Sprintf("bytes %d-%d/%d", from, len(log)-1, len(log))), log[from:]))
	got, err := f.provider(t).GetCiRun(ctx, noCall, &gatewayv1.GetCIRunRequest{Repo: hello, RunId: runID30433642})
	if err != nil {
		t.Fatal(err)
	}
	want := logCut + "\nFAIL\texample.com/hello/parse\t0.004s\n##[error]Process completed with exit code 1."
	if tail := got.GetJobs()[1].GetLogTail(); tail != want {
		t.Errorf("tail\n got %q\nwant %q", tail, want)
	}
}

// A log that cannot be had leaves the read whole; the job says why.
func TestGetCiRunLogGone(t *testing.T) {
	f := newFake(t, runReads(t)...)
	f.expect(exchange{method: "GET", path: fmt.Sprintf("%s/actions/jobs/%d/logs", repoPath, testJob), status: 410, reply: fixture(t, "error_410.json")})
	got, err := f.provider(t).GetCiRun(ctx, noCall, &gatewayv1.GetCIRunRequest{Repo: hello, RunId: runID30433642})
	if err != nil {
		t.Fatal(err)
	}
	if tail := got.GetJobs()[1].GetLogTail(); !strings.HasPrefix(tail, "(log not available: job 399444497 log: GitHub answered 410 Gone") {
		t.Errorf("tail = %q", tail)
	}
}

// routed is an HTTPS transport that dials api.github.com to the fake's API
// and every other host to its log store, so a provider configured for
// github.com follows a redirect to GitHub's real log host name into the
// fake, and a request to any other host would be recorded there.
func routed(f *fakeGitHub) http.RoundTripper {
	tr := f.srv.Client().Transport.(*http.Transport).Clone()
	api := f.srv.Listener.Addr().String()
	logs, _ := url.Parse(f.srv.LogStoreURL())
	tr.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		to := logs.Host
		if strings.HasPrefix(addr, "api.github.com:") {
			to = api
		}
		var d net.Dialer
		return d.DialContext(ctx, network, to)
	}
	tr.TLSClientConfig.ServerName = "example.com" // the test certificate's name
	return tr
}

// On github.com the log is downloaded from GitHub's documented log host;
// a redirect anywhere else, or to plain http, is refused with nothing sent.
func TestLogDownloadHosts(t *testing.T) {
	f := startFake(t, githubtest.Options{TLS: true, LogHost: blobHost}, nil)
	p, err := New(Options{Options: kit.Options{Token: authorToken, UserAgent: testUserAgent, Transport: routed(f)}})
	if err != nil {
		t.Fatal(err)
	}
	download := f.logDownload(t, testJob, 200, nil, "boom\n")
	download.host = blobHost + ":" + strings.Split(f.srv.LogStoreURL(), ":")[2]
	for _, tc := range []struct {
		location string
		want     string
	}{
		{f.srv.LogURL(testJob), "boom"},
		{"https://evil.example.com/job-logs.txt", "(log not available: job 399444497 log: refused to follow a redirect to https://evil.example.com: this forge is pinned to https://api.github.com and GitHub's log download hosts)"},
		{strings.Replace(f.srv.LogURL(testJob), "https:", "http:", 1), "(log not available: job 399444497 log: refused to follow a redirect to http://" + blobHost},
		{"https://" + blobHost + ".evil.example.com/x", "(log not available: job 399444497 log: refused"},
	} {
		f.expect(runReads(t)...)
		f.expect(logsRedirect(tc.location))
		if tc.want == "boom" {
			f.expect(download)
		}
		got, err := p.GetCiRun(ctx, noCall, &gatewayv1.GetCIRunRequest{Repo: hello, RunId: runID30433642})
		if err != nil {
			t.Fatal(err)
		}
		if tail := got.GetJobs()[1].GetLogTail(); !strings.HasPrefix(tail, tc.want) {
			t.Errorf("redirect to %s: tail %q, want %q", tc.location, tail, tc.want)
		}
	}
}

func TestLogHosts(t *testing.T) {
	api, _ := url.Parse("https://api.github.com/")
	loopback, _ := url.Parse("http://127.0.0.1:8080/")
	for _, tc := range []struct {
		base  *url.URL
		to    string
		allow bool
	}{
		{api, "https://api.github.com/x", true},
		{api, "https://pipelines.actions.githubusercontent.com/x", true},
		{api, "https://results-receiver.actions.githubusercontent.com/x", true},
		{api, "https://productionresultssa12.blob.core.windows.net/x?sig=1", true},
		{api, "http://productionresultssa12.blob.core.windows.net/x", false},
		{api, "https://blob.core.windows.net.evil.example/x", false},
		{api, "https://.blob.core.windows.net/x", false},
		{api, "https://github.com/x", false},
		{api, "http://127.0.0.1:8080/x", false},
		{loopback, "http://localhost:9090/x", true},
		{loopback, "http://[::1]:9090/x", true},
		{loopback, "https://productionresultssa0.blob.core.windows.net/x", true},
		{loopback, "http://example.com/x", false},
		{loopback, "ftp://127.0.0.1/x", false},
	} {
		u, _ := url.Parse(tc.to)
		if got := logHosts(tc.base)(u); got != tc.allow {
			t.Errorf("API %s, download %s: allowed %v, want %v", tc.base, tc.to, got, tc.allow)
		}
	}
}

func TestTailText(t *testing.T) {
	var long strings.Builder
	for i := range 200 {
		fmt.Fprintf(&long, "2026-11-29T08:15:10.1234567Z line %03d\r\n", i)
	}
	for _, tc := range []struct {
		name string
		in   string
		cut  bool
		want string
	}{
		{"whole", "\ufeff2026-11-29T08:15:10Z \x1b[31mred\x1b[0m\n\tok\x07\n\n", false, "red\n\tok"},
		{"cut drops the partial first line", "tial line\nwhole line\n", true, logCut + "\nwhole line"},
		{"invalid UTF-8", "caf\xe9\n", false, "caf\uFFFD"},
		{"empty", "", false, ""},
	} {
		if got := tailText([]byte(tc.in), tc.cut); got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.name, got, tc.want)
		}
	}
	got := tailText([]byte(long.String()), false)
	if !strings.HasPrefix(got, logCut+"\nline ") || !strings.HasSuffix(got, "\nline 199") || len([]rune(got)) > logTailRunes {
		t.Errorf("long log: %d runes:\n%s", len([]rune(got)), got)
	}
	one := tailText([]byte(strings.Repeat("é", 3000)), false)
	if n := len([]rune(one)); n > logTailRunes || !strings.HasPrefix(one, logCut+"\n") || !strings.HasSuffix(one, "éé") {
		t.Errorf("one long line: %d runes", n)
	}
}

func TestReadTail(t *testing.T) {
	data := strings.Repeat("0123456789", 50000) // 500 kB
	tail, cut, err := readTail(strings.NewReader(data), 1000, 1<<20)
	if err != nil || !cut || string(tail) != data[len(data)-1000:] {
		t.Errorf("tail of 500 kB: cut %v err %v, %d bytes", cut, err, len(tail))
	}
	tail, cut, err = readTail(strings.NewReader("short"), 1000, 1<<20)
	if err != nil || cut || string(tail) != "short" {
		t.Errorf("short log: %q cut %v err %v", tail, cut, err)
	}
	if _, _, err = readTail(strings.NewReader(data), 1000, 100000); err == nil || !strings.Contains(err.Error(), "ignores range requests") {
		t.Errorf("over the limit: %v", err)
	}
}

func TestTriggerCi(t *testing.T) {
	f := newFake(t, exchange{method: "POST", path: repoPath + "/actions/workflows/ci.yml/dispatches",
		body:  `{"ref":"main","inputs":{"level":"2"},"return_run_details":true}`,
		reply: fixture(t, "dispatch_details.json")})
	got, err := f.provider(t).TriggerCi(ctx, noCall, &gatewayv1.TriggerCIRequest{
		Repo: hello, Workflow: ".github/workflows/ci.yml", Ref: "main", Inputs: []*gatewayv1.CIInput{{Name: "level", Value: "2"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	wantProto(t, got, &forgev1.CITriggered{
		Forge: githubCo, Repo: hello, Workflow: "ci.yml", Ref: "main", RunId: "30433643",
		Url: "https://github.com/octocat/Hello-World/actions/runs/30433643",
	})
}

// GitHub Enterprise Server is not asked for run details: it starts the run
// and says nothing (204), and the result points at the workflow's runs.
func TestTriggerCiOnEnterpriseByID(t *testing.T) {
	f := newFake(t, exchange{method: "POST", path: repoPath + "/actions/workflows/159038/dispatches", status: 204, body: `{"ref":"v1.0"}`})
	p := f.provider(t, func(o *Options) { o.Host = "ghe.example.com" })
	got, err := p.TriggerCi(ctx, noCall, &gatewayv1.TriggerCIRequest{Repo: hello, Workflow: "159038", Ref: "v1.0"})
	if err != nil {
		t.Fatal(err)
	}
	if got.GetRunId() != "" || got.GetUrl() != "https://ghe.example.com/octocat/Hello-World/actions/workflows/159038" {
		t.Errorf("triggered %v", got)
	}
}

func TestTriggerCiRefused(t *testing.T) {
	dispatch := func(status int, reply string) exchange {
		return exchange{method: "POST", path: repoPath + "/actions/workflows/nightly.yml/dispatches",
			body: `{"ref":"main","return_run_details":true}`, status: status, reply: reply}
	}
	f := newFake(t, dispatch(404, fixture(t, "error_404.json")), dispatch(422, fixture(t, "error_422_no_dispatch.json")))
	p := f.provider(t)
	trigger := &gatewayv1.TriggerCIRequest{Repo: hello, Workflow: "nightly.yml", Ref: "main"}
	_, err := p.TriggerCi(ctx, noCall, trigger)
	wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_NOT_FOUND, "trigger workflow nightly.yml on main in octocat/Hello-World: GitHub has no workflow nightly.yml in octocat/Hello-World (404)",
		"under .github/workflows", "nothing was started")
	_, err = p.TriggerCi(ctx, noCall, trigger)
	wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT, "GitHub refused to start it: Workflow does not have 'workflow_dispatch' trigger; only a workflow that declares on: workflow_dispatch can be triggered; nothing was started")
}

func TestBadTriggersNeverReachGitHub(t *testing.T) {
	f := newFake(t)
	p := f.provider(t)
	for _, w := range []string{"ci", "../ci.yml", "a/ci.yml", "ci.yml?x=1", "-1", "0"} {
		_, err := p.TriggerCi(ctx, noCall, &gatewayv1.TriggerCIRequest{Repo: hello, Workflow: w, Ref: "main"})
		wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT, "is neither a workflow id nor the file name")
	}
	_, err := p.TriggerCi(ctx, noCall, &gatewayv1.TriggerCIRequest{Repo: hello, Workflow: "ci.yml", Ref: "main",
		Inputs: []*gatewayv1.CIInput{{Name: "a", Value: "1"}, {Name: "a", Value: "2"}}})
	wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT, `input "a" is given twice`)
	for _, id := range []string{"abc", "0", "-4", "1.5"} {
		_, err = p.GetCiRun(ctx, noCall, &gatewayv1.GetCIRunRequest{Repo: hello, RunId: id})
		wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT, "is not a GitHub Actions run id")
	}
	if n := f.requests(); n != 0 {
		t.Errorf("%d requests reached GitHub", n)
	}
}

func TestRerunCi(t *testing.T) {
	queued := strings.Replace(strings.Replace(fixture(t, "workflow_run.json"), `"conclusion": "failure"`, `"conclusion": null`, 1), `"status": "completed"`, `"status": "queued"`, 1)
	f := newFake(t,
		exchange{method: "POST", path: repoPath + "/actions/runs/30433642/rerun-failed-jobs", status: 201, reply: "{}"},
		exchange{method: "GET", path: repoPath + "/actions/runs/30433642", reply: queued},
		exchange{method: "POST", path: repoPath + "/actions/runs/30433642/rerun", status: 403, reply: fixture(t, "error_403_already_running.json")},
	)
	p := f.provider(t)
	got, err := p.RerunCi(ctx, noCall, &gatewayv1.RerunCIRequest{Repo: hello, RunId: runID30433642, FailedOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	if got.GetStatus() != "queued" || got.GetConclusion() != "" || got.GetUrl() != "https://github.com/octocat/Hello-World/actions/runs/30433642" {
		t.Errorf("re-run: %v", got)
	}
	_, err = p.RerunCi(ctx, noCall, &gatewayv1.RerunCIRequest{Repo: hello, RunId: runID30433642})
	wantCode(t, err, gatewayv1.ErrorCode_ERROR_CODE_FAILED_PRECONDITION, "re-run CI run 30433642 in octocat/Hello-World: GitHub answered 403: This workflow is already running; wait for it to finish")
}
