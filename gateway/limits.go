package gateway

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"google.golang.org/protobuf/proto"

	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/toolserver"
)

// What one account may make the gateway hold and write (issue 19): calls
// in flight at once, the bytes of one read's result, and per minute the
// calls and request bytes of its write and push arms. Past any of them the
// call is answered resource_exhausted with retry_after_ms, before a
// provider runs. The state is in memory, per gateway process: replicas
// each allow the configured amounts, and a restart forgets what was
// spent (docs/limits.md says so).

// Limits bounds one account. A zero field takes its Default value; the
// defaults are generous enough that an agent working normally never meets
// them.
type Limits struct {
	// InFlight is how many of the account's calls run at once.
	InFlight int
	// ResultBytes caps the (proto) size of a read's result. Providers
	// fetch what the renderer shows, so a result past it is a forge
	// sending a pathological artifact; writes are never refused after
	// they happened.
	ResultBytes int
	// WriteCallsPerMinute and WriteBytesPerMinute bound the arms whose
	// (tool).approval is APPROVAL_WRITE (comments, issues, reviews, CI);
	// PushCallsPerMinute and PushBytesPerMinute those with APPROVAL_PUSH
	// (branches, files, merges). Bytes are the request's proto size: the
	// text and file content the agent wrote, whatever the table.
	WriteCallsPerMinute int
	WriteBytesPerMinute int
	PushCallsPerMinute  int
	PushBytesPerMinute  int
	// PendingApprovals caps the account's calls parked for an operator and
	// not yet decided or expired. Unlike the others it is counted in the
	// store, so it holds across replicas and restarts: without it an agent
	// could fill the store (and the operator's queue) with distinct pushes
	// at the push quota's pace for the whole expiry.
	PendingApprovals int
}

// The defaults of Limits. At these, the memory a hostile forge can make
// one account's calls hold is bounded by DefaultInFlight answers of at
// most 16 MiB each being read (providers/internal/rest.MaxResponseBytes)
// plus their results; see docs/limits.md.
const (
	DefaultInFlight            = 64
	DefaultResultBytes         = 8 << 20
	DefaultWriteCallsPerMinute = 120
	DefaultWriteBytesPerMinute = 16 << 20
	DefaultPushCallsPerMinute  = 60
	DefaultPushBytesPerMinute  = 64 << 20
	DefaultPendingApprovals    = 100
)

// inFlightRetry is the hint an account at its in-flight cap gets: long
// enough for a read to finish, short enough not to stall an agent.
const inFlightRetry = 500 * time.Millisecond

func (l Limits) withDefaults() Limits {
	def := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&l.InFlight, DefaultInFlight)
	def(&l.ResultBytes, DefaultResultBytes)
	def(&l.WriteCallsPerMinute, DefaultWriteCallsPerMinute)
	def(&l.WriteBytesPerMinute, DefaultWriteBytesPerMinute)
	def(&l.PushCallsPerMinute, DefaultPushCallsPerMinute)
	def(&l.PushBytesPerMinute, DefaultPushBytesPerMinute)
	def(&l.PendingApprovals, DefaultPendingApprovals)
	return l
}

// meter is one account's limits and what it has spent of them.
type meter struct {
	limits   Limits
	inFlight atomic.Int64
	now      func() time.Time
	mu       sync.Mutex
	writes   quota
	pushes   quota
}

func newMeter(l Limits) *meter {
	l = l.withDefaults()
	return &meter{limits: l, now: time.Now,
		writes: quota{calls: bucket{rate: l.WriteCallsPerMinute}, bytes: bucket{rate: l.WriteBytesPerMinute}},
		pushes: quota{calls: bucket{rate: l.PushCallsPerMinute}, bytes: bucket{rate: l.PushBytesPerMinute}},
	}
}

// quota is the calls and bytes per minute of one kind of arm.
type quota struct{ calls, bytes bucket }

// bucket is a token bucket holding at most rate tokens, refilled at rate
// a minute. A take may overdraw it (a request larger than a minute's
// bytes still runs, once, from a full bucket); the next waits until it is
// positive again.
type bucket struct {
	rate   int
	tokens float64
	at     time.Time
}

func (b *bucket) refill(now time.Time) {
	if b.at.IsZero() {
		b.tokens, b.at = float64(b.rate), now
		return
	}
	b.tokens = min(float64(b.rate), b.tokens+now.Sub(b.at).Minutes()*float64(b.rate))
	b.at = now
}

// wait is how long until the bucket can give need (at least one) tokens.
func (b *bucket) wait(need float64) time.Duration {
	need = min(need, float64(b.rate))
	if b.tokens >= need {
		return 0
	}
	return time.Duration((need - b.tokens) / float64(b.rate) * float64(time.Minute))
}

// limited runs the call within its account's limits (see run).
func (s *Service) limited(ctx context.Context, o *operation, p Provider) (proto.Message, error) {
	release, err := s.admit(o)
	if err != nil {
		return nil, err
	}
	defer release()
	out, err := s.run(ctx, o, p)
	if err != nil {
		return nil, err
	}
	return out, s.checkResult(o, out)
}

// admit starts one call of o's account: it refuses past the in-flight cap
// or the arm's quota, else returns the release to call when it ends.
func (s *Service) admit(o *operation) (release func(), err error) {
	m := o.acct.meter
	if n := m.inFlight.Add(1); n > int64(m.limits.InFlight) {
		m.inFlight.Add(-1)
		return nil, exhausted(inFlightRetry, "account %q already has %d calls in flight, its limit; retry after one finishes", o.acct.Name, m.limits.InFlight)
	}
	release = func() { m.inFlight.Add(-1) }
	if err := m.charge(o); err != nil {
		release()
		return nil, err
	}
	return release, nil
}

// charge spends one call and the request's bytes of the arm's quota.
func (m *meter) charge(o *operation) error {
	var q *quota
	var kind string
	switch o.arm.Approval {
	case toolserver.ApprovalWrite:
		q, kind = &m.writes, "write"
	case toolserver.ApprovalPush:
		q, kind = &m.pushes, "push"
	default:
		return nil
	}
	size := proto.Size(o.req)
	m.mu.Lock()
	defer m.mu.Unlock()
	now := m.now()
	q.calls.refill(now)
	q.bytes.refill(now)
	if d := q.calls.wait(1); d > 0 {
		return exhausted(d, "account %q has made %d %s calls in the last minute, its limit", o.acct.Name, q.calls.rate, kind)
	}
	if d := q.bytes.wait(1); d > 0 {
		return exhausted(d, "account %q has written %d bytes in %s calls in the last minute, its limit", o.acct.Name, q.bytes.rate, kind)
	}
	q.calls.tokens--
	q.bytes.tokens -= float64(size)
	return nil
}

// checkResult refuses a read's result larger than the account's cap. A
// write's result is an acknowledgement and never refused: the write has
// happened, and a refusal would invite a repeat.
func (s *Service) checkResult(o *operation, out proto.Message) error {
	if o.arm.Approval != toolserver.ApprovalRead {
		return nil
	}
	if n, limit := proto.Size(out), o.acct.meter.limits.ResultBytes; n > limit {
		return refuse(gatewayv1.ErrorCode_ERROR_CODE_RESOURCE_EXHAUSTED,
			"the forge's answer to %s makes a result of %d bytes, over this gateway's limit of %d for one result; read a smaller part of it", o.tool, n, limit)
	}
	return nil
}

func exhausted(wait time.Duration, format string, args ...any) error {
	fe := failure(gatewayv1.ErrorCode_ERROR_CODE_RESOURCE_EXHAUSTED, format, args...)
	fe.RetryAfterMs = retryAfterMillis(max(wait, time.Millisecond))
	return inBand{fe}
}
