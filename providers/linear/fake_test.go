package linear

import (
	"bytes"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/forgetools/forgetools/providers/kit"
	"github.com/forgetools/forgetools/providers/linear/lineartest"
)

// The fake Linear of these tests is lineartest's, answering a script: each
// test lists the exact sequence of calls it expects, each exchange's answer
// is injected for the next request, and when the test ends every request is
// checked: POST /graphql with Linear's headers, and a body equal to its
// golden file under testdata/requests (rewritten only with
// UPDATE_LINEAR_GOLDEN=1). The answers are lineartest's fixtures, shaped
// like Linear's real answers.

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
	response string            // answer: a lineartest fixture
	body     string            // inline answer instead of a fixture
	hold     bool              // never answer: wait until the client gives up
}

type fakeLinear struct {
	t      *testing.T
	srv    *lineartest.Server
	auth   string // the Authorization value every request must carry
	script []exchange
}

// newFake starts a fake Linear that expects exactly script, in order.
func newFake(t *testing.T, script ...exchange) *fakeLinear {
	t.Helper()
	f := &fakeLinear{t: t, auth: testKey, script: script, srv: lineartest.New(lineartest.Options{Clock: clock})}
	for _, x := range script {
		h := http.Header{}
		for k, v := range x.header {
			h.Set(k, v)
		}
		answer := x.body
		if x.response != "" {
			answer = lineartest.Fixture(x.response)
		}
		f.srv.Inject("*", lineartest.Response{Status: x.status, Header: h, Body: answer, Hold: x.hold})
	}
	t.Cleanup(f.srv.Close)
	t.Cleanup(f.verify)
	return f
}

// provider returns a provider pointed at the fake, with the test clock.
func (f *fakeLinear) provider(t *testing.T, edit ...func(*Options)) *Provider {
	t.Helper()
	opts := Options{Options: kit.Options{APIURL: f.srv.APIURL(), Token: testKey, UserAgent: testAgent}}
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

// verify checks every request received against the script.
func (f *fakeLinear) verify() {
	t := f.t
	got := f.srv.Requests()
	if len(got) != len(f.script) {
		t.Errorf("fake Linear served %d of %d scripted requests", len(got), len(f.script))
	}
	for i, r := range got {
		if i >= len(f.script) {
			t.Errorf("unexpected request %d beyond the script", i+1)
			continue
		}
		x := f.script[i]
		if r.Method != http.MethodPost || r.Path != lineartest.Path || len(r.Query) != 0 {
			t.Errorf("%s: got %s %s?%s, want POST /graphql", x.request, r.Method, r.Path, r.Query.Encode())
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
		checkGolden(t, x.request, r.Body)
	}
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
