// Command forgetools-load measures what the gateway costs an agent: N
// concurrent agents, each on its own session's Unix socket, call
// forge_get_issue and then forge_create_issue on the embedded local forge
// as fast as answers come back, and the same agents call a bare Connect
// handler that answers at once with the same bytes (the baseline). It
// prints calls/s and p50/p99 latency for each, and the gateway/baseline
// ratios, which are the gateway's own cost: validation, scope, dedup,
// attribution, the store and the local forge. After each tool's two rows
// comes one line for scripts to read:
//
//	case=get_issue store=sqlite agents=16 calls_s=… p50_ms=… p99_ms=… baseline_calls_s=… ratio=… baseline_p50_ms=… baseline_p99_ms=… cpu_us=… baseline_cpu_us=… cpu_ratio=…
//
// where ratio is the gateway's calls/s over the baseline's, cpu_us is this
// process's CPU time per call (agents and gateway or baseline; with SQLite
// the store too, with PostgreSQL not the database server's), and cpu_ratio
// is the baseline's CPU per call over the gateway's: the calls/s ratio the
// two would reach on a CPU of their own, which on a shared machine holds
// far steadier than calls/s.
//
// The gateway runs in this process exactly as `forgetools serve` builds it
// (gateway/server on a store with the local forge), on a fresh SQLite file
// unless -store names another. Latency is measured from the agent's side:
// runtime.Toolset.Execute, JSON arguments in, rendered text out.
//
//	go run ./cmd/forgetools-load -agents 16 -calls 5000
//	go run ./cmd/forgetools-load -store "$FORGETOOLS_TEST_POSTGRES" -cpuprofile load.prof
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	goruntime "runtime"
	"runtime/pprof"
	"slices"
	"strings"
	"syscall"
	"time"
)

// Bounds on the flags: a load run is a measurement, never a soak.
const (
	maxAgents   = 256
	maxCalls    = 1_000_000
	maxDuration = 10 * time.Minute
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Stdout, os.Stderr))
}

// options are the parsed flags.
type options struct {
	agents   int
	calls    int
	duration time.Duration
	store    string
	logLevel slog.Level
	profile  string
	tool     string // "" for every workload
}

func parse(args []string, stderr io.Writer) (*options, error) {
	var o options
	var level string
	fs := flag.NewFlagSet("forgetools-load", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.IntVar(&o.agents, "agents", 16, fmt.Sprintf("concurrent agents, each on its own session socket (1-%d)", maxAgents))
	fs.IntVar(&o.calls, "calls", 2000, fmt.Sprintf("calls per tool and target, shared by the agents (1-%d)", maxCalls))
	fs.DurationVar(&o.duration, "duration", 0, fmt.Sprintf("also end each tool and target after this long (0: no limit; at most %s)", maxDuration))
	fs.StringVar(&o.store, "store", "", "gateway store: a SQLite file or a postgres:// DSN (its schema gets the gateway's tables); default a fresh SQLite file")
	fs.StringVar(&o.profile, "cpuprofile", "", "write a CPU profile of the measured calls (gateway, baseline and agents: one process) to this file")
	fs.StringVar(&o.tool, "tool", "", "measure only this tool ("+workloadNames()+"; default all), e.g. to profile one")
	fs.StringVar(&level, "log-level", "info", "gateway log level, as for forgetools serve (info is its default); the lines are formatted, then discarded")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: forgetools-load [flags]\n\nMeasure the gateway against a bare Connect handler with N concurrent agents over Unix sockets.\n\nExample:\n  forgetools-load -agents 16 -calls 5000\n\nFlags:\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	switch {
	case fs.NArg() > 0:
		return nil, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	case o.agents < 1 || o.agents > maxAgents:
		return nil, fmt.Errorf("-agents %d: want 1 to %d", o.agents, maxAgents)
	case o.calls < 1 || o.calls > maxCalls:
		return nil, fmt.Errorf("-calls %d: want 1 to %d", o.calls, maxCalls)
	case o.duration < 0 || o.duration > maxDuration:
		return nil, fmt.Errorf("-duration %s: want 0 to %s", o.duration, maxDuration)
	case o.tool != "" && !slices.ContainsFunc(workloads, func(w workload) bool { return w.tool == o.tool }):
		return nil, fmt.Errorf("-tool %q: want one of %s", o.tool, workloadNames())
	}
	if err := o.logLevel.UnmarshalText([]byte(level)); err != nil {
		return nil, fmt.Errorf("-log-level %q: want debug, info, warn or error", level)
	}
	return &o, nil
}

// run is the command: exit 0 when every call succeeded, 1 when a call
// failed or the targets could not start, 2 for bad flags.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	o, err := parse(args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		fmt.Fprintf(stderr, "forgetools-load: %v\n", err)
		return 2
	}
	if o.profile != "" {
		stopProfile, err := startProfile(o.profile)
		if err != nil {
			fmt.Fprintf(stderr, "forgetools-load: -cpuprofile: %v\n", err)
			return 1
		}
		defer stopProfile()
	}
	phases, err := measure(ctx, o, stdout)
	if err != nil {
		fmt.Fprintf(stderr, "forgetools-load: %v\n", err)
		return 1
	}
	code := 0
	for _, p := range phases {
		if p.errors > 0 {
			fmt.Fprintf(stderr, "forgetools-load: %d of %d %s calls to the %s failed; the first said: %s\n", p.errors, p.calls, p.tool, p.target, p.firstError)
			code = 1
		}
	}
	return code
}

// measure starts both targets, drives every workload against each and
// prints the table as it goes.
func measure(ctx context.Context, o *options, out io.Writer) ([]phase, error) {
	dir, err := shortTempDir()
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	dsn, kind := o.store, "postgresql"
	if dsn == "" {
		dsn = filepath.Join(dir, "gateway.db")
	}
	if !isPostgres(dsn) {
		kind = "sqlite"
	}
	log := slog.New(slog.NewTextHandler(io.Discard, &slog.HandlerOptions{Level: o.logLevel}))

	gw, canned, err := startGateway(ctx, dir, dsn, o.agents, log)
	if err != nil {
		return nil, fmt.Errorf("starting the gateway: %w", err)
	}
	defer gw.stop()
	base, err := startBaseline(dir, o.agents, canned)
	if err != nil {
		return nil, fmt.Errorf("starting the baseline: %w", err)
	}
	defer base.stop()

	limit := ""
	if o.duration > 0 {
		limit = fmt.Sprintf(" or %s", o.duration)
	}
	fmt.Fprintf(out, "forgetools-load: %d agents, one Unix socket each; %d calls%s per tool and target; gateway store %s, log level %s; GOMAXPROCS %d\n\n",
		o.agents, o.calls, limit, kind, o.logLevel, goruntime.GOMAXPROCS(0))
	fmt.Fprintf(out, "%-20s %-9s %8s %7s %10s %10s %10s\n", "tool", "target", "calls", "errors", "calls/s", "p50", "p99")

	var phases []phase
	for _, w := range workloads {
		if o.tool != "" && w.tool != o.tool {
			continue
		}
		var pair [2]phase
		for i, t := range []*target{base, gw} {
			agents, err := dial(t)
			if err != nil {
				return phases, err
			}
			p := drive(ctx, agents, t.name, w.tool, w.args, o.calls, o.duration)
			fmt.Fprintf(out, "%-20s %-9s %8d %7d %10.1f %10s %10s\n", p.tool, p.target, p.calls, p.errors, p.rate(), ms(p.p50), ms(p.p99))
			phases, pair[i] = append(phases, p), p
		}
		b, g := pair[0], pair[1]
		fmt.Fprintf(out, "%-20s gateway/baseline: calls/s %.2fx, p50 %.2fx, p99 %.2fx, CPU %.2fx\n",
			w.tool, ratio(g.rate(), b.rate()), ratio(g.p50.Seconds(), b.p50.Seconds()), ratio(g.p99.Seconds(), b.p99.Seconds()),
			ratio(b.cpuPerCall(), g.cpuPerCall()))
		fmt.Fprintf(out, "case=%s store=%s agents=%d calls_s=%.1f p50_ms=%.3f p99_ms=%.3f baseline_calls_s=%.1f ratio=%.2f "+
			"baseline_p50_ms=%.3f baseline_p99_ms=%.3f cpu_us=%.1f baseline_cpu_us=%.1f cpu_ratio=%.2f\n\n",
			strings.TrimPrefix(w.tool, "forge_"), kind, o.agents, g.rate(), msf(g.p50), msf(g.p99), b.rate(), ratio(g.rate(), b.rate()),
			msf(b.p50), msf(b.p99), g.cpuPerCall(), b.cpuPerCall(), ratio(b.cpuPerCall(), g.cpuPerCall()))
		if err := ctx.Err(); err != nil {
			return phases, err
		}
	}
	return phases, nil
}

func ms(d time.Duration) string { return fmt.Sprintf("%.3fms", msf(d)) }

func msf(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// startProfile starts a CPU profile into path and returns what stops it.
func startProfile(path string) (func(), error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, err
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}, nil
}

func ratio(a, b float64) float64 {
	if b == 0 {
		return 0
	}
	return a / b
}

func isPostgres(dsn string) bool {
	return strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://")
}
