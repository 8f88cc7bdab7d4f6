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
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/forgetools/forgetools/internal/forgemodel"
	"github.com/forgetools/forgetools/providers/internal/forgefake"
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

// Request is one request as the fake received it; its Path is below
// /api/v1, still escaped as sent.
type Request = forgefake.Request

// Response is an injected answer (see recorder.Response).
type Response = forgefake.Response

// Server is a running fake. Its embedded engine gives URL, Client, Close,
// Inject, Delay, Requests, Pending and Statuses, and holds the state the
// routes (routes.go) serve.
type Server struct {
	*forgefake.Engine
	forgejo bool
	host    string
	prefix  string
}

// New starts a fake; Close stops it.
func New(o Options) *Server {
	s := &Server{forgejo: o.Forgejo, host: o.Host, prefix: strings.TrimSuffix(o.PathPrefix, "/")}
	if s.host == "" {
		s.host = "gitea.example.com"
		if s.forgejo {
			s.host = "codeberg.example.com"
		}
	}
	s.Engine = forgefake.New(forgefake.Options{
		Root: s.prefix + "/api/v1", NotFound: s.notFound, Validator: forgefake.RawBlob,
		Header: func(h http.Header) { h.Set("Content-Type", "application/json;charset=utf-8") },
	})
	s.Clock = o.Clock
	s.routes()
	return s
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
	s.Lock()
	defer s.Unlock()
	s.Tokens[token] = login
	s.User(login)
}

// answer is one response from the state.
type answer = forgefake.Answer

var (
	ok      = forgefake.OK
	created = forgefake.Created
	fakeOr  = forgemodel.Or
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
// maximum 50) with X-Total-Count, and a Link header when there are more.
func paged[T any](s *Server, c *call, items []T, render func(T) any) answer {
	q := c.Query
	limit, _ := strconv.Atoi(q.Get("limit"))
	if limit <= 0 || limit > 50 {
		limit = 50
	}
	page, _ := strconv.Atoi(q.Get("page"))
	page = max(page, 1)
	out, more := forgefake.Page(items, page, limit, render)
	a := ok(out)
	a.Header = http.Header{"X-Total-Count": {strconv.Itoa(len(items))}}
	if more {
		v := url.Values{}
		for k, vs := range q {
			v[k] = vs
		}
		v.Set("page", strconv.Itoa(page+1))
		a.Header.Set("Link", fmt.Sprintf(`<%s%s/api/v1%s?%s>; rel="next"`, s.URL, s.prefix, c.Path, v.Encode()))
	}
	return a
}
