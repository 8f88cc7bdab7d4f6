package forgefake

import (
	"net/http"
	"strconv"
	"sync"
	"testing"
)

// A fake that keeps something around its answers: Wrap sees every
// request below the root and calls the routes itself, Usual numbers the
// requests, a Mount serves a path outside the root under its own
// recorded path, and the Exchange sees every answer as written, the
// scripted ones marked.
func TestHooks(t *testing.T) {
	var (
		mu        sync.Mutex
		exchanges []Exchange
	)
	e := New(Options{
		Root: "/api", Unescaped: true,
		NotFound: func() Answer { return Answer{Status: http.StatusNotFound} },
		Usual:    func(h http.Header, req Request, n int) { h.Set("X-Request", req.Path+"#"+strconv.Itoa(n)) },
		Wrap: func(c *Call, route func(*http.Request) (Answer, bool)) Answer {
			if c.R.Header.Get("Authorization") == "" {
				return Answer{Status: http.StatusUnauthorized, Raw: []byte(`{"message":"no"}`), Type: "application/json"}
			}
			a, ok := route(c.R)
			if !ok {
				return Answer{Status: http.StatusTeapot}
			}
			return a
		},
		Exchange: func(ex Exchange) { mu.Lock(); exchanges = append(exchanges, ex); mu.Unlock() },
	})
	t.Cleanup(e.Close)
	e.Handle("GET /items/{n}", func(c *Call) Answer { return OK(map[string]string{"n": c.Value("n")}) })
	e.Mount("/graphql", "/gql", func(c *Call) Answer { return OK(map[string]string{"at": c.Path}) })

	get := func(path, auth string) (int, http.Header) {
		req, _ := http.NewRequest("GET", e.URL+path, nil)
		if auth != "" {
			req.Header.Set("Authorization", auth)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode, resp.Header
	}
	if status, h := get("/api/items/a%20b", ""); status != 401 || h.Get("Content-Type") != "application/json" || h.Get("X-Request") != "/items/a b#1" {
		t.Errorf("unauthenticated: %d %v", status, h)
	}
	if status, _ := get("/api/items/7", "t"); status != 200 {
		t.Errorf("routed: %d", status)
	}
	if status, _ := get("/api/nothing", "t"); status != http.StatusTeapot {
		t.Errorf("Wrap's own answer to no route: %d", status)
	}
	if status, h := get("/graphql", ""); status != 200 || h.Get("X-Request") != "/gql#4" {
		t.Errorf("mounted: %d %v", status, h)
	}
	e.Inject("GET /items/x", Response{Status: 502, OffDescription: "down"})
	if status, _ := get("/api/items/x", "t"); status != 502 {
		t.Errorf("injected: %d", status)
	}
	if got := e.Requests(); len(got) != 5 || got[0].Path != "/items/a b" || got[3].Path != "/gql" || !got[4].Injected {
		t.Errorf("recorded %+v", got)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(exchanges) != 5 {
		t.Fatalf("exchanges %d", len(exchanges))
	}
	if ex := exchanges[0]; ex.Sent != "/items/a%20b" || ex.Path != "/items/a b" || ex.Status != 401 || string(ex.Response) != `{"message":"no"}` {
		t.Errorf("first exchange %+v", ex)
	}
	if ex := exchanges[3]; !ex.Mounted || ex.Outside || ex.Sent != "/gql" {
		t.Errorf("mounted exchange %+v", ex)
	}
	if ex := exchanges[4]; !ex.Scripted || ex.Off != "down" || ex.Status != 502 {
		t.Errorf("scripted exchange %+v", ex)
	}
}
