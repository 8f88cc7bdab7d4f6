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
//
// It runs on the fakes' engine (providers/internal/forgefake: recording,
// injections, routing, webhook deliveries) over their shared model
// (internal/forgemodel); what this package holds is GitHub's wire codec:
// its paths, JSON and GraphQL shapes, errors, headers, quotas and
// webhook signatures.
package githubtest

import (
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/forgetools/forgetools/internal/forgemodel"
	"github.com/forgetools/forgetools/providers/internal/forgefake"
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
type Response = forgefake.Response

// Server is a running fake GitHub. Its embedded engine gives URL,
// Client, Inject, Delay, Requests, Pending and Statuses, records every
// request (its Path below the PathPrefix, unescaped) and holds the lock
// the state is guarded by.
type Server struct {
	*forgefake.Engine
	host    string
	prefix  string
	clock   time.Time
	logs    *httptest.Server // the log store
	logHost string

	// The state is the engine's (forgemodel.State, state.go), webhook
	// deliveries too (hooks.go); a login's hourly quota is GitHub's alone.
	quotas map[string]*quota

	// check, when set (NewChecked), sees every REST exchange once
	// answered.
	check func(ex forgefake.Exchange)
	// gql, when set (NewChecked), holds GraphQL queries to GitHub's
	// schema (graphql.go).
	gql *gqlChecker

	repoMux *forgefake.Router // mux.go
}

// New starts a fake GitHub; Close stops it.
func New(o Options) *Server {
	s := &Server{
		host:   o.Host,
		prefix: strings.TrimSuffix(o.PathPrefix, "/"),
		quotas: map[string]*quota{},
	}
	if s.host == "" {
		s.host = "github.com"
	}
	s.Engine = forgefake.New(forgefake.Options{
		Root: s.prefix, TLS: o.TLS, Unescaped: true,
		Usual: s.usualHeaders, Wrap: s.answer, Exchange: s.exchange, Sign: sign, DeliveryID: s.deliveryID,
		NotFound: func() answer { return errorAnswer(http.StatusNotFound, "Not Found", docRoot, nil) },
	})
	// Counters number ids (from 1001), user ids (from 9000) and times.
	s.Counters = forgemodel.Counters{Clock: o.Clock, IDsAfter: 1000, FirstUser: 9000}
	s.clock = s.Now()
	s.userRoutes()
	s.searchRoutes()
	s.repoMux = s.repoRoutes()
	s.Mount(s.graphQLPath(), "/graphql", s.answerGraphQL)
	s.logHost = o.LogHost
	if s.logHost == "" {
		s.logHost = "localhost"
		if o.TLS {
			s.logHost = "127.0.0.1"
		}
	}
	s.startLogStore(o.TLS)
	return s
}

// Close releases held requests and stops the servers.
func (s *Server) Close() {
	s.Engine.Close()
	s.logs.Close()
}

// APIURL is the REST API root a client is configured with (api_url).
func (s *Server) APIURL() string { return s.URL + s.prefix + "/" }

// Clock is the fake's "now".
func (s *Server) Clock() time.Time { return s.clock }

// AddToken makes token authenticate as login.
func (s *Server) AddToken(token, login string) {
	s.Lock()
	defer s.Unlock()
	s.Tokens[token] = login
	s.User(login)
}

// exchange hands a REST exchange to the check (NewChecked); GraphQL's
// are held to the schema by the GraphQL endpoint itself.
func (s *Server) exchange(ex forgefake.Exchange) {
	switch {
	case ex.Mounted:
		s.checkQuery(ex.Body)
	case s.check != nil:
		s.check(ex)
	}
}

// usualHeaders are what every GitHub answer carries: the media type, the
// API version, a request id, and an hourly quota (reset 40 minutes after
// the clock); an answer from the state replaces it with the caller's own
// (see answer).
func (s *Server) usualHeaders(h http.Header, req Request, n int) {
	h.Set("Content-Type", jsonType)
	h.Set("X-GitHub-Media-Type", "github.v3; format=json")
	h.Set("X-GitHub-Api-Version-Selected", APIVersion)
	h.Set("X-GitHub-Request-Id", fmt.Sprintf("0401:3C9A:1F2E5C:3E7B1A:%08X", n))
	h.Set("X-RateLimit-Limit", "5000")
	h.Set("X-RateLimit-Remaining", "4987")
	h.Set("X-RateLimit-Used", "13")
	h.Set("X-RateLimit-Reset", strconv.FormatInt(s.clock.Add(40*time.Minute).Unix(), 10))
	h.Set("X-RateLimit-Resource", "core")
	if req.Path == "/graphql" {
		h.Set("X-RateLimit-Resource", "graphql")
	}
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

// answer is one response: from the state, GitHub's JSON encoded already
// (jsonAnswer), so that its ETag digests the bytes sent.
type answer = forgefake.Answer

// jsonType is the Content-Type of GitHub's JSON answers.
const jsonType = "application/json; charset=utf-8"

func jsonAnswer(status int, v any) answer {
	var b bytes.Buffer
	enc := newEncoder(&b)
	if err := enc.Encode(v); err != nil {
		panic(err)
	}
	return answer{Status: status, Raw: b.Bytes(), Type: jsonType}
}
