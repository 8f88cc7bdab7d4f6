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
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/forgetools/forgetools/internal/forgemodel"
	"github.com/forgetools/forgetools/providers/internal/forgefake"
)

// Options configures a Server.
type Options struct {
	// Host is the web host of web_url links; "" = gitlab.example.com.
	Host string
	// Clock is the fake's "now"; zero = the current time in whole seconds.
	Clock time.Time
}

// Request is one request as the fake received it; its Path is below
// /api/v4, escaped as sent ("/projects/a%2Fb/issues").
type Request = forgefake.Request

// Response is an injected answer (see recorder.Response).
type Response = forgefake.Response

// Server is a running fake. Its embedded engine gives URL, Client, Close,
// Inject, Delay, Requests, Pending and Statuses, and holds the state the
// routes (routes.go) serve.
type Server struct {
	*forgefake.Engine
	host string
}

// New starts a fake; Close stops it.
func New(o Options) *Server {
	s := &Server{host: fakeOr(o.Host, "gitlab.example.com")}
	s.Engine = forgefake.New(forgefake.Options{
		Root: "/api/v4", Header: s.headers, Validator: forgefake.WeakDigest,
		NotFound: func() answer { return s.message(http.StatusNotFound, "404 Not Found") },
	})
	s.Clock = o.Clock
	s.routes()
	return s
}

// headers are what every GitLab answer carries: JSON, and the RateLimit-*
// headers of its rate limiter.
func (s *Server) headers(h http.Header) {
	h.Set("Content-Type", "application/json")
	h.Set("RateLimit-Limit", "2000")
	h.Set("RateLimit-Observed", "3")
	h.Set("RateLimit-Remaining", "1997")
	s.Lock()
	h.Set("RateLimit-Reset", strconv.FormatInt(s.Now().Add(time.Minute).Unix(), 10))
	s.Unlock()
}

// APIURL is the API root a client is configured with (api_url).
func (s *Server) APIURL() string { return s.URL + "/api/v4/" }

// Host is the web host of the fake's web_url links.
func (s *Server) Host() string { return s.host }

// AddToken makes token authenticate as username.
func (s *Server) AddToken(token, username string) {
	s.Lock()
	defer s.Unlock()
	s.Tokens[token] = username
	s.User(username)
}

// answer is one response from the state.
type answer = forgefake.Answer

var (
	ok      = forgefake.OK
	created = forgefake.Created
	fakeOr  = forgemodel.Or
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
	out, more := forgefake.Page(items, page, per, render)
	a := ok(out)
	next := ""
	if more {
		next = strconv.Itoa(page + 1)
	}
	a.Header = http.Header{
		"X-Page": {strconv.Itoa(page)}, "X-Per-Page": {strconv.Itoa(per)}, "X-Next-Page": {next},
		"X-Total": {strconv.Itoa(len(items))}, "X-Total-Pages": {strconv.Itoa(max((len(items)+per-1)/per, 1))},
	}
	return a
}
