package github

import (
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	gh "github.com/google/go-github/v84/github"

	"github.com/forgetools/forgetools/providers/internal/rest"
)

// rateGate is what the provider believes about one credential's rate
// limit, and the only place that acts on it. It replaces go-github's own
// memory (DisableRateLimitCheck), which believes whatever x-ratelimit-reset
// says: one answer naming a reset years ahead made go-github refuse every
// later call locally ("not making remote request") until the gateway
// restarted.
//
// The gate sits in the HTTP transport, so it sees every answer, reads and
// writes alike. A rate-limited answer closes it until the wait the answer
// names, clamped at rest.MaxWait (GitHub's quota windows are an hour, so a
// longer wait is a garbled header, not advice); while closed, a request
// fails at once with a *gateClosed and never leaves. Any other answer GitHub
// gives (a success, a 404, a 422: anything but a limit or a 5xx) opens it
// again: GitHub is answering.
//
// The search API has a quota of its own (30 requests a minute), so its
// requests pass a gate of their own: a search limit stops searches only,
// and the core quota's limit does not stop searches.
type rateGate struct {
	next http.RoundTripper
	now  func() time.Time

	mu    sync.Mutex
	gates map[string]closedUntil // by quota (quotaOf)
}

// closedUntil is one quota's gate: closed before until, for reason.
type closedUntil struct {
	until  time.Time
	reason string
}

// quotaOf is the quota a request counts against: "search" for the search
// API (/search/..., below /api/v3 on Enterprise Server; not a repository
// whose owner is named search), "" for the rest.
func quotaOf(r *http.Request) string {
	if before, _, ok := strings.Cut(r.URL.Path, "/search/"); ok && (before == "" || before == "/api/v3") {
		return "search"
	}
	return ""
}

// gateClosed is a request the gate refused: an earlier answer asked to
// wait until until.
type gateClosed struct {
	until  time.Time
	reason string
}

func (e *gateClosed) Error() string {
	return fmt.Sprintf("%s: not calling GitHub again before %s, as an earlier answer asked",
		e.reason, e.until.UTC().Format(time.RFC3339))
}

func (g *rateGate) RoundTrip(r *http.Request) (*http.Response, error) {
	quota := quotaOf(r)
	g.mu.Lock()
	closed := g.gates[quota]
	g.mu.Unlock()
	if g.now().Before(closed.until) {
		if r.Body != nil {
			r.Body.Close() // RoundTrip owns the body, even when refusing.
		}
		return nil, &gateClosed{until: closed.until, reason: closed.reason}
	}
	resp, err := g.next.RoundTrip(r)
	if err == nil {
		g.observe(quota, resp)
	}
	return resp, err
}

// observe moves the gate of quota on one answer.
func (g *rateGate) observe(quota string, resp *http.Response) {
	wait, reason, limited := g.limit(resp)
	if !limited && resp.StatusCode >= 500 {
		return // an outage says nothing about the limit
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if !limited {
		delete(g.gates, quota)
		return
	}
	if until := g.now().Add(min(wait, rest.MaxWait)); until.After(g.gates[quota].until) {
		if g.gates == nil {
			g.gates = map[string]closedUntil{}
		}
		g.gates[quota] = closedUntil{until, reason}
	}
}

// limit reads whether an answer is a rate limit, how long it asks to wait
// and which limit it is: GitHub's primary limit (403 or 429 with
// x-ratelimit-remaining 0), or a secondary one (a 429, or a 403 that names
// a wait); a secondary limit naming no wait gets the guide's minute.
func (g *rateGate) limit(resp *http.Response) (wait time.Duration, reason string, limited bool) {
	if resp.StatusCode != http.StatusForbidden && resp.StatusCode != http.StatusTooManyRequests {
		return 0, "", false
	}
	wait, named := headerWait(resp, g.now())
	switch {
	case resp.Header.Get(gh.HeaderRateRemaining) == "0":
		return max(wait, time.Second), "GitHub rate limit exhausted", true
	case named || resp.StatusCode == http.StatusTooManyRequests:
		if !named {
			wait = rest.UnspecifiedWait
		}
		return max(wait, time.Second), "GitHub secondary rate limit", true
	}
	return 0, "", false // a plain 403: a permission, not a limit
}
