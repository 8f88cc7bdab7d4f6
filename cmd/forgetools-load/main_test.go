package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/forgetools/forgetools/gateway/store/storetest"
)

// TestDriverReports runs the driver briefly on each store backend and
// checks that every call succeeded and the figures are printed. It never
// asserts on the figures themselves.
func TestDriverReports(t *testing.T) {
	storetest.Run(t, func(t *testing.T, dsn string) {
		var out, errs bytes.Buffer
		if code := run(context.Background(), []string{"-agents", "3", "-calls", "30", "-store", dsn}, &out, &errs); code != 0 {
			t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out.String(), errs.String())
		}
		for _, tool := range []string{"forge_get_issue", "forge_create_issue"} {
			for _, target := range []string{"baseline", "gateway"} {
				row := `(?m)^` + tool + ` +` + target + ` +30 +0 +\d+\.\d +\d+\.\d{3}ms +\d+\.\d{3}ms$`
				if !regexp.MustCompile(row).MatchString(out.String()) {
					t.Errorf("no row of 30 calls, 0 errors and figures for %s on the %s:\n%s", tool, target, out.String())
				}
			}
			ratio := `(?m)^` + tool + ` +gateway/baseline: calls/s \d+\.\d\dx, p50 \d+\.\d\dx, p99 \d+\.\d\dx, CPU \d+\.\d\dx$`
			if !regexp.MustCompile(ratio).MatchString(out.String()) {
				t.Errorf("no ratio line for %s:\n%s", tool, out.String())
			}
		}
		kind := map[bool]string{true: "postgresql", false: "sqlite"}[strings.HasPrefix(dsn, "postgres")]
		for _, c := range []string{"get_issue", "create_issue"} {
			line := `(?m)^case=` + c + ` store=` + kind + ` agents=3 calls_s=\d+\.\d p50_ms=\d+\.\d{3} p99_ms=\d+\.\d{3} ` +
				`baseline_calls_s=\d+\.\d ratio=\d+\.\d\d baseline_p50_ms=\d+\.\d{3} baseline_p99_ms=\d+\.\d{3} ` +
				`cpu_us=\d+\.\d baseline_cpu_us=\d+\.\d cpu_ratio=\d+\.\d\d$`
			if !regexp.MustCompile(line).MatchString(out.String()) {
				t.Errorf("no machine-readable line for %s:\n%s", c, out.String())
			}
		}
		if !strings.Contains(out.String(), "3 agents, one Unix socket each; 30 calls per tool and target; gateway store "+kind) {
			t.Errorf("header does not describe the run:\n%s", out.String())
		}
	})
}

// TestToolFlagMeasuresOneTool: -tool drives that tool alone, so a profile
// holds one workload's calls.
func TestToolFlagMeasuresOneTool(t *testing.T) {
	var out, errs bytes.Buffer
	if code := run(context.Background(), []string{"-agents", "2", "-calls", "10", "-tool", "forge_create_issue"}, &out, &errs); code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out.String(), errs.String())
	}
	if !strings.Contains(out.String(), "case=create_issue ") || strings.Contains(out.String(), "forge_get_issue") {
		t.Errorf("want forge_create_issue measured and forge_get_issue not:\n%s", out.String())
	}
}

// TestDriverStopsAtDuration: with a duration, each phase ends then rather
// than at a call count it would take minutes to reach (how many calls fit
// depends on the machine, so only the bound is checked).
func TestDriverStopsAtDuration(t *testing.T) {
	o := &options{agents: 2, calls: maxCalls, duration: 150 * time.Millisecond, store: storetest.SQLite(t)}
	var out bytes.Buffer
	phases, err := measure(context.Background(), o, &out)
	if err != nil {
		t.Fatal(err)
	}
	if len(phases) != 4 {
		t.Fatalf("%d phases, want 4:\n%s", len(phases), out.String())
	}
	for _, p := range phases {
		if p.errors != 0 || p.calls >= maxCalls || p.p50 > p.p99 {
			t.Errorf("%s on the %s: %d calls, %d errors (%s), p50 %s, p99 %s", p.tool, p.target, p.calls, p.errors, p.firstError, p.p50, p.p99)
		}
	}
}

// TestCPUProfile: -cpuprofile writes a profile: pprof's format is a
// gzipped protocol buffer, so it must decompress to something.
func TestCPUProfile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "load.prof")
	var out, errs bytes.Buffer
	args := []string{"-agents", "2", "-calls", "20", "-store", storetest.SQLite(t), "-cpuprofile", path}
	if code := run(context.Background(), args, &out, &errs); code != 0 {
		t.Fatalf("exit %d\nstderr:\n%s", code, errs.String())
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		t.Fatalf("the profile is not gzipped: %v", err)
	}
	if n, err := io.Copy(io.Discard, z); err != nil || n == 0 {
		t.Fatalf("the profile decompresses to %d bytes: %v", n, err)
	}
}

// TestFlagsAreBounded: bad or unbounded flags exit 2 with the reason.
func TestFlagsAreBounded(t *testing.T) {
	for args, want := range map[string]string{
		"-agents 0":         "-agents 0: want 1 to 256",
		"-agents 1000":      "-agents 1000: want 1 to 256",
		"-calls 0":          "-calls 0: want 1 to 1000000",
		"-duration 1h":      "-duration 1h0m0s: want 0 to 10m0s",
		"-log-level loud":   `-log-level "loud"`,
		"-agents 2 extra":   `unexpected argument "extra"`,
		"-no-such-flag":     "flag provided but not defined: -no-such-flag",
		"-calls many":       `invalid value "many" for flag -calls`,
		"-tool forge_merge": `-tool "forge_merge": want one of forge_get_issue, forge_create_issue`,
	} {
		var out, errs bytes.Buffer
		code := run(context.Background(), strings.Fields(args), &out, &errs)
		if code != 2 || !strings.Contains(errs.String(), want) || out.Len() != 0 {
			t.Errorf("%s: exit %d, stderr %q; want exit 2 and %q", args, code, errs.String(), want)
		}
	}
}
