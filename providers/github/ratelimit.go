package github

import (
	"fmt"
	"net/http"
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
type rateGate struct {
	next http.RoundTripper
	now  func() time.Time

	mu     sync.Mutex
	until  time.Time
	reason string
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
	g.mu.Lock()
	until, reason := g.until, g.reason
	g.mu.Unlock()
	if g.now().Before(until) {
		if r.Body != nil {
			r.Body.Close() // RoundTrip owns the body, even when refusing.
		}
		return nil, &gateClosed{until: until, reason: reason}
	}
	resp, err := g.next.RoundTrip(r)
	if err == nil {
		g.observe(resp)
	}
	return resp, err
}

// observe moves the gate on one answer.
func (g *rateGate) observe(resp *http.Response) {
	wait, reason, limited := g.limit(resp)
	if !limited && resp.StatusCode >= 500 {
		return // an outage says nothing about the limit
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if !limited {
		g.until, g.reason = time.Time{}, ""
		return
	}
	if until := g.now().Add(min(wait, rest.MaxWait)); until.After(g.until) {
		g.until, g.reason = until, reason
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
