package githubtest

import (
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"strconv"
	"time"

	"github.com/forgetools/forgetools/providers/internal/forgefake"
)

// Conditional requests and the hourly quota, as GitHub keeps them: every
// answer from the state carries an ETag; a GET whose If-None-Match names
// the current one is answered 304 Not Modified with no body, and GitHub
// does not count a 304 against the quota. Every other authenticated answer
// counts; once a login's quota is used up, it gets 403 with
// x-ratelimit-remaining: 0 until the quota is reset.

// DefaultQuota is a login's hourly quota (GitHub's for a token).
const DefaultQuota = 5000

type quota struct{ limit, used int }

// SetQuota gives login remaining requests out of DefaultQuota.
func (s *Server) SetQuota(login string, remaining int) {
	s.Lock()
	defer s.Unlock()
	s.quota(login).used = DefaultQuota - remaining
}

// Quota is how many requests login has left.
func (s *Server) Quota(login string) int {
	s.Lock()
	defer s.Unlock()
	q := s.quota(login)
	return q.limit - q.used
}

func (s *Server) quota(login string) *quota {
	q, ok := s.quotas[login]
	if !ok {
		q = &quota{limit: DefaultQuota}
		s.quotas[login] = q
	}
	return q
}

// answer answers a request below the API root from the state (the
// engine's Wrap), counting it against the caller's quota unless it is a
// 304; the engine's lock is held.
func (s *Server) answer(c *forgefake.Call, route func(*http.Request) (answer, bool)) answer {
	r := c.R
	login, authed := s.login(r.Header.Get("Authorization"))
	if !authed {
		return s.handle(c, route)
	}
	q := s.quota(login)
	if q.used >= q.limit {
		return answer{Status: http.StatusForbidden, Header: s.rateHeaders(q), Raw: []byte(Fixture("rate_limit_primary.json")), Type: jsonType}
	}
	a := s.handle(c, route)
	if a.Header == nil {
		a.Header = http.Header{}
	}
	if r.Method == http.MethodGet && a.Status == http.StatusOK {
		tag := etag(a.Raw)
		if forgefake.IfNoneMatch(r.Header.Get("If-None-Match"), tag) {
			h := s.rateHeaders(q)
			h.Set("ETag", tag)
			return answer{Status: http.StatusNotModified, Header: h}
		}
		a.Header.Set("ETag", tag)
	}
	q.used++
	for k, v := range s.rateHeaders(q) {
		a.Header[k] = v
	}
	return a
}

// rateHeaders are the x-ratelimit-* headers of a quota.
func (s *Server) rateHeaders(q *quota) http.Header {
	h := http.Header{}
	h.Set("X-RateLimit-Limit", strconv.Itoa(q.limit))
	h.Set("X-RateLimit-Remaining", strconv.Itoa(max(q.limit-q.used, 0)))
	h.Set("X-RateLimit-Used", strconv.Itoa(q.used))
	h.Set("X-RateLimit-Reset", strconv.FormatInt(s.clock.Add(40*time.Minute).Unix(), 10))
	h.Set("X-RateLimit-Resource", "core")
	return h
}

// etag is GitHub's weak validator of an answer body.
func etag(body []byte) string {
	sum := sha256.Sum256(body)
	return `W/"` + hex.EncodeToString(sum[:]) + `"`
}
