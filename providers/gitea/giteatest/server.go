// Package giteatest is a fake Gitea (or Forgejo) REST API for tests: an
// httptest server that speaks Gitea's v1 wire format (paths under
// /api/v1, "Authorization: token ..." credentials, JSON shapes named as in
// Gitea's swagger and the SDK's types, {"message", "url"} errors, Link
// paging) and keeps enough state to serve a whole session: repositories
// with branches and files, issues and pull requests sharing one number
// sequence, comments, labels, reviews with inline comments, merges,
// Actions runs with jobs and logs.
//
// It records every request, and answers the next request matching a route
// with an injected response when told to: how tests script failures (a
// 502, a 429 with Retry-After, a 301 on a POST) or replay a documented
// answer verbatim. As Forgejo it reports Forgejo's version and serves no
// Actions run API (the endpoints answer 404), which is where the two
// diverge for forgetools.
//
// It is not Gitea: it implements the endpoints forgetools calls, with the
// validation Gitea applies to them, and answers anything else 404.
package giteatest

import (
	"fmt"
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
	// Forgejo makes the fake a Forgejo instance.
	Forgejo bool
	// Host is the web host of html_url links; "" = gitea.example.com
	// (codeberg.example.com as Forgejo).
	Host string
	// PathPrefix is where the instance is served below the root ("" or
	// e.g. "/git"); the API is at PathPrefix + "/api/v1".
	PathPrefix string
	// Clock is the fake's "now"; zero = the current time in whole seconds.
	Clock time.Time
}

// Request is one request as the fake received it.
type Request struct {
	Method string
	Path   string // below /api/v1, still escaped as sent
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
	forgejo bool
	host    string
	prefix  string
	rec     *recorder.Recorder[Request]

	mu     sync.Mutex
	n      fakewire.Counters
	tokens map[string]string // token -> login
	repos  map[string]*repo  // lower-case full name
}

// New starts a fake; Close stops it.
func New(o Options) *Server {
	s := &Server{
		forgejo: o.Forgejo, host: o.Host, prefix: strings.TrimSuffix(o.PathPrefix, "/"),
		rec: recorder.New[Request](), tokens: map[string]string{}, repos: map[string]*repo{},
	}
	s.n.Clock = o.Clock
	if s.host == "" {
		s.host = "gitea.example.com"
		if s.forgejo {
			s.host = "codeberg.example.com"
		}
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
func (s *Server) APIURL() string { return s.URL + s.prefix + "/api/v1/" }

// Host is the web host of the fake's html_url links.
func (s *Server) Host() string { return s.host }

// Version is what GET /version reports: a Gitea version, or Forgejo's
// "X.Y.Z+gitea-A.B.C".
func (s *Server) Version() string {
	if s.forgejo {
		return "11.0.1+gitea-1.22.0"
	}
	return "1.26.0"
}

// AddToken makes token authenticate as login.
func (s *Server) AddToken(token, login string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.tokens[token] = login
	s.n.User(login)
}

// Inject answers the next request matching route with r. A route is
// "METHOD /path" below /api/v1 as sent (escaped), without the query, or
// "*" for any request.
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
	path, ok := strings.CutPrefix(r.URL.EscapedPath(), s.prefix+"/api/v1")
	if !ok {
		path = r.URL.EscapedPath()
	}
	route := r.Method + " " + path
	resp, injected, _ := s.rec.Receive(func(in string) bool { return in == route }, func(injected bool) Request {
		return Request{Method: r.Method, Path: path, Query: r.URL.Query(), Header: r.Header.Clone(), Body: body, Injected: injected}
	})
	w.Header().Set("Content-Type", "application/json;charset=utf-8")
	if injected {
		s.rec.Answer(w, r, resp)
		return
	}
	if !ok {
		s.notFound().Write(w, r)
		return
	}
	s.mu.Lock()
	a := s.handle(r, path, body)
	s.mu.Unlock()
	a.WriteConditional(w, r, etag)
}

// etag is the validator Gitea gives an answer: its API's JSON answers
// carry none (Gitea sets ETags only where it serves a blob: raw files,
// attachments, LFS objects), a raw file the quoted blob id (strong),
// matched exactly.
func etag(a answer, body []byte) string {
	if a.Raw == nil {
		return ""
	}
	return `"` + fakewire.BlobSHA(string(body)) + `"`
}

// Statuses is how many answers of each status the fake sent.
func (s *Server) Statuses() map[int]int { return s.rec.Statuses() }

// answer is one response from the state.
type answer = fakewire.Answer

var (
	ok      = fakewire.OK
	created = fakewire.Created
)

// apiError is Gitea's error body.
func (s *Server) apiError(status int, message string) answer {
	return answer{Status: status, Body: map[string]any{"message": message, "url": "https://" + s.host + "/api/swagger"}}
}

func (s *Server) notFound() answer {
	return answer{Status: http.StatusNotFound, Body: map[string]any{
		"errors": []string{}, "message": "The target couldn't be found.", "url": "https://" + s.host + "/api/swagger",
	}}
}

// paged serves one page of items (page, limit; Gitea's default and
// maximum 50) with a Link header when there are more.
func paged[T any](s *Server, path string, q url.Values, items []T, render func(T) any) answer {
	limit, _ := strconv.Atoi(q.Get("limit"))
	if limit <= 0 || limit > 50 {
		limit = 50
	}
	page, _ := strconv.Atoi(q.Get("page"))
	page = max(page, 1)
	out := []any{}
	lo, hi := min((page-1)*limit, len(items)), min(page*limit, len(items))
	for _, it := range items[lo:hi] {
		out = append(out, render(it))
	}
	a := ok(out)
	a.Header = http.Header{"X-Total-Count": {strconv.Itoa(len(items))}}
	if hi < len(items) {
		v := url.Values{}
		for k, vs := range q {
			v[k] = vs
		}
		v.Set("page", strconv.Itoa(page+1))
		a.Header.Set("Link", fmt.Sprintf(`<%s%s/api/v1%s?%s>; rel="next"`, s.URL, s.prefix, path, v.Encode()))
	}
	return a
}
