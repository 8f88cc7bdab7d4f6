package github

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"reflect"
	"testing"
	"time"

	"github.com/forgetools/forgetools/providers/github/githubtest"
	"github.com/forgetools/forgetools/providers/kit"
)

// A scripted GitHub: githubtest's fake answering an exact sequence of
// requests with the status, headers and body the script gives (GitHub's
// documented examples, githubtest's fixtures), then checking each request
// the way GitHub would see it: method, path, query, authentication, API
// version, media type, user agent, JSON body.

const (
	authorToken   = "ghp_aK3vT8mQ1zX6pW9rN4yL7cB2hF5dJ0sG4eUx"
	reviewerToken = "ghp_rV5nH2kP9wT4qZ7mX1cL8yB3fG6dJ0sA5eUz"
	testUserAgent = "forgetools-test/1.0"

	acceptV3        = "application/vnd.github.v3+json"
	acceptReactions = "application/vnd.github.squirrel-girl-preview"
	// go-github asks for multi-line review comment fields on these.
	acceptReviewComments = acceptReactions + ", application/vnd.github.comfort-fade-preview+json"
	acceptMultiLine      = "application/vnd.github.comfort-fade-preview+json"
	acceptChecks         = "application/vnd.github.antiope-preview+json"
	acceptRepo           = "application/vnd.github.scarlet-witch-preview+json, application/vnd.github.mercy-preview+json, application/vnd.github.baptiste-preview+json, application/vnd.github.nebula-preview+json"
)

// exchange is one request the fake expects and the answer it gives.
type exchange struct {
	method, path string
	query        url.Values  // exact query; nil = none
	token        string      // expected bearer token; "" = authorToken
	accept       string      // expected Accept; "" = acceptV3
	host         string      // expected Host header; "" = not checked
	agent        string      // expected User-Agent; "" = testUserAgent
	body         string      // exact JSON body expected; "" = no body
	status       int         // 0 = 200
	header       http.Header // response headers on top of GitHub's usual ones
	reply        string      // response body
	hold         bool        // never answer; wait for the client to give up
	// offDescription says why reply departs from GitHub's description on
	// purpose; the fake then leaves the reply unchecked.
	offDescription string
	// download marks a job-log download from the log store: no
	// credential, no API headers, a suffix Range for the log's tail.
	download bool
}

// fakeGitHub is githubtest's fake GitHub answering a script: each
// exchange's answer is injected for the next request, whatever it is, and
// when the test ends the requests received are checked against the script,
// in order.
type fakeGitHub struct {
	t      *testing.T
	srv    *githubtest.Server
	clock  time.Time
	script []exchange
}

// newFake starts a scripted GitHub on plain HTTP loopback.
func newFake(t *testing.T, script ...exchange) *fakeGitHub {
	return startFake(t, githubtest.Options{}, script)
}

// newTLSFake starts a scripted GitHub on HTTPS; its certificate is valid
// for example.com and *.example.com.
func newTLSFake(t *testing.T, script ...exchange) *fakeGitHub {
	return startFake(t, githubtest.Options{TLS: true}, script)
}

func startFake(t *testing.T, o githubtest.Options, script []exchange) *fakeGitHub {
	srv := githubtest.NewChecked(t, o)
	f := &fakeGitHub{t: t, srv: srv, clock: srv.Clock()}
	f.expect(script...)
	t.Cleanup(srv.Close)
	t.Cleanup(f.verify)
	return f
}

// expect appends exchanges to the script.
func (f *fakeGitHub) expect(script ...exchange) {
	for _, ex := range script {
		f.script = append(f.script, ex)
		f.srv.Inject("*", githubtest.Response{Status: ex.status, Header: ex.header, Body: ex.reply, Hold: ex.hold, OffDescription: ex.offDescription})
	}
}

// verify checks every request received against the script.
func (f *fakeGitHub) verify() {
	got := f.srv.Requests()
	for i, ex := range f.script {
		if i >= len(got) {
			f.t.Errorf("GitHub never received %s %s", ex.method, ex.path)
			continue
		}
		f.check(got[i], ex)
	}
	for _, r := range got[min(len(f.script), len(got)):] {
		f.t.Errorf("unexpected request %s %s (script done)", r.Method, r.Path)
	}
}

// requests is how many requests reached the fake.
func (f *fakeGitHub) requests() int { return len(f.srv.Requests()) }

// provider is a Provider pointed at the fake, with the fake's clock.
func (f *fakeGitHub) provider(t *testing.T, edit ...func(*Options)) *Provider {
	t.Helper()
	o := Options{Options: kit.Options{APIURL: f.srv.APIURL(), Token: authorToken, UserAgent: testUserAgent}}
	for _, e := range edit {
		e(&o)
	}
	p, err := New(o)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	p.now = func() time.Time { return f.clock }
	return p
}

func (f *fakeGitHub) check(r githubtest.Request, ex exchange) {
	t := f.t
	what := r.Method + " " + r.Path
	if r.Path == "/graphql" || ex.path == "/graphql" {
		f.checkGraphQL(r, ex)
		return
	}
	if r.Method != ex.method || r.Path != ex.path {
		t.Errorf("request = %s %s, want %s %s", r.Method, r.Path, ex.method, ex.path)
	}
	if got := r.Query; !(len(got) == 0 && len(ex.query) == 0) && !reflect.DeepEqual(got, ex.query) {
		t.Errorf("%s: query = %v, want %v", what, got, ex.query)
	}
	token := ex.token
	if token == "" {
		token = authorToken
	}
	accept := ex.accept
	if accept == "" {
		accept = acceptV3
	}
	agent := ex.agent
	if agent == "" {
		agent = testUserAgent
	}
	want := map[string]string{
		"Authorization":        "Bearer " + token,
		"X-GitHub-Api-Version": githubtest.APIVersion,
		"Accept":               accept,
		"User-Agent":           agent,
	}
	if ex.download {
		want = map[string]string{"Authorization": "", "X-GitHub-Api-Version": "", "Accept": "", "User-Agent": agent,
			"Range": fmt.Sprintf("bytes=-%d", logFetchBytes)}
	}
	for k, want := range want {
		if got := r.Header.Get(k); got != want {
			t.Errorf("%s: header %s = %q, want %q", what, k, got, want)
		}
	}
	if ex.host != "" && r.Host != ex.host {
		t.Errorf("%s: Host = %q, want %q", what, r.Host, ex.host)
	}
	if ex.body == "" {
		if len(r.Body) != 0 {
			t.Errorf("%s: unexpected body %s", what, r.Body)
		}
		return
	}
	if ct := r.Header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("%s: Content-Type = %q, want application/json", what, ct)
	}
	if !sameJSON(t, r.Body, []byte(ex.body)) {
		t.Errorf("%s: body\n got %s\nwant %s", what, bytes.TrimSpace(r.Body), ex.body)
	}
}

func sameJSON(t *testing.T, a, b []byte) bool {
	var x, y any
	if err := json.Unmarshal(a, &x); err != nil {
		t.Errorf("body is not JSON: %v: %s", err, a)
		return false
	}
	if err := json.Unmarshal(b, &y); err != nil {
		t.Fatalf("script body is not JSON: %v: %s", err, b)
	}
	return reflect.DeepEqual(x, y)
}

// fixture is the documented example answer githubtest holds as name.
func fixture(t *testing.T, name string) string {
	t.Helper()
	return githubtest.Fixture(name)
}

// fixtureWith is a fixture with one JSON member's value replaced, for
// answers that differ from a documented example in one field.
func fixtureWith(t *testing.T, name, key string, value any) string {
	t.Helper()
	return githubtest.FixtureWith(name, key, value)
}

func q(kv ...string) url.Values {
	v := url.Values{}
	for i := 0; i < len(kv); i += 2 {
		v.Add(kv[i], kv[i+1])
	}
	return v
}

func hdr(kv ...string) http.Header {
	h := http.Header{}
	for i := 0; i < len(kv); i += 2 {
		h.Set(kv[i], kv[i+1])
	}
	return h
}

// logDownload is the exchange that fetches a job's log from the fake's log
// store, at the URL the logs endpoint redirected to.
func (f *fakeGitHub) logDownload(t *testing.T, jobID int64, status int, header http.Header, reply string) exchange {
	t.Helper()
	u, err := url.Parse(f.srv.LogURL(jobID))
	if err != nil {
		t.Fatal(err)
	}
	return exchange{method: "GET", path: u.Path, query: u.Query(), download: true, status: status, header: header, reply: reply}
}

// linkNext is GitHub's Link header for a page that has a next one.
func (f *fakeGitHub) linkNext(path string, query url.Values, next, last int) http.Header {
	return f.srv.LinkNext(path, query, next, last)
}
