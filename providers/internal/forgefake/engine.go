// Package forgefake is the engine the fake forge REST APIs (gitlabtest,
// giteatest, githubtest) run on: an httptest server that records every request and
// answers injected responses first, a ServeMux of the forge's routes
// below its API root, one lock around the state (internal/forgemodel:
// repositories, issues and pull requests, reviews, CI runs, and their
// numbering), and the answers, paging and ETags the routes send.
//
// What a forge speaks on the wire (its paths, JSON shapes, error bodies,
// paging headers, validation) is its fake's codec, written as route
// handlers over the model; the engine knows no forge.
package forgefake

import (
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"

	"github.com/forgetools/forgetools/internal/forgemodel"
	"github.com/forgetools/forgetools/providers/internal/recorder"
)

// Options configures an Engine.
type Options struct {
	// Root is the API root below the server's root ("/api/v4"); requests
	// outside it answer NotFound.
	Root string
	// Header sets the headers every answer carries (content type, rate
	// limits); it runs before an injected response's own.
	Header func(http.Header)
	// NotFound is the forge's answer to a path it has no route for.
	NotFound func() Answer
	// Validator names the ETag of a GET answer (see WriteConditional).
	Validator Validator
	// TLS serves HTTPS with the httptest certificate.
	TLS bool

	// What a forge keeps around its answers (githubtest's quotas,
	// credentials and checked exchanges); each is optional.

	// Unescaped records a request's path, and matches injections,
	// unescaped ("/repos/a b/x" for /repos/a%20b/x).
	Unescaped bool
	// Usual sets, after Header, the headers that depend on the request:
	// n counts the requests received, this one included (a request id).
	Usual func(h http.Header, req Request, n int)
	// Wrap, when set, answers every request below the API root in place
	// of the routes, the lock held: route answers a request with the
	// routes (false when none matches), and Wrap keeps what the forge
	// keeps around them (credentials, quotas, conditional answers).
	Wrap func(c *Call, route func(*http.Request) (Answer, bool)) Answer
	// Sign sets the forge's headers on a webhook delivery (its event,
	// id, signature; webhooks.go); DeliveryID names a delivery as it
	// leaves, the lock held (n counts the deliveries made).
	Sign       func(req *http.Request, d Delivery)
	DeliveryID func(h *forgemodel.Hook, n int) string
	// Exchange, when set, sees every exchange once it is answered (a
	// checked fake holds it to the forge's API description).
	Exchange func(Exchange)
}

// Request is one request as a fake received it.
type Request struct {
	Method string
	Path   string // below the API root, escaped as sent ("/projects/a%2Fb/issues"), or unescaped (Options.Unescaped)
	Query  url.Values
	Header http.Header
	Host   string
	Body   []byte
	// Injected is true when an injected response answered it.
	Injected bool
}

// Response is an injected answer (see recorder.Response).
type Response = recorder.Response

// Engine is a running fake forge. Its embedded Mutex guards State: route
// handlers run with it held, and a fake's seeding methods take it.
type Engine struct {
	*httptest.Server
	sync.Mutex
	forgemodel.State

	o      Options
	rec    *recorder.Recorder[Request]
	rt     *Router
	mounts map[string]mount

	outbox, delivered []Delivery // webhooks.go
}

// mount is a path outside the API root the fake serves (see Mount).
type mount struct {
	recordAs string
	h        Handler
}

// Call is one request a route handler answers.
type Call struct {
	R     *http.Request
	Path  string // below the API root, escaped as sent
	Query url.Values
	Body  []byte
}

// Value is the path wildcard name, unescaped ("group/sub/project" for a
// GitLab project id sent as group%2Fsub%2Fproject).
func (c *Call) Value(name string) string { return c.R.PathValue(name) }

// Int is the path wildcard name as a number; 0 when it is not one.
func (c *Call) Int(name string) int64 {
	n, err := strconv.ParseInt(c.R.PathValue(name), 10, 64)
	if err != nil {
		return 0
	}
	return n
}

// Handler answers a Call from the State, the Engine's lock held.
type Handler func(c *Call) Answer

// New starts an engine with no routes; Handle adds them.
func New(o Options) *Engine {
	e := &Engine{o: o, rec: recorder.New[Request](), rt: NewRouter(o.Root), State: forgemodel.NewState(), mounts: map[string]mount{}}
	if o.TLS {
		e.Server = httptest.NewTLSServer(e)
	} else {
		e.Server = httptest.NewServer(e)
	}
	return e
}

// Handle routes pattern, a ServeMux pattern below the API root ("GET
// /projects/{id}/issues/{iid}"; a method is required), to h. Wildcards
// match one escaped segment each, so a URL-encoded path (a%2Fb) is one
// segment whose Value is a/b.
func (e *Engine) Handle(pattern string, h Handler) { e.rt.Handle(pattern, h) }

// Mount serves path, outside the API root, with h (GitHub's GraphQL
// endpoint beside its REST root), recording its requests, and matching
// their injections, under the path recordAs. Wrap does not apply; the
// Exchange sees them with Mounted set.
func (e *Engine) Mount(path, recordAs string, h Handler) {
	e.mounts[path] = mount{recordAs: recordAs, h: h}
}

// serve answers r from the state, the lock held: through the mount h,
// the Wrap or the routes, or with the forge's 404.
func (e *Engine) serve(w http.ResponseWriter, r *http.Request, path string, body []byte, h Handler) {
	c := &Call{R: r, Path: path, Query: r.URL.Query(), Body: body}
	e.Lock()
	var a Answer
	ok := true
	switch {
	case h != nil:
		a = h(c)
	case e.o.Wrap != nil:
		a = e.o.Wrap(c, func(r *http.Request) (Answer, bool) { return e.rt.Route(r, body) })
	default:
		a, ok = e.rt.Route(r, body)
	}
	e.Unlock()
	if !ok {
		a = e.o.NotFound()
	}
	e.Flush() // the work is done: its webhooks leave, whether or not the answer does
	a.WriteConditional(w, r, e.o.Validator)
}

// Close releases held requests and stops the server.
func (e *Engine) Close() {
	e.rec.Close()
	e.Server.Close()
}

// Inject answers the next request matching route with r. A route is
// "METHOD /path" below the API root as sent (escaped), without the query,
// or "*" for any request.
func (e *Engine) Inject(route string, r Response) { e.rec.Inject(route, r) }

// Delay answers the next request matching route from the state at once
// (a write lands when it arrives) but holds the answer until release is
// closed, or for ever when release is nil: a forge that did the work and
// then stalled, or whose answer never came back.
func (e *Engine) Delay(route string, release <-chan struct{}) {
	e.rec.Inject(route, Response{FromState: true, Release: release, Hold: release == nil})
}

// Pending lists the routes of injected responses no request has used yet.
func (e *Engine) Pending() []string { return e.rec.Pending() }

// Requests is every request received so far, oldest first.
func (e *Engine) Requests() []Request { return e.rec.Requests() }

// Statuses is how many answers of each status the fake sent.
func (e *Engine) Statuses() map[int]int { return e.rec.Statuses() }

// Receive records a request another server of the fake received (a
// log store beside the API) under path, and takes the injection that
// answers it, if any; Reply writes that one.
func (e *Engine) Receive(r *http.Request, path string, body []byte) (resp Response, injected bool) {
	resp, injected, _ = e.receive(r, path, body)
	return resp, injected
}

// receive records r under path and takes its injection; n counts the
// requests received, this one included.
func (e *Engine) receive(r *http.Request, path string, body []byte) (resp Response, injected bool, n int) {
	route := r.Method + " " + path
	return e.rec.Receive(func(in string) bool { return in == route }, func(injected bool) Request {
		return Request{Method: r.Method, Path: path, Query: r.URL.Query(), Header: r.Header.Clone(), Host: r.Host, Body: body, Injected: injected}
	})
}

// Reply writes an injected response (see Receive).
func (e *Engine) Reply(w http.ResponseWriter, r *http.Request, resp Response) {
	e.rec.Answer(w, r, resp)
}

// ServeHTTP records the request, then answers it with an injected
// response or through the routes; the Exchange, when set, then sees it.
func (e *Engine) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w = e.rec.Writer(w)
	body, _ := io.ReadAll(r.Body)
	ex := Exchange{Method: r.Method, Query: r.URL.Query(), Header: r.Header, Body: body}
	if e.o.Exchange != nil {
		cw := &capture{ResponseWriter: w}
		w = cw
		defer func() {
			ex.Status, ex.ResponseHeader, ex.Response = cw.status, cw.Header(), cw.body.Bytes()
			e.o.Exchange(ex)
		}()
	}
	// Outside the root, CutPrefix leaves the whole path: recorded so.
	sent, under := strings.CutPrefix(r.URL.EscapedPath(), e.o.Root)
	path := sent
	if e.o.Unescaped {
		path, _ = strings.CutPrefix(r.URL.Path, e.o.Root)
	}
	m, mounted := e.mounts[r.URL.Path]
	if mounted {
		path, sent = m.recordAs, m.recordAs
	}
	ex.Path, ex.Sent, ex.Outside, ex.Mounted = path, sent, !under && !mounted, mounted
	resp, injected, n := e.receive(r, path, body)
	if e.o.Header != nil {
		e.o.Header(w.Header())
	}
	if e.o.Usual != nil {
		e.o.Usual(w.Header(), Request{Method: r.Method, Path: path, Query: ex.Query, Header: r.Header, Host: r.Host, Body: body, Injected: injected}, n)
	}
	if injected && !resp.FromState {
		ex.Scripted, ex.Off = true, resp.OffDescription
		e.rec.Answer(w, r, resp)
		return
	}
	if !under && !mounted {
		e.o.NotFound().Write(w, r)
		return
	}
	if !injected {
		e.serve(w, r, sent, body, m.h)
		return
	}
	// A FromState injection: the state answers now (a write lands), the
	// answer leaves when the injection releases it, or never.
	late := httptest.NewRecorder()
	e.serve(late, r, sent, body, m.h)
	if !e.rec.Wait(r, resp) {
		return
	}
	for k, vs := range late.Header() {
		w.Header()[k] = vs
	}
	w.WriteHeader(late.Code)
	w.Write(late.Body.Bytes())
}
