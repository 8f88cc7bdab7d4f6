// Package githubtest is a fake GitHub REST API for tests: an httptest server
// that speaks GitHub's wire format (paths, JSON shapes, status codes, the
// x-ratelimit-* headers) and keeps enough state to serve a whole session:
// repositories with a default branch, branches and tags over a small git
// model (files read and written through the contents API, refs, merges),
// issues and pull requests sharing one number sequence (the issues endpoint
// lists both, as GitHub's does), comments, reviews with inline comments,
// milestones, renamed repositories, and Actions workflows, runs, jobs and
// their logs, served from a second host as GitHub's are.
//
// It answers conditional requests as GitHub does (ETag, If-None-Match, 304
// Not Modified outside the quota), counts each login's hourly quota, and
// delivers signed repository webhooks (hooks.go) for the comments,
// reviews, issue edits and merges calls make and for what a test has other
// people do (changes.go); opening an issue or a pull request sends none.
//
// It records every request (method, path, query, headers, body) so a test
// can assert exactly what was sent, and answers the next request matching a
// route with an injected response instead of its state when told to: how
// tests script GitHub's failures (a 502, a rate limit, a 301 on a POST) or
// replay a documented example answer verbatim.
//
// It is not GitHub: it implements the endpoints forgetools calls, with the
// validation GitHub applies to them, and answers anything else 404.
package githubtest

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/forgetools/forgetools/internal/forgemodel"
	"github.com/forgetools/forgetools/providers/github/githubtest/openapi"
	"github.com/forgetools/forgetools/providers/internal/forgefake"
	"github.com/forgetools/forgetools/providers/internal/recorder"
)

// APIVersion is the REST API version GitHub serves and expects in the
// X-GitHub-Api-Version header.
const APIVersion = "2022-11-28"

// Options configures a Server.
type Options struct {
	// Host is the web host of html_url links: "github.com" (the default) or
	// an Enterprise host.
	Host string
	// PathPrefix is where the API is mounted: "" for api.github.com, or
	// "/api/v3" as on GitHub Enterprise Server.
	PathPrefix string
	// TLS serves HTTPS with httptest's certificate (valid for example.com
	// and *.example.com).
	TLS bool
	// Clock is the fake's "now": timestamps and the x-ratelimit-reset header
	// count from it. Zero = the current time, in whole seconds.
	Clock time.Time
	// LogHost is the host name job-log redirects name for the log store
	// (see logstore.go); "" = "localhost", or "127.0.0.1" with TLS (the
	// test certificate's name for the loopback address).
	LogHost string
}

// Request is one request as the fake received it; its Path is below the
// PathPrefix, unescaped.
type Request = forgefake.Request

// Response is an injected answer: Status (0 = 200), Header, Body, or Hold
// to never answer, as a GitHub that stopped responding would. The fake's
// usual GitHub headers are sent too; Header adds to or overrides them.
type Response = recorder.Response

// Server is a running fake GitHub. Its embedded httptest.Server gives URL,
// Client and Close.
type Server struct {
	*httptest.Server
	host    string
	prefix  string
	clock   time.Time
	rec     *recorder.Recorder[Request]
	logs    *httptest.Server // the log store
	logHost string

	mu sync.Mutex
	// Counters number ids (from 1001), user ids (from 9000) and times.
	forgemodel.Counters
	tokens    map[string]string          // token -> login
	repos     map[string]*repo           // lower-case full name -> repo
	orgs      map[string]map[string]bool // lower-case org -> lower-case member logins
	renamed   map[string]*repo           // old lower-case full name -> repo
	quotas    map[string]*quota          // login -> hourly quota
	outbox    []outgoing                 // webhook deliveries not sent yet
	delivered []Delivery

	// check, when set (NewChecked), sees every exchange once answered;
	// injected says a scripted answer, not the state, gave it.
	check func(ex openapi.Exchange, scripted, off bool, outside string)
	// gql, when set (NewChecked), holds GraphQL queries to GitHub's
	// schema (graphql.go).
	gql *gqlChecker

	userMux, repoMux *forgefake.Router // mux.go
}

// New starts a fake GitHub; Close stops it.
func New(o Options) *Server {
	s := &Server{
		host:    o.Host,
		prefix:  strings.TrimSuffix(o.PathPrefix, "/"),
		clock:   o.Clock,
		rec:     recorder.New[Request](),
		tokens:  map[string]string{},
		repos:   map[string]*repo{},
		renamed: map[string]*repo{},
		quotas:  map[string]*quota{},
	}
	s.userMux, s.repoMux = s.userRoutes(), s.repoRoutes()
	if s.host == "" {
		s.host = "github.com"
	}
	s.Counters = forgemodel.Counters{Clock: s.clock, IDsAfter: 1000, FirstUser: 9000}
	s.clock = s.Now()
	s.logHost = o.LogHost
	if s.logHost == "" {
		s.logHost = "localhost"
		if o.TLS {
			s.logHost = "127.0.0.1"
		}
	}
	if o.TLS {
		s.Server = httptest.NewTLSServer(s)
	} else {
		s.Server = httptest.NewServer(s)
	}
	s.startLogStore(o.TLS)
	return s
}

// Close releases held requests and stops the servers.
func (s *Server) Close() {
	s.rec.Close()
	s.Server.Close()
	s.logs.Close()
}

// APIURL is the REST API root a client is configured with (api_url).
func (s *Server) APIURL() string { return s.URL + s.prefix + "/" }

// Clock is the fake's "now".
func (s *Server) Clock() time.Time { return s.clock }

// AddToken makes token authenticate as login.
func (s *Server) AddToken(token, login string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.tokens[token] = login
	s.User(login)
}

// Inject answers the next request matching route with r instead of the
// fake's state. A route is "METHOD /path" (the path without PathPrefix or
// query, e.g. "POST /repos/octocat/Hello-World/issues"), or "*" for any
// request. Injections for one route are used in the order given.
func (s *Server) Inject(route string, r Response) { s.rec.Inject(route, r) }

// Delay answers the next request matching route from the state at once (a
// write lands when it arrives) but holds the answer until release is
// closed, or for ever when release is nil: a GitHub that did the work and
// then stalled, or whose answer never came back.
func (s *Server) Delay(route string, release <-chan struct{}) {
	s.rec.Inject(route, Response{FromState: true, Release: release, Hold: release == nil})
}

// Pending lists the routes of injected responses no request has used yet.
func (s *Server) Pending() []string { return s.rec.Pending() }

// Requests is every request received so far, oldest first.
func (s *Server) Requests() []Request { return s.rec.Requests() }

// Statuses is how many answers of each status the fake sent.
func (s *Server) Statuses() map[int]int { return s.rec.Statuses() }

// ServeHTTP records the request, then answers it with an injected response
// or from the state; with a check (NewChecked), the exchange is then held
// to GitHub's description.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w = s.rec.Writer(w)
	body, _ := io.ReadAll(r.Body)
	if r.URL.Path == s.graphQLPath() {
		s.serveGraphQL(w, r, body) // held to GitHub's GraphQL schema, not its REST description
		return
	}
	if s.check == nil {
		s.serve(w, r, body)
		return
	}
	cw := &checkedResponse{ResponseWriter: w}
	injected, off := s.serve(cw, r, body)
	path, ok := strings.CutPrefix(r.URL.EscapedPath(), s.prefix)
	if !ok {
		s.check(openapi.Exchange{}, injected, off, r.Method+" "+r.URL.EscapedPath()+" is outside the API root "+s.prefix)
		return
	}
	ex := openapi.Exchange{Method: r.Method, Path: path, Query: r.URL.Query(),
		ContentType: r.Header.Get("Content-Type"), Body: body}
	if cw.status != 0 {
		ex.Status, ex.ResponseType, ex.Response = cw.status, cw.Header().Get("Content-Type"), cw.body.Bytes()
	}
	s.check(ex, injected, off, "")
}

// serve answers one request and says whether an injected response did,
// and whether that one departs from GitHub's description on purpose.
func (s *Server) serve(w http.ResponseWriter, r *http.Request, body []byte) (injected, off bool) {
	path, ok := strings.CutPrefix(r.URL.Path, s.prefix)
	if !ok {
		path = r.URL.Path
	}
	route := r.Method + " " + path
	resp, injected, n := s.rec.Receive(func(in string) bool { return in == route }, func(injected bool) Request {
		return Request{
			Method: r.Method, Path: path, Query: r.URL.Query(), Header: r.Header.Clone(),
			Host: r.Host, Body: body, Injected: injected,
		}
	})

	s.usualHeaders(w.Header(), n)
	if injected && !resp.FromState {
		s.rec.Answer(w, r, resp)
		return true, resp.OffDescription != ""
	}
	if !ok {
		writeError(w, http.StatusNotFound, "Not Found", "https://docs.github.com/rest")
		return false, false
	}
	s.mu.Lock()
	a := s.answer(r, path, body)
	s.mu.Unlock()
	// The work is done: webhooks go out whether or not the answer does.
	s.flush()
	if injected && !s.rec.Wait(r, resp) {
		return false, false // the answer never arrives
	}
	writeHeaders(w.Header(), a.header)
	w.WriteHeader(a.status)
	w.Write(a.body)
	return false, false
}

// usualHeaders are what every GitHub answer carries: the media type, the
// API version, a request id, and an hourly quota (reset 40 minutes after
// the clock); an answer from the state replaces it with the caller's own
// (see answer).
func (s *Server) usualHeaders(h http.Header, n int) {
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("X-GitHub-Media-Type", "github.v3; format=json")
	h.Set("X-GitHub-Api-Version-Selected", APIVersion)
	h.Set("X-GitHub-Request-Id", fmt.Sprintf("0401:3C9A:1F2E5C:3E7B1A:%08X", n))
	h.Set("X-RateLimit-Limit", "5000")
	h.Set("X-RateLimit-Remaining", "4987")
	h.Set("X-RateLimit-Used", "13")
	h.Set("X-RateLimit-Reset", strconv.FormatInt(s.clock.Add(40*time.Minute).Unix(), 10))
	h.Set("X-RateLimit-Resource", "core")
}

// LinkNext is GitHub's Link header for a page of path (with query) that has
// page next after it, of last pages.
func (s *Server) LinkNext(path string, query url.Values, next, last int) http.Header {
	return http.Header{"Link": {s.link(path, query, next, "next") + ", " + s.link(path, query, last, "last")}}
}

func (s *Server) link(path string, query url.Values, page int, rel string) string {
	v := url.Values{}
	for k, vs := range query {
		v[k] = vs
	}
	v.Set("page", strconv.Itoa(page))
	return fmt.Sprintf(`<%s%s%s?%s>; rel="%s"`, s.URL, s.prefix, path, v.Encode(), rel)
}

// status and JSON body of an answer from the state.
type answer struct {
	status int
	header http.Header
	body   []byte
}

func jsonAnswer(status int, v any) answer {
	var b bytes.Buffer
	enc := newEncoder(&b)
	if err := enc.Encode(v); err != nil {
		panic(err)
	}
	return answer{status: status, body: b.Bytes()}
}

func writeError(w http.ResponseWriter, status int, message, doc string) {
	a := errorAnswer(status, message, doc, nil)
	w.WriteHeader(a.status)
	w.Write(a.body)
}
