// Package lineartest is a fake Linear GraphQL API for tests: an httptest
// server on Linear's one endpoint (POST /graphql, JSON {query, variables})
// that answers with Linear's envelopes, error extensions and rate-limit
// headers, and keeps enough state to serve a whole session: teams by key,
// workspace and team labels, issues by identifier ("ENG-123") or id,
// filtered issue lists, issueCreate and commentCreate with client-chosen
// ids (a second create with the same id is refused, as Linear does).
//
// It parses each query and answers exactly the fields selected (see
// graphql.go). It records every request and, when told to, answers the
// next request for a root field with an injected response instead: how
// tests script Linear's rate limits and outages, or replay a documented
// answer verbatim.
package lineartest

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/forgetools/forgetools/providers/internal/recorder"
)

// Path is where the API is served, as on api.linear.app.
const Path = "/graphql"

// Options configures a Server.
type Options struct {
	// Workspace is the URL key of the workspace's links; "" = "acme".
	Workspace string
	// Clock is the fake's "now": createdAt of what is created, and the
	// rate-limit reset headers (ten minutes after it). Zero = the current
	// time, in whole milliseconds.
	Clock time.Time
}

// Request is one request as the fake received it.
type Request struct {
	Method string
	Path   string
	Query  url.Values
	Header http.Header
	Body   []byte
	// Operation is the operation's name ("IssueCreate"), Fields its root
	// fields ("issueCreate"), Variables the request's variables; empty
	// when the body is not a GraphQL request.
	Operation string
	Fields    []string
	Variables map[string]any
	// Injected is true when an injected response answered it.
	Injected bool
}

// Response is an injected answer: Status (0 = 200), Header, Body, or Hold
// to never answer (the fake waits until the client gives up), Release to
// answer late, FromState to answer from the state (the operation runs when
// the request arrives). It is sent with the fake's usual headers; Header
// adds to or overrides them.
type Response = recorder.Response

// Server is a running fake Linear. Its embedded httptest.Server gives URL
// and Close.
type Server struct {
	*httptest.Server
	workspace string
	clock     time.Time
	rec       *recorder.Recorder[Request]

	mu   sync.Mutex
	auth map[string]*user // the whole Authorization value -> user
	state
}

// New starts a fake Linear; Close stops it.
func New(o Options) *Server {
	s := &Server{workspace: o.Workspace, clock: o.Clock, rec: recorder.New[Request](), auth: map[string]*user{}}
	if s.workspace == "" {
		s.workspace = "acme"
	}
	if s.clock.IsZero() {
		s.clock = time.UnixMilli(time.Now().UnixMilli())
	}
	s.Server = httptest.NewServer(s)
	return s
}

// Close releases held requests and stops the server.
func (s *Server) Close() {
	s.rec.Close()
	s.Server.Close()
}

// APIURL is the endpoint a client is configured with (api_url).
func (s *Server) APIURL() string { return s.URL + Path }

// User is a Linear user: the one a credential acts as, or an issue's creator.
type User struct {
	Name, DisplayName string
}

// AddKey makes a personal API key, sent bare in the Authorization header,
// authenticate as u.
func (s *Server) AddKey(key string, u User) { s.addAuth(key, u) }

// AddOAuthToken makes an OAuth access token, sent as "Bearer <token>",
// authenticate as u.
func (s *Server) AddOAuthToken(token string, u User) { s.addAuth("Bearer "+token, u) }

func (s *Server) addAuth(header string, u User) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.auth[header] = s.person(u)
}

// Inject answers the next request whose operation has root field route
// ("issueCreate", "issues") with r instead of the state; "*" matches any
// request. Injections for one route are used in the order given.
func (s *Server) Inject(route string, r Response) { s.rec.Inject(route, r) }

// Pending lists the routes of injected responses no request has used yet.
func (s *Server) Pending() []string { return s.rec.Pending() }

// Requests is every request received so far, oldest first.
func (s *Server) Requests() []Request { return s.rec.Requests() }

// ServeHTTP records the request, then answers it with an injected response
// or by running the operation against the state.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	rec := Request{Method: r.Method, Path: r.URL.Path, Query: r.URL.Query(), Header: r.Header.Clone(), Body: body}
	var in struct {
		Query     string         `json:"query"`
		Variables map[string]any `json:"variables"`
	}
	var op *operation
	var parseErr error
	if err := json.Unmarshal(body, &in); err == nil {
		rec.Variables = in.Variables
		if op, parseErr = parseOperation(in.Query); parseErr == nil {
			rec.Operation = op.name
			for _, f := range op.root {
				rec.Fields = append(rec.Fields, f.name)
			}
		}
	}
	resp, injected, _ := s.rec.Receive(func(in string) bool { return slices.Contains(rec.Fields, in) }, func(injected bool) Request {
		rec.Injected = injected
		return rec
	})

	s.usualHeaders(w.Header())
	if injected && !resp.FromState {
		s.rec.Answer(w, r, resp)
		return
	}
	var a answer
	switch {
	case r.Method != http.MethodPost || r.URL.Path != Path:
		a = answer{status: http.StatusNotFound, body: []byte("Not Found")}
	case op == nil && parseErr == nil:
		a = errorsAnswer(gqlError{Message: "Must provide query string.", Extensions: ext("graphql error", "GRAPHQL_PARSE_FAILED", 400, false, "")})
	case parseErr != nil:
		a = errorsAnswer(gqlError{Message: parseErr.Error(), Extensions: ext("graphql error", "GRAPHQL_PARSE_FAILED", 400, false, "")})
	default:
		s.mu.Lock()
		a = s.execute(r.Header.Get("Authorization"), op, in.Variables)
		s.mu.Unlock()
	}
	if injected && !s.rec.Wait(r, resp) {
		return // the work is done; the answer never arrives
	}
	w.WriteHeader(a.status)
	w.Write(a.body)
}

// usualHeaders are Linear's on every answer: the JSON type and both
// rate-limit budgets, far from spent, resetting ten minutes after the clock.
func (s *Server) usualHeaders(h http.Header) {
	reset := strconv.FormatInt(s.clock.Add(10*time.Minute).UnixMilli(), 10)
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("X-RateLimit-Requests-Limit", "5000")
	h.Set("X-RateLimit-Requests-Remaining", "4987")
	h.Set("X-RateLimit-Requests-Reset", reset)
	h.Set("X-Complexity", "41")
	h.Set("X-RateLimit-Complexity-Limit", "3000000")
	h.Set("X-RateLimit-Complexity-Remaining", "2999000")
	h.Set("X-RateLimit-Complexity-Reset", reset)
}

type answer struct {
	status int
	body   []byte
}

func jsonAnswer(status int, v any) answer {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic(err)
	}
	return answer{status: status, body: b.Bytes()}
}
