package forgefake

import (
	"context"
	"io"
	"net/http"
	"strings"
)

// Router is the engine's routing on its own: ServeMux patterns below an
// API root, each answering a Call. A fake routes below a prefix of its
// own through one (githubtest: a repository's routes, below
// /repos/{owner}/{repo} or /repositories/{id}).
type Router struct {
	root string
	mux  *http.ServeMux
}

// NewRouter is a Router with no routes below root ("" for the server's
// root).
func NewRouter(root string) *Router {
	rt := &Router{root: root, mux: http.NewServeMux()}
	// What no route serves (another method on a routed path too, never
	// ServeMux's 405) leaves the slot empty: Route reports no match.
	rt.mux.HandleFunc("/", func(http.ResponseWriter, *http.Request) {})
	return rt
}

// Handle routes pattern, a ServeMux pattern below the root ("GET
// /projects/{id}/issues/{iid}"; a method is required), to h. Wildcards
// match one escaped segment each, so a URL-encoded path (a%2Fb) is one
// segment whose Value is a/b.
func (rt *Router) Handle(pattern string, h Handler) {
	method, path, ok := strings.Cut(pattern, " ")
	if !ok {
		panic("forgefake: route " + pattern + " names no method")
	}
	rt.mux.HandleFunc(method+" "+rt.root+path, func(_ http.ResponseWriter, r *http.Request) {
		s := r.Context().Value(slotKey{}).(*slot)
		c := &Call{R: r, Path: strings.TrimPrefix(r.URL.EscapedPath(), rt.root), Query: r.URL.Query(), Body: s.body}
		s.a, s.ok = h(c), true
	})
}

// Route answers r, whose body was read into body, with the route its
// method and path match; ok is false when none does (the forge's 404).
// A path ServeMux would redirect to its clean form (a//b, a/./b) matches
// none.
func (rt *Router) Route(r *http.Request, body []byte) (a Answer, ok bool) {
	s := &slot{body: body}
	r = r.WithContext(context.WithValue(r.Context(), slotKey{}, s))
	r.Body = io.NopCloser(strings.NewReader(string(body)))
	rt.mux.ServeHTTP(discard{}, r)
	return s.a, s.ok
}

type slotKey struct{}

// slot carries a request's body in and its answer out of the ServeMux.
type slot struct {
	body []byte
	a    Answer
	ok   bool
}

// discard is the ResponseWriter of a routed request: handlers answer
// through the slot, and a ServeMux redirect is dropped.
type discard struct{}

func (discard) Header() http.Header         { return http.Header{} }
func (discard) Write(b []byte) (int, error) { return len(b), nil }
func (discard) WriteHeader(int)             {}
