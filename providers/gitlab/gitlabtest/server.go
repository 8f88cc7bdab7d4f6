// Package gitlabtest is a fake GitLab REST API (v4) for tests: an httptest
// server that speaks GitLab's wire format (paths under /api/v4 with the
// project addressed by its URL-encoded full path or id, PRIVATE-TOKEN
// credentials, JSON shapes named as in GitLab's API documentation and the
// client's types, {"message": ...} errors, X-Page/X-Next-Page paging,
// RateLimit-* headers) and keeps enough state to serve a whole session:
// projects in nested groups with branches and files, issues and merge
// requests keyed by iid, notes, diff discussions, approvals, merges,
// pipelines with jobs and traces, milestones and users.
//
// It records every request, and answers the next request matching a route
// with an injected response when told to: how tests script failures (a
// 502, a 429 with Retry-After) or replay a documented answer verbatim.
//
// It is not GitLab: it implements the endpoints forgetools calls, with the
// validation GitLab applies to them, and answers anything else 404.
package gitlabtest

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/forgetools/forgetools/providers/internal/fakewire"
	"github.com/forgetools/forgetools/providers/internal/recorder"
)

// Options configures a Server.
type Options struct {
	// Host is the web host of web_url links; "" = gitlab.example.com.
	Host string
	// Clock is the fake's "now"; zero = the current time in whole seconds.
	Clock time.Time
}

// Request is one request as the fake received it.
type Request struct {
	Method string
	Path   string // below /api/v4, escaped as sent ("/projects/a%2Fb/issues")
	Query  url.Values
	Header http.Header
	Body   []byte
	// Injected is true when an injected response answered it.
	Injected bool
}

// Response is an injected answer (see recorder.Response).
type Response = recorder.Response

// Server is a running fake. Its embedded httptest.Server gives URL, Client
// and Close.
type Server struct {
	*httptest.Server
	host string
	rec  *recorder.Recorder[Request]

	mu       sync.Mutex
	n        fakewire.Counters
	tokens   map[string]string   // token -> username
	projects map[string]*project // lower-case full path
}

// New starts a fake; Close stops it.
func New(o Options) *Server {
	s := &Server{
		host: o.Host, rec: recorder.New[Request](), tokens: map[string]string{}, projects: map[string]*project{},
	}
	s.n.Clock = o.Clock
	if s.host == "" {
		s.host = "gitlab.example.com"
	}
	s.Server = httptest.NewServer(s)
	return s
}

// Close releases held requests and stops the server.
func (s *Server) Close() {
	s.rec.Close()
	s.Server.Close()
}

// APIURL is the API root a client is configured with (api_url).
func (s *Server) APIURL() string { return s.URL + "/api/v4/" }

// Host is the web host of the fake's web_url links.
func (s *Server) Host() string { return s.host }

// AddToken makes token authenticate as username.
func (s *Server) AddToken(token, username string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.tokens[token] = username
	s.n.User(username)
}

// Inject answers the next request matching route with r. A route is
// "METHOD /path" below /api/v4 as sent (escaped, e.g. "GET
// /projects/acme%2Fapp/issues/1"), without the query, or "*".
func (s *Server) Inject(route string, r Response) { s.rec.Inject(route, r) }

// Pending lists the routes of injected responses no request has used yet.
func (s *Server) Pending() []string { return s.rec.Pending() }

// Requests is every request received so far, oldest first.
func (s *Server) Requests() []Request { return s.rec.Requests() }

// ServeHTTP records the request, then answers it with an injected
// response or from the state.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w = s.rec.Writer(w)
	body, _ := io.ReadAll(r.Body)
	path, ok := strings.CutPrefix(r.URL.EscapedPath(), "/api/v4")
	route := r.Method + " " + path
	resp, injected, _ := s.rec.Receive(func(in string) bool { return in == route }, func(injected bool) Request {
		return Request{Method: r.Method, Path: path, Query: r.URL.Query(), Header: r.Header.Clone(), Body: body, Injected: injected}
	})
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("RateLimit-Limit", "2000")
	h.Set("RateLimit-Observed", "3")
	h.Set("RateLimit-Remaining", "1997")
	h.Set("RateLimit-Reset", strconv.FormatInt(s.n.Now().Add(time.Minute).Unix(), 10))
	if injected {
		s.rec.Answer(w, r, resp)
		return
	}
	var a answer
	if !ok {
		a = s.message(http.StatusNotFound, "404 Not Found")
	} else {
		s.mu.Lock()
		a = s.handle(r, path, body)
		s.mu.Unlock()
	}
	a.WriteConditional(w, r, etag)
}

// etag is the validator GitLab's API gives every GET answer (Rack's
// ETag middleware): a weak tag of a digest of the body. A GET whose
// If-None-Match names it is answered 304 with no body.
func etag(_ answer, body []byte) string {
	sum := sha256.Sum256(body)
	return `W/"` + hex.EncodeToString(sum[:16]) + `"`
}

// Statuses is how many answers of each status the fake sent.
func (s *Server) Statuses() map[int]int { return s.rec.Statuses() }

// answer is one response from the state.
type answer = fakewire.Answer

var (
	ok      = fakewire.OK
	created = fakewire.Created
)

// message is GitLab's error body: {"message": m}, m a string, list or map.
func (s *Server) message(status int, m any) answer {
	return answer{Status: status, Body: map[string]any{"message": m}}
}

// paged serves one page (page, per_page; default 20, at most 100) with
// GitLab's pagination headers.
func paged[T any](q url.Values, items []T, render func(T) any) answer {
	per, _ := strconv.Atoi(q.Get("per_page"))
	if per <= 0 {
		per = 20
	}
	per = min(per, 100)
	page, _ := strconv.Atoi(q.Get("page"))
	page = max(page, 1)
	out := []any{}
	lo, hi := min((page-1)*per, len(items)), min(page*per, len(items))
	for _, it := range items[lo:hi] {
		out = append(out, render(it))
	}
	a := ok(out)
	pages := max((len(items)+per-1)/per, 1)
	next := ""
	if page < pages {
		next = strconv.Itoa(page + 1)
	}
	a.Header = http.Header{
		"X-Page": {strconv.Itoa(page)}, "X-Per-Page": {strconv.Itoa(per)}, "X-Next-Page": {next},
		"X-Total": {strconv.Itoa(len(items))}, "X-Total-Pages": {strconv.Itoa(pages)},
	}
	return a
}
