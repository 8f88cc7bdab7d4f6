package rest

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
)

// server is a test server counting the requests that reach it; it
// answers "/to?u=URL" with a 302 to URL, "/loop" with a 302 to itself,
// and anything else with the method and path.
func server(t *testing.T) (*httptest.Server, *atomic.Int32) {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		if to := r.URL.Query().Get("u"); r.URL.Path == "/to" {
			http.Redirect(w, r, to, http.StatusFound)
			return
		}
		if r.URL.Path == "/loop" {
			http.Redirect(w, r, "/loop", http.StatusFound)
			return
		}
		io.WriteString(w, r.Method+" "+r.URL.Path)
	}))
	t.Cleanup(srv.Close)
	return srv, &hits
}

func mustURL(t *testing.T, raw string) *url.URL {
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

func wantEgress(t *testing.T, err error, target, pinned string, redirect bool) {
	t.Helper()
	var e *EgressError
	if !errors.As(err, &e) {
		t.Fatalf("err = %v, want an *EgressError", err)
	}
	if e.Target != target || e.Pinned != pinned || e.Redirect != redirect {
		t.Errorf("refusal %+v, want target %s, pinned %s, redirect %v", *e, target, pinned, redirect)
	}
}

// countingBody reports whether the transport closed a request body it
// refused (RoundTrip owns it).
type countingBody struct {
	io.Reader
	closed bool
}

func (b *countingBody) Close() error { b.closed = true; return nil }

// A client pinned to one origin sends nothing anywhere else, and follows
// a read's redirect only within the origin.
func TestPinnedClientStaysOnItsOrigin(t *testing.T) {
	api, apiHits := server(t)
	other, otherHits := server(t)
	base := mustURL(t, api.URL+"/api/v4/")
	c := PinnedClient(base, http.DefaultTransport)

	body := &countingBody{Reader: strings.NewReader("{}")}
	req, _ := http.NewRequest("POST", other.URL+"/x", body)
	_, err := c.Do(req)
	wantEgress(t, err, other.URL, api.URL, false)
	if !body.closed {
		t.Error("the refused request's body was not closed")
	}

	resp, err := c.Get(api.URL + "/to?u=" + url.QueryEscape(api.URL+"/moved"))
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(got) != "GET /moved" {
		t.Errorf("same-origin redirect: %q", got)
	}

	_, err = c.Get(api.URL + "/to?u=" + url.QueryEscape(other.URL+"/steal"))
	wantEgress(t, err, other.URL, api.URL, true)
	if n := otherHits.Load(); n != 0 {
		t.Errorf("%d requests reached the other host", n)
	}
	if n := apiHits.Load(); n != 3 {
		t.Errorf("%d requests reached the API, want 3", n)
	}
}

// A write answered with a redirect is not replayed: the caller gets the
// 3xx and can say nothing was written.
func TestPinnedClientReturnsAWritesRedirect(t *testing.T) {
	api, hits := server(t)
	c := PinnedClient(mustURL(t, api.URL+"/"), http.DefaultTransport)
	resp, err := c.Post(api.URL+"/to?u="+url.QueryEscape(api.URL+"/new"), "application/json", strings.NewReader("{}"))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusFound || hits.Load() != 1 {
		t.Errorf("status %d after %d requests, want the 302 after 1", resp.StatusCode, hits.Load())
	}
}

// A read stops after MaxRedirects, even within the origin.
func TestPinnedClientBoundsRedirects(t *testing.T) {
	api, hits := server(t)
	_, err := PinnedClient(mustURL(t, api.URL+"/"), http.DefaultTransport).Get(api.URL + "/loop")
	if err == nil || !strings.Contains(err.Error(), "stopped after") {
		t.Fatalf("err = %v, want the redirect bound", err)
	}
	if n := hits.Load(); n != MaxRedirects+1 {
		t.Errorf("%d requests, want %d", n, MaxRedirects+1)
	}
}

// PinnedClientFor goes where its allows func says (GitHub's log
// downloads: the API's origin and a storage host), and names its pin as
// given; RefuseRedirect is the same check for a URL taken from an answer.
func TestPinnedClientForAllowsWhatItIsTold(t *testing.T) {
	api, _ := server(t)
	storage, storageHits := server(t)
	other, otherHits := server(t)
	base, store := mustURL(t, api.URL+"/"), mustURL(t, storage.URL)
	allows := func(u *url.URL) bool { return SameOrigin(base)(u) || SameOrigin(store)(u) }
	const pinned = "the API and its storage"
	c := PinnedClientFor(pinned, allows, http.DefaultTransport)

	resp, err := c.Get(api.URL + "/to?u=" + url.QueryEscape(storage.URL+"/log"))
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(got) != "GET /log" || storageHits.Load() != 1 {
		t.Errorf("redirect to the allowed host: %q, %d requests there", got, storageHits.Load())
	}

	_, err = c.Get(api.URL + "/to?u=" + url.QueryEscape(other.URL+"/log"))
	wantEgress(t, err, other.URL, pinned, true)
	_, err = c.Get(other.URL + "/log")
	wantEgress(t, err, other.URL, pinned, false)
	if n := otherHits.Load(); n != 0 {
		t.Errorf("%d requests reached the other host", n)
	}

	if err := RefuseRedirect(pinned, allows, mustURL(t, storage.URL+"/x")); err != nil {
		t.Errorf("RefuseRedirect refused an allowed host: %v", err)
	}
	wantEgress(t, RefuseRedirect(pinned, allows, mustURL(t, other.URL+"/x")), other.URL, pinned, true)
}

// Origins compare scheme exactly and host case-insensitively.
func TestSameOrigin(t *testing.T) {
	same := SameOrigin(mustURL(t, "https://GitLab.example.com:8443/api/v4/"))
	for raw, want := range map[string]bool{
		"https://gitlab.example.com:8443/x":         true,
		"http://gitlab.example.com:8443/x":          false,
		"https://gitlab.example.com/x":              false,
		"https://gitlab.example.com.evil.com:8443/": false,
	} {
		if got := same(mustURL(t, raw)); got != want {
			t.Errorf("SameOrigin(%s) = %v, want %v", raw, got, want)
		}
	}
	if o := Origin(mustURL(t, "https://h.example.com:1/p?q")); o != "https://h.example.com:1" {
		t.Errorf("Origin = %s", o)
	}
}
