// Package recorder is the part the fake forge APIs (githubtest, lineartest)
// share: each records every request it receives, and can be told to answer
// the next request for a route with a scripted response instead of its
// state. What a route is, and what a recorded request holds, is each
// fake's own.
package recorder

import (
	"io"
	"net/http"
	"sync"
)

// Response is an injected answer, sent with the fake's usual headers
// (Header adds to or overrides them).
type Response struct {
	Status int // 0 = 200
	Header http.Header
	Body   string
	// Hold never answers: the fake waits until the client gives up (or
	// the fake closes), as an API that stopped responding would.
	Hold bool
	// Release, when set, delays the answer until it is closed (or the
	// client gives up, or the fake closes): a slow answer.
	Release <-chan struct{}
	// FromState answers from the fake's state instead of Status, Header
	// and Body, so a write takes effect when the request arrives; with
	// Release or Hold, the answer is what is late (a forge that did the
	// work and then stalled).
	FromState bool
	// OffDescription says why this answer departs from the forge's
	// published API description on purpose: a hostile or malformed
	// answer, or what the real forge sends against its own description.
	// A fake that holds its answers to the description leaves it
	// unchecked (githubtest.NewChecked); the request is still checked.
	OffDescription string
}

// Recorder holds a fake's received requests, of type R, and its injected
// responses. Make one with New.
type Recorder[R any] struct {
	mu       sync.Mutex
	requests []R
	injected []injection
	closed   chan struct{} // releases held answers
	statuses map[int]int   // answers sent, by status (statuses.go)
}

type injection struct {
	route string
	resp  Response
}

// New returns an empty Recorder.
func New[R any]() *Recorder[R] {
	return &Recorder[R]{closed: make(chan struct{})}
}

// Inject answers the next request matching route with resp; "*" matches
// any request. Injections for one route are used in the order given.
func (r *Recorder[R]) Inject(route string, resp Response) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.injected = append(r.injected, injection{route, resp})
}

// Pending lists the routes of injected responses no request has used yet.
func (r *Recorder[R]) Pending() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for _, in := range r.injected {
		out = append(out, in.route)
	}
	return out
}

// Requests is every request received so far, oldest first.
func (r *Recorder[R]) Requests() []R {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]R(nil), r.requests...)
}

// Receive takes the first injection whose route is "*" or satisfies
// matches, and records the request that record builds, told whether an
// injection answers it. Both happen at once, so requests are recorded in
// the order they took their injections. n counts the requests received,
// this one included.
func (r *Recorder[R]) Receive(matches func(route string) bool, record func(injected bool) R) (resp Response, injected bool, n int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for i, in := range r.injected {
		if in.route == "*" || matches(in.route) {
			r.injected = append(r.injected[:i], r.injected[i+1:]...)
			resp, injected = in.resp, true
			break
		}
	}
	r.requests = append(r.requests, record(injected))
	return resp, injected, len(r.requests)
}

// Answer writes resp to w: its headers over those already set, its status
// and body. A Hold response writes nothing until req's client gives up or
// the recorder closes.
func (r *Recorder[R]) Answer(w http.ResponseWriter, req *http.Request, resp Response) {
	if !r.Wait(req, resp) {
		return
	}
	for k, vs := range resp.Header {
		w.Header()[k] = vs
	}
	status := resp.Status
	if status == 0 {
		status = http.StatusOK
	}
	w.WriteHeader(status)
	io.WriteString(w, resp.Body)
}

// Wait delays an answer as resp asks (Hold, Release) and reports whether it
// should still be written: false when the client gave up, the fake closed,
// or resp holds for ever.
func (r *Recorder[R]) Wait(req *http.Request, resp Response) bool {
	release := resp.Release
	if resp.Hold {
		release = nil // a nil channel never fires
	} else if release == nil {
		return true
	}
	select {
	case <-release:
		return true
	case <-req.Context().Done():
	case <-r.closed:
	}
	return false
}

// Close releases held answers. It may be called more than once.
func (r *Recorder[R]) Close() {
	r.mu.Lock()
	defer r.mu.Unlock()
	select {
	case <-r.closed:
	default:
		close(r.closed)
	}
}
