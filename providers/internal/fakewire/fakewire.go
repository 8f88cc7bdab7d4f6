// Package fakewire is the plumbing the JSON REST fakes (giteatest,
// gitlabtest) share below their routes: an answer (status, headers, a
// JSON body or raw text) and how it is written, and the counters a fake's
// state draws ids, times and user ids from. What a route answers is each
// fake's own.
package fakewire

import (
	"bytes"
	"crypto/sha1"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"time"
)

// Answer is one response from a fake's state.
type Answer struct {
	Status int
	Header http.Header
	// Body is encoded as JSON (not HTML-escaped, as forges send it); nil
	// sends no body.
	Body any
	// Raw, when set, is sent as text/plain instead of Body (job logs).
	Raw []byte
}

// OK is a 200 with a JSON body.
func OK(v any) Answer { return Answer{Status: http.StatusOK, Body: v} }

// Created is a 201 with a JSON body.
func Created(v any) Answer { return Answer{Status: http.StatusCreated, Body: v} }

// Write sends a to w; a HEAD answer carries headers only.
func (a Answer) Write(w http.ResponseWriter, r *http.Request) {
	for k, vs := range a.Header {
		w.Header()[k] = vs
	}
	if a.Raw != nil {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.WriteHeader(a.Status)
		w.Write(a.Raw)
		return
	}
	w.WriteHeader(a.Status)
	if a.Body == nil || r.Method == http.MethodHead || a.Status == http.StatusNoContent {
		return
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.Encode(a.Body)
}

// Decode reads a JSON request body into v, reporting whether it could.
func Decode(body []byte, v any) bool {
	return json.NewDecoder(bytes.NewReader(body)).Decode(v) == nil
}

// Counters are where a fake's state draws its numbers from. The zero
// value starts ids after 100 and times at the current second; callers
// hold the fake's lock.
type Counters struct {
	// Clock is the fake's "now"; zero = the current time in whole seconds.
	Clock time.Time
	ids   int64
	ticks int
	users map[string]int64
}

// ID is the next id; one sequence for every kind keeps ids unique.
func (c *Counters) ID() int64 {
	if c.ids < 100 {
		c.ids = 100
	}
	c.ids++
	return c.ids
}

// Now is the fake's "now".
func (c *Counters) Now() time.Time {
	if c.Clock.IsZero() {
		c.Clock = time.Unix(time.Now().Unix(), 0)
	}
	return c.Clock
}

// Tick is the time of the next thing created: a second after the last.
func (c *Counters) Tick() time.Time {
	c.ticks++
	return c.Now().Add(time.Duration(c.ticks) * time.Second)
}

// User is name's numeric id, assigned on first sight from 1.
func (c *Counters) User(name string) int64 {
	if c.users == nil {
		c.users = map[string]int64{}
	}
	id, ok := c.users[name]
	if !ok {
		id = int64(1 + len(c.users))
		c.users[name] = id
	}
	return id
}

// UserName is the name with id, if one was seen.
func (c *Counters) UserName(id int64) (string, bool) {
	for name, uid := range c.users {
		if uid == id {
			return name, true
		}
	}
	return "", false
}

// KnownUser reports whether name was seen.
func (c *Counters) KnownUser(name string) bool {
	_, ok := c.users[name]
	return ok
}

// BlobSHA is git's blob id of content, as a forge reports a file's sha.
func BlobSHA(content string) string {
	sum := sha1.Sum(fmt.Appendf(nil, "blob %d\x00%s", len(content), content))
	return hex.EncodeToString(sum[:])
}

// SHA is a stable fake 40-digit id of whatever describes a state.
func SHA(state string) string {
	sum := sha1.Sum([]byte(state))
	return hex.EncodeToString(sum[:])
}

// Or is s, or def when s is empty.
func Or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
