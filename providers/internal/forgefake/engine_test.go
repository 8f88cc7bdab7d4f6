package forgefake

import (
	"io"
	"net/http"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

func engine(t *testing.T) *Engine {
	e := New(Options{
		Root: "/api", Validator: WeakDigest,
		Header:   func(h http.Header) { h.Set("X-Fake", "1") },
		NotFound: func() Answer { return Answer{Status: http.StatusNotFound, Body: map[string]string{"message": "none"}} },
	})
	t.Cleanup(e.Close)
	e.Handle("GET /repos/{id}/items/{n}", func(c *Call) Answer {
		return OK(map[string]any{"id": c.Value("id"), "n": c.Int("n"), "path": c.Path})
	})
	return e
}

func send(t *testing.T, e *Engine, method, path, inm string) (int, http.Header, string) {
	t.Helper()
	req, _ := http.NewRequest(method, e.URL+path, nil)
	if inm != "" {
		req.Header.Set("If-None-Match", inm)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, string(b)
}

// A route's wildcard is one escaped segment, unescaped for the handler;
// the recorded path stays as sent; every answer carries the fake's
// headers; a GET answer is conditional.
func TestRoutes(t *testing.T) {
	e := engine(t)
	status, h, body := send(t, e, "GET", "/api/repos/g%2Fsub%2Fp/items/7", "")
	if status != 200 || h.Get("X-Fake") != "1" || body != `{"id":"g/sub/p","n":7,"path":"/repos/g%2Fsub%2Fp/items/7"}`+"\n" {
		t.Fatalf("GET: %d %v %s", status, h, body)
	}
	if status, _, body := send(t, e, "GET", "/api/repos/g%2Fsub%2Fp/items/7", h.Get("ETag")); status != 304 || body != "" {
		t.Errorf("If-None-Match: %d %q", status, body)
	}
	if got := e.Requests(); len(got) != 2 || got[0].Path != "/repos/g%2Fsub%2Fp/items/7" || got[0].Method != "GET" {
		t.Errorf("recorded %+v", got)
	}
}

// What no route serves is the forge's 404: another method on a routed
// path (never ServeMux's 405), an unrouted path, a path outside the API
// root; an injected answer comes before any route.
func TestNotFoundAndInjection(t *testing.T) {
	e := engine(t)
	for _, c := range [][2]string{{"DELETE", "/api/repos/x/items/1"}, {"GET", "/api/nothing"}, {"GET", "/repos/x/items/1"}} {
		if status, h, body := send(t, e, c[0], c[1], ""); status != 404 || !strings.Contains(body, `"none"`) || h.Get("X-Fake") != "1" {
			t.Errorf("%s %s: %d %s", c[0], c[1], status, body)
		}
	}
	e.Inject("GET /repos/x/items/1", Response{Status: 502, Body: "down"})
	if status, _, body := send(t, e, "GET", "/api/repos/x/items/1", ""); status != 502 || body != "down" {
		t.Errorf("injected: %d %s", status, body)
	}
	if status, _, _ := send(t, e, "GET", "/api/repos/x/items/1", ""); status != 200 || len(e.Pending()) != 0 {
		t.Errorf("after the injection: %d, pending %v", status, e.Pending())
	}
	if got := e.Statuses(); got[404] != 3 || got[502] != 1 || got[200] != 1 {
		t.Errorf("statuses %v", got)
	}
}

// Paging: pages from 1, an empty page is [], more says items remain.
func TestPage(t *testing.T) {
	items := []int{1, 2, 3, 4, 5}
	id := func(i int) any { return i }
	if out, more := Page(items, 0, 2, id); len(out) != 2 || out[0] != 1 || !more {
		t.Errorf("page 0: %v %v", out, more)
	}
	if out, more := Page(items, 3, 2, id); len(out) != 1 || out[0] != 5 || more {
		t.Errorf("page 3: %v %v", out, more)
	}
	if out, more := Page(items, 9, 2, id); out == nil || len(out) != 0 || more {
		t.Errorf("past the end: %v %v", out, more)
	}
}

// A delayed answer comes from the state when the request arrives (the
// write lands), and leaves only when released.
func TestDelay(t *testing.T) {
	e := engine(t)
	writes := 0
	e.Handle("POST /repos/{id}/items", func(c *Call) Answer {
		writes++
		return Created(map[string]int{"n": writes})
	})
	release := make(chan struct{})
	e.Delay("POST /repos/x/items", release)
	done := make(chan string)
	go func() {
		status, _, body := send(t, e, "POST", "/api/repos/x/items", "")
		done <- strconv.Itoa(status) + " " + body
	}()
	for len(e.Requests()) == 0 {
		runtime.Gosched()
	}
	e.Lock() // the write landed before the answer left
	for writes == 0 {
		e.Unlock()
		runtime.Gosched()
		e.Lock()
	}
	e.Unlock()
	select {
	case got := <-done:
		t.Fatalf("answered before the release: %s", got)
	default:
	}
	close(release)
	if got := <-done; got != "201 {\"n\":1}\n" {
		t.Errorf("released answer %q", got)
	}
}

// If-None-Match compares weakly (RFC 9110): a strong tag sent back for a
// weak ETag, or a weak one for a strong, is the same representation;
// another tag is not.
func TestIfNoneMatchWeak(t *testing.T) {
	for _, c := range []struct {
		header, tag string
		want        bool
	}{
		{`W/"a"`, `W/"a"`, true}, {`"a"`, `W/"a"`, true}, {`W/"a"`, `"a"`, true},
		{`"b", W/"a"`, `"a"`, true}, {`*`, `"a"`, true}, {`"b"`, `"a"`, false}, {``, `"a"`, false},
	} {
		if got := IfNoneMatch(c.header, c.tag); got != c.want {
			t.Errorf("IfNoneMatch(%q, %q) = %v", c.header, c.tag, got)
		}
	}
}

// A Router on its own: a route answers with its wildcards and the body
// it was given; a GET route serves HEAD too (as ServeMux has it); a path
// ServeMux would redirect to its clean form, or that no route serves,
// matches none.
func TestRouter(t *testing.T) {
	rt := NewRouter("/api")
	rt.Handle("GET /files/{path...}", func(c *Call) Answer {
		return OK(map[string]string{"path": c.Value("path"), "body": string(c.Body)})
	})
	at := func(method, path string) (Answer, bool) {
		r, _ := http.NewRequest(method, "http://fake"+path, nil)
		return rt.Route(r, []byte("sent"))
	}
	if a, ok := at("GET", "/api/files/a/b%2Fc"); !ok || a.Body.(map[string]string)["path"] != "a/b/c" || a.Body.(map[string]string)["body"] != "sent" {
		t.Errorf("GET: %v %+v", ok, a)
	}
	if _, ok := at("HEAD", "/api/files/x"); !ok {
		t.Error("HEAD matches no GET route")
	}
	for _, c := range [][2]string{{"GET", "/api/files/a//b"}, {"GET", "/api/files/../x"}, {"POST", "/api/files/x"}, {"GET", "/files/x"}} {
		if a, ok := at(c[0], c[1]); ok {
			t.Errorf("%s %s routed: %+v", c[0], c[1], a)
		}
	}
}
