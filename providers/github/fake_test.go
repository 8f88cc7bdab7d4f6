package github

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"sync"
	"testing"
	"time"
)

// A scripted GitHub: an httptest server that expects an exact sequence of
// requests, checks each one the way GitHub would see it (method, path,
// query, authentication, API version, media type, user agent, JSON body)
// and answers with the status, headers and body the script gives, which
// come from GitHub-shaped fixtures under testdata/.

const (
	authorToken   = "ghp_authorTokenForTests0000000000000000"
	reviewerToken = "ghp_reviewerTokenForTests000000000000000"
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
}

type fakeGitHub struct {
	t      *testing.T
	srv    *httptest.Server
	clock  time.Time
	mu     sync.Mutex
	script []exchange
	next   int
	stop   chan struct{}
}

// newFake starts a scripted GitHub on plain HTTP loopback.
func newFake(t *testing.T, script ...exchange) *fakeGitHub {
	f := &fakeGitHub{t: t, script: script, stop: make(chan struct{}), clock: time.Unix(time.Now().Unix(), 0)}
	f.srv = httptest.NewServer(f)
	f.cleanup()
	return f
}

// newTLSFake starts a scripted GitHub on HTTPS; its certificate is valid
// for example.com and *.example.com.
func newTLSFake(t *testing.T, script ...exchange) *fakeGitHub {
	f := &fakeGitHub{t: t, script: script, stop: make(chan struct{}), clock: time.Unix(time.Now().Unix(), 0)}
	f.srv = httptest.NewTLSServer(f)
	f.cleanup()
	return f
}

func (f *fakeGitHub) cleanup() {
	f.t.Cleanup(func() {
		close(f.stop)
		f.srv.Close()
		f.mu.Lock()
		defer f.mu.Unlock()
		for _, ex := range f.script[f.next:] {
			f.t.Errorf("GitHub never received %s %s", ex.method, ex.path)
		}
	})
}

// requests is how many requests reached the fake.
func (f *fakeGitHub) requests() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.next
}

// provider is a Provider pointed at the fake, with the fake's clock.
func (f *fakeGitHub) provider(t *testing.T, edit ...func(*Options)) *Provider {
	t.Helper()
	o := Options{APIURL: f.srv.URL + "/", Token: authorToken, UserAgent: testUserAgent}
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

func (f *fakeGitHub) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	if f.next == len(f.script) {
		f.mu.Unlock()
		f.t.Errorf("unexpected request %s %s (script done)", r.Method, r.URL)
		http.Error(w, `{"message":"unexpected"}`, http.StatusTeapot)
		return
	}
	ex := f.script[f.next]
	f.next++
	f.mu.Unlock()

	f.check(r, ex)
	if ex.hold {
		select {
		case <-r.Context().Done():
		case <-f.stop:
		}
		return
	}
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("X-GitHub-Media-Type", "github.v3; format=json")
	h.Set("X-GitHub-Api-Version-Selected", "2022-11-28")
	h.Set("X-GitHub-Request-Id", fmt.Sprintf("0401:3C9A:1F2E5C:3E7B1A:%08X", f.requests()))
	h.Set("X-RateLimit-Limit", "5000")
	h.Set("X-RateLimit-Remaining", "4987")
	h.Set("X-RateLimit-Used", "13")
	h.Set("X-RateLimit-Reset", strconv.FormatInt(f.clock.Add(40*time.Minute).Unix(), 10))
	h.Set("X-RateLimit-Resource", "core")
	for k, vs := range ex.header {
		h[k] = vs
	}
	status := ex.status
	if status == 0 {
		status = http.StatusOK
	}
	w.WriteHeader(status)
	io.WriteString(w, ex.reply)
}

func (f *fakeGitHub) check(r *http.Request, ex exchange) {
	t := f.t
	what := r.Method + " " + r.URL.String()
	if r.Method != ex.method || r.URL.Path != ex.path {
		t.Errorf("request = %s %s, want %s %s", r.Method, r.URL.Path, ex.method, ex.path)
	}
	if got := r.URL.Query(); !(len(got) == 0 && len(ex.query) == 0) && !reflect.DeepEqual(got, ex.query) {
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
	for k, want := range map[string]string{
		"Authorization":        "Bearer " + token,
		"X-GitHub-Api-Version": "2022-11-28",
		"Accept":               accept,
		"User-Agent":           agent,
	} {
		if got := r.Header.Get(k); got != want {
			t.Errorf("%s: header %s = %q, want %q", what, k, got, want)
		}
	}
	if ex.host != "" && r.Host != ex.host {
		t.Errorf("%s: Host = %q, want %q", what, r.Host, ex.host)
	}
	body, _ := io.ReadAll(r.Body)
	if ex.body == "" {
		if len(body) != 0 {
			t.Errorf("%s: unexpected body %s", what, body)
		}
		return
	}
	if ct := r.Header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("%s: Content-Type = %q, want application/json", what, ct)
	}
	if !sameJSON(t, body, []byte(ex.body)) {
		t.Errorf("%s: body\n got %s\nwant %s", what, bytes.TrimSpace(body), ex.body)
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

// fixture is the contents of testdata/name.
func fixture(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// fixtureWith is a fixture with one JSON member's value replaced, for
// answers that differ from a documented example in one field.
func fixtureWith(t *testing.T, name, key string, value any) string {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(fixture(t, name)), &m); err != nil {
		t.Fatal(err)
	}
	if _, ok := m[key]; !ok {
		t.Fatalf("%s has no member %q", name, key)
	}
	m[key] = value
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
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

// linkNext is GitHub's Link header for a page that has a next one.
func (f *fakeGitHub) linkNext(path string, query url.Values, next, last int) http.Header {
	link := func(page int, rel string) string {
		v := url.Values{}
		for k, vs := range query {
			v[k] = vs
		}
		v.Set("page", strconv.Itoa(page))
		return fmt.Sprintf(`<%s%s?%s>; rel="%s"`, f.srv.URL, path, v.Encode(), rel)
	}
	return http.Header{"Link": {link(next, "next") + ", " + link(last, "last")}}
}
