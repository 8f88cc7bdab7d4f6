package rest

import (
	"crypto/sha256"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
)

// origin is a forge answering conditional reads as GitHub does: a weak
// ETag on every 200, a 304 with no body when If-None-Match names it. It
// answers each credential with its own body and counts what it sent.
type origin struct {
	mu      sync.Mutex
	version int
	body    func(r *http.Request) string
	header  http.Header // extra headers on a 200
	counts  map[int]int
	seen    []http.Header
}

func (o *origin) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.seen = append(o.seen, r.Header.Clone())
	body := fmt.Sprintf("%s v%d %s", r.Header.Get("Authorization"), o.version, r.Header.Get("Accept"))
	if o.body != nil {
		body = o.body(r)
	}
	sum := sha256.Sum256([]byte(body))
	tag := fmt.Sprintf(`W/"%x"`, sum[:8])
	w.Header().Set("X-RateLimit-Remaining", fmt.Sprint(4999-len(o.seen)))
	if r.Header.Get("If-None-Match") == tag {
		w.Header().Set("ETag", tag)
		w.WriteHeader(http.StatusNotModified)
		o.counts[304]++
		return
	}
	for k, v := range o.header {
		w.Header()[k] = v
	}
	w.Header().Set("ETag", tag)
	w.Header().Set("Content-Type", "application/json")
	io.WriteString(w, body)
	o.counts[200]++
}

func newOrigin(t *testing.T) (*origin, *http.Client) {
	o := &origin{counts: map[int]int{}}
	srv := httptest.NewServer(o)
	t.Cleanup(srv.Close)
	u, _ := url.Parse(srv.URL + "/api/")
	return o, PinnedClient(u, http.DefaultTransport)
}

func get(t *testing.T, c *http.Client, url string, h ...string) (int, string, http.Header) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	for i := 0; i+1 < len(h); i += 2 {
		req.Header.Set(h[i], h[i+1])
	}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(b), resp.Header
}

func cacheOf(c *http.Client) *conditionalTransport {
	return c.Transport.(*pinnedTransport).next.(*conditionalTransport)
}

// Ten identical reads cost one full answer and nine 304s, each answered
// to the caller as the 200 with the stored body and the fresh rate
// headers; a change is read in full at once.
func TestConditionalRepeatedReads(t *testing.T) {
	o, c := newOrigin(t)
	u := o.url(c)
	for i := range 10 {
		status, body, h := get(t, c, u, "Authorization", "token alice", "Accept", "application/json")
		if status != 200 || body != "token alice v0 application/json" || h.Get("Content-Type") != "application/json" {
			t.Fatalf("read %d: %d %q %v", i, status, body, h)
		}
		if want := fmt.Sprint(4999 - (i + 1)); h.Get("X-RateLimit-Remaining") != want {
			t.Fatalf("read %d: rate header %q, want the 304's %s", i, h.Get("X-RateLimit-Remaining"), want)
		}
	}
	if o.counts[200] != 1 || o.counts[304] != 9 {
		t.Fatalf("ten reads cost %v, want one 200 and nine 304s", o.counts)
	}
	o.mu.Lock()
	o.version++
	o.mu.Unlock()
	if _, body, _ := get(t, c, u, "Authorization", "token alice", "Accept", "application/json"); body != "token alice v1 application/json" {
		t.Fatalf("after a change: %q", body)
	}
	if o.counts[200] != 2 {
		t.Fatalf("the change was not read in full: %v", o.counts)
	}
}

func (o *origin) url(c *http.Client) string {
	return "http://" + c.Transport.(*pinnedTransport).pinned[len("http://"):] + "/api/thing"
}

// One credential's stored answer is never sent or served to another,
// nor an answer for one Accept to another; GitLab's PRIVATE-TOKEN counts
// as a credential as Authorization does. No credential (nor URL, which
// may be a signed one) is kept as sent.
func TestConditionalKeyedByCredentialAndAccept(t *testing.T) {
	o, c := newOrigin(t)
	u := o.url(c)
	get(t, c, u, "Authorization", "token alice")
	if _, body, _ := get(t, c, u, "Authorization", "token bob"); body != "token bob v0 " {
		t.Fatalf("bob read %q", body)
	}
	if _, body, _ := get(t, c, u, "Authorization", "token alice", "Accept", "text/plain"); body != "token alice v0 text/plain" {
		t.Fatalf("another Accept read %q", body)
	}
	o.body = func(r *http.Request) string { return "for " + r.Header.Get("Private-Token") }
	get(t, c, u, "Private-Token", "glpat-one")
	if _, body, _ := get(t, c, u, "Private-Token", "glpat-two"); body != "for glpat-two" {
		t.Fatalf("a second GitLab token read %q", body)
	}
	if o.counts[304] != 0 {
		t.Fatalf("a read with another key was answered 304: %v", o.counts)
	}
	for _, h := range o.seen {
		if h.Get("If-None-Match") != "" {
			t.Fatalf("a first read under its own key sent a validator: %v", h)
		}
	}
	cache := cacheOf(c)
	cache.mu.Lock()
	defer cache.mu.Unlock()
	for k := range cache.byKey {
		for _, secret := range []string{"alice", "bob", "glpat-one", "glpat-two", "/api/thing"} {
			if strings.Contains(k, secret) {
				t.Fatalf("a cache key holds %q as sent", secret)
			}
		}
	}
}

// A hostile forge's answers are not kept: a body over the cap (still
// passed on whole), one setting a cookie, one marked no-store.
func TestConditionalRefusesToStore(t *testing.T) {
	for name, tc := range map[string]struct {
		header http.Header
		body   string
	}{
		"huge body":  {body: strings.Repeat("x", MaxCachedBody+1)},
		"Set-Cookie": {header: http.Header{"Set-Cookie": {"session=1"}}, body: "small"},
		"no-store":   {header: http.Header{"Cache-Control": {"private, no-store"}}, body: "small"},
	} {
		t.Run(name, func(t *testing.T) {
			o, c := newOrigin(t)
			o.header = tc.header
			o.body = func(*http.Request) string { return tc.body }
			for range 2 {
				if _, body, _ := get(t, c, o.url(c), "Authorization", "token alice"); body != tc.body {
					t.Fatalf("the answer was not passed on whole (%d bytes)", len(body))
				}
			}
			if n, _ := cacheOf(c).cached(); n != 0 || o.counts[304] != 0 || o.counts[200] != 2 {
				t.Fatalf("kept %d entries; answers %v", n, o.counts)
			}
		})
	}
}

// A request already conditional (the GitHub poll driver's) passes
// through untouched and its 304 reaches the caller; so do writes.
func TestConditionalPassesOwnValidators(t *testing.T) {
	o, c := newOrigin(t)
	u := o.url(c)
	_, _, h := get(t, c, u, "Authorization", "token alice")
	status, body, _ := get(t, c, u, "Authorization", "token alice", "If-None-Match", h.Get("ETag"))
	if status != http.StatusNotModified || body != "" {
		t.Fatalf("the caller's own conditional read got %d %q", status, body)
	}
	resp, err := c.Post(u, "application/json", strings.NewReader("{}"))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if last := o.seen[len(o.seen)-1]; last.Get("If-None-Match") != "" {
		t.Fatalf("a write carried a validator: %v", last)
	}
}

// The cache holds at most its entries and bytes, oldest out first.
func TestConditionalBounded(t *testing.T) {
	o := &origin{counts: map[int]int{}}
	srv := httptest.NewServer(o)
	defer srv.Close()
	for _, bound := range [][2]int{{3, 1 << 20}, {1000, 500}} {
		ct := newConditional(http.DefaultTransport, 100, bound[0], bound[1])
		c := &http.Client{Transport: ct}
		for i := range 10 {
			get(t, c, fmt.Sprintf("%s/r%d", srv.URL, i), "Authorization", "token alice")
		}
		if n, b := ct.cached(); n == 0 || n > bound[0] || b > bound[1] {
			t.Fatalf("holds %d entries, %d bytes; bound %v", n, b, bound)
		}
	}
	ct := newConditional(http.DefaultTransport, 100, 3, 1<<20)
	c := &http.Client{Transport: ct}
	for i := range 10 {
		get(t, c, fmt.Sprintf("%s/r%d", srv.URL, i), "Authorization", "token alice")
	}
	o.counts = map[int]int{}
	get(t, c, srv.URL+"/r9", "Authorization", "token alice")
	get(t, c, srv.URL+"/r0", "Authorization", "token alice")
	if o.counts[304] != 1 {
		t.Fatalf("the newest entry was not kept or the oldest was: %v", o.counts)
	}
}
