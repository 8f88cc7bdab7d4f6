package linear

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"
)

// The fake Linear below speaks Linear's wire format: one POST endpoint,
// JSON {query, variables} in, GraphQL envelopes and Linear's rate-limit
// headers out. Each test scripts the exact sequence of calls it expects;
// every request is checked against a golden body under testdata/requests
// (rewritten only with UPDATE_LINEAR_GOLDEN=1), and every answer is a
// fixture under testdata/responses shaped like Linear's real answers.

const (
	testKey   = "lin_api_Xq7TESTKEYnotrealAbC123"
	testAgent = "forgetools-test/1"
)

// clock is the fixed "now" of every test; fixture reset headers are
// relative to it.
var clock = time.UnixMilli(1767225600000) // 2026-01-01T00:00:00Z

type exchange struct {
	request  string            // golden request body: testdata/requests/<request>.json
	status   int               // HTTP status; 0 = 200
	header   map[string]string // response headers beyond the defaults
	response string            // answer: a file under testdata/responses
	body     string            // inline answer instead of a fixture
	hold     bool              // never answer: wait until the client gives up
}

type fakeLinear struct {
	t      *testing.T
	srv    *httptest.Server
	auth   string // the Authorization value every request must carry
	mu     sync.Mutex
	script []exchange
	served int
}

// newFake starts a fake Linear that expects exactly script, in order.
func newFake(t *testing.T, script ...exchange) *fakeLinear {
	t.Helper()
	f := &fakeLinear{t: t, auth: testKey, script: script}
	f.srv = httptest.NewServer(f)
	t.Cleanup(func() {
		f.srv.Close()
		f.mu.Lock()
		defer f.mu.Unlock()
		if f.served != len(f.script) {
			t.Errorf("fake Linear served %d of %d scripted requests", f.served, len(f.script))
		}
	})
	return f
}

// provider returns a provider pointed at the fake, with the test clock.
func (f *fakeLinear) provider(t *testing.T, edit ...func(*Options)) *Provider {
	t.Helper()
	opts := Options{APIURL: f.srv.URL + "/graphql", APIKey: testKey, UserAgent: testAgent}
	for _, e := range edit {
		e(&opts)
	}
	p, err := New(opts)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	p.now = func() time.Time { return clock }
	return p
}

func (f *fakeLinear) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	t := f.t
	f.mu.Lock()
	if f.served >= len(f.script) {
		f.mu.Unlock()
		t.Errorf("unexpected request %d beyond the script", f.served+1)
		http.Error(w, "unexpected request", http.StatusInternalServerError)
		return
	}
	x := f.script[f.served]
	f.served++
	f.mu.Unlock()

	if r.Method != http.MethodPost || r.URL.Path != "/graphql" || r.URL.RawQuery != "" {
		t.Errorf("%s: got %s %s, want POST /graphql", x.request, r.Method, r.URL.RequestURI())
	}
	for name, want := range map[string]string{
		"Authorization": f.auth,
		"Content-Type":  "application/json",
		"Accept":        "application/json",
		"User-Agent":    testAgent,
	} {
		if got := r.Header.Get(name); got != want {
			t.Errorf("%s: header %s = %q, want %q", x.request, name, got, want)
		}
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		t.Errorf("%s: read body: %v", x.request, err)
	}
	checkGolden(t, x.request, body)

	if x.hold {
		<-r.Context().Done()
		return
	}
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("X-RateLimit-Requests-Limit", "5000")
	h.Set("X-RateLimit-Requests-Remaining", "4987")
	h.Set("X-RateLimit-Requests-Reset", "1767226200000")
	h.Set("X-Complexity", "41")
	h.Set("X-RateLimit-Complexity-Limit", "3000000")
	h.Set("X-RateLimit-Complexity-Remaining", "2999000")
	h.Set("X-RateLimit-Complexity-Reset", "1767226200000")
	for k, v := range x.header {
		h.Set(k, v)
	}
	status := x.status
	if status == 0 {
		status = http.StatusOK
	}
	answer := []byte(x.body)
	if x.response != "" {
		answer = readFile(t, filepath.Join("testdata", "responses", x.response))
	}
	w.WriteHeader(status)
	_, _ = w.Write(answer)
}

// checkGolden compares a request body with its golden file as JSON values:
// the query text byte for byte, the variables structurally.
func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", "requests", name+".json")
	var gotV any
	if err := json.Unmarshal(got, &gotV); err != nil {
		t.Errorf("%s: request body is not JSON: %v\n%s", name, err, got)
		return
	}
	if os.Getenv("UPDATE_LINEAR_GOLDEN") == "1" {
		if err := os.WriteFile(path, pretty(t, gotV), 0o644); err != nil {
			t.Errorf("update %s: %v", path, err)
		}
		return
	}
	var wantV any
	if err := json.Unmarshal(readFile(t, path), &wantV); err != nil {
		t.Errorf("%s: golden is not JSON: %v", path, err)
		return
	}
	if !reflect.DeepEqual(gotV, wantV) {
		t.Errorf("%s: request body differs from golden\n got: %s\nwant: %s", name, pretty(t, gotV), pretty(t, wantV))
	}
}

func pretty(t *testing.T, v any) []byte {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		t.Fatalf("encode: %v", err)
	}
	return b.Bytes()
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read %s: %v", path, err)
	}
	return b
}

// contains fails the test unless s contains every part.
func contains(t *testing.T, what, s string, parts ...string) {
	t.Helper()
	for _, p := range parts {
		if !strings.Contains(s, p) {
			t.Errorf("%s %q does not contain %q", what, s, p)
		}
	}
}
