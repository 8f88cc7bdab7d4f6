package main

import (
	"context"
	"fmt"
	"math"
	goruntime "runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/forgetools/forgetools/gen/forgetools/gateway/v1/gatewayv1tools"
	"github.com/forgetools/forgetools/runtime"
)

// The tools the driver measures, and the arguments agent i (0-based) sends.
var workloads = []workload{
	{"forge_get_issue", func(agent int) string {
		// Agent i reads the issue seeded for it: #i+1.
		return fmt.Sprintf(`{"repo":%q,"issue_number":%d}`, repo, agent+1)
	}},
	{"forge_create_issue", func(int) string {
		return fmt.Sprintf(`{"repo":%q,"title":%q,"body":%q,"labels":["bug","load"]}`, repo, issueTitle, issueBody)
	}},
}

// workload is one tool the agents call, with each agent's arguments.
type workload struct {
	tool string
	args func(agent int) string
}

// workloadNames lists the tools, for -tool's help and errors.
func workloadNames() string {
	names := make([]string, len(workloads))
	for i, w := range workloads {
		names[i] = w.tool
	}
	return strings.Join(names, ", ")
}

// phase is one tool measured against one target.
type phase struct {
	tool, target string
	calls        int           // completed calls, failed ones included
	errors       int           // calls whose result was a tool failure
	firstError   string        // the text of the first failure
	wall         time.Duration // from the first call to the last answer
	cpu          time.Duration // this process's CPU time over the same span
	p50, p99     time.Duration
}

// rate is completed calls per second of wall time.
func (p phase) rate() float64 {
	if p.wall <= 0 {
		return 0
	}
	return float64(p.calls) / p.wall.Seconds()
}

// cpuPerCall is this process's CPU time per completed call, in
// microseconds: agents, gateway (or baseline) and, on SQLite, the store
// together; a PostgreSQL server's own CPU is not in it. On a shared
// machine it moves far less than calls/s with the neighbours' load.
func (p phase) cpuPerCall() float64 {
	if p.calls == 0 {
		return 0
	}
	return float64(p.cpu.Microseconds()) / float64(p.calls)
}

// dial gives each agent its own toolset on its own socket, as separate
// agent processes would have.
func dial(t *target) ([]*runtime.Toolset, error) {
	out := make([]*runtime.Toolset, len(t.sockets))
	for i, s := range t.sockets {
		tr, err := runtime.DialGateway(gatewayv1tools.ForgeTools, s)
		if err != nil {
			return nil, err
		}
		if out[i], err = runtime.NewToolset(gatewayv1tools.ForgeTools, runtime.NewBroker(tr)); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// warmup is how many unmeasured calls each agent makes first, so
// connections are open and caches warm when the clock starts.
const warmup = 2

// drive has every agent call tool concurrently, as fast as answers come
// back, until calls calls have been started or limit has passed (zero: no
// limit), and measures each call from the agent's side: Execute, from the
// model's JSON arguments to the rendered text.
func drive(ctx context.Context, agents []*runtime.Toolset, targetName, tool string, args func(int) string, calls int, limit time.Duration) phase {
	var (
		next      atomic.Int64
		wg        sync.WaitGroup
		warm      sync.WaitGroup
		start     = make(chan struct{})
		mu        sync.Mutex
		latencies = make([]time.Duration, 0, calls)
		failures  int
		first     string
	)
	var deadline time.Time // set before start is closed
	warm.Add(len(agents))
	for i, ts := range agents {
		wg.Go(func() {
			a := args(i)
			call := func(seq int) runtime.Result {
				return ts.Execute(ctx, runtime.Call{ID: fmt.Sprintf("%s-%d-%d", targetName, i, seq), Name: tool, Args: []byte(a)})
			}
			for w := range warmup {
				call(-1 - w)
			}
			warm.Done()
			<-start
			var mine []time.Duration
			var bad int
			var text string
			for {
				n := next.Add(1)
				if n > int64(calls) || (!deadline.IsZero() && time.Now().After(deadline)) || ctx.Err() != nil {
					break
				}
				t0 := time.Now()
				res := call(int(n))
				mine = append(mine, time.Since(t0))
				if res.IsError {
					if bad++; bad == 1 {
						text = res.Text
					}
				}
			}
			mu.Lock()
			latencies = append(latencies, mine...)
			failures += bad
			if first == "" {
				first = text
			}
			mu.Unlock()
		})
	}
	warm.Wait()
	// Start every phase with a clean heap, so no phase pays for the
	// garbage of the one before it.
	goruntime.GC()
	t0, cpu0 := time.Now(), processCPU()
	if limit > 0 {
		deadline = t0.Add(limit)
	}
	close(start)
	wg.Wait()
	p := phase{tool: tool, target: targetName, calls: len(latencies), errors: failures, firstError: first,
		wall: time.Since(t0), cpu: processCPU() - cpu0}
	slices.Sort(latencies)
	p.p50, p.p99 = percentile(latencies, 0.50), percentile(latencies, 0.99)
	return p
}

// percentile is the nearest-rank percentile of sorted durations.
func percentile(sorted []time.Duration, q float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	i := int(math.Ceil(q*float64(len(sorted)))) - 1
	return sorted[max(i, 0)]
}
