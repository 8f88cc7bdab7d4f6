package githubtest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/forgetools/forgetools/providers/github/githubtest/openapi"
	"github.com/forgetools/forgetools/providers/internal/forgefake"
)

// NewChecked starts a fake GitHub (as New) whose every exchange is held to
// GitHub's published REST API description (package openapi): each request
// is matched to an operation of api.github.com's description, or of
// Enterprise Server's when the API is mounted under a prefix (/api/v3, as
// only Enterprise Server serves it), and
// validated with the response the fake gave. Each mismatch fails t when
// the test ends, naming the operation and the JSON path. Every test that
// drives the provider constructs its fake through here.
//
// Injected answers are validated too, except those with a status the
// operation does not document, a body that is not JSON, or an
// OffDescription reason: a test scripts those on purpose (a 502, a
// truncated body, a hostile answer, what GitHub sends against its own
// description), and what the provider does with them is the test's
// subject, not the fake's. Their requests are checked all the same.
//
// Without the descriptions installed (scripts/test installs them) it
// checks nothing and says so in t's log, unless FORGETOOLS_REQUIRE_OCTOKIT=1
// (set by scripts/test), where it fails t.
func NewChecked(t testing.TB, o Options) *Server {
	t.Helper()
	load := openapi.Dotcom
	if o.PathPrefix != "" {
		load = openapi.Enterprise
	}
	d, err := load()
	s := New(o)
	s.checkGraphQL(t)
	switch {
	case err == openapi.ErrMissing: // not installed, and not required
		t.Logf("githubtest: not checked against GitHub's description: %v", err)
		return s
	case err != nil:
		s.Close()
		t.Fatalf("githubtest: %v", err)
	}
	c := &checker{d: d, prefix: s.prefix}
	s.check = c.check
	t.Cleanup(func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		for _, e := range c.errs {
			t.Errorf("githubtest: the exchange departs from GitHub's description %s: %v", d.Name, e)
		}
		c.errs = nil
	})
	return s
}

// checker validates one fake's exchanges and keeps what failed.
type checker struct {
	d      *openapi.Description
	prefix string
	mu     sync.Mutex
	errs   []error
}

// check holds one exchange to the description; an injected answer
// (scripted) is left unchecked when its status is not documented, its
// body is not JSON, or it departs on purpose (off).
func (c *checker) check(fx forgefake.Exchange) {
	if fx.Outside {
		c.fail([]error{errors.New(fx.Method + " " + fx.Sent + " is outside the API root " + c.prefix)})
		return
	}
	ex := openapi.Exchange{Method: fx.Method, Path: fx.Sent, Query: fx.Query,
		ContentType: fx.Header.Get("Content-Type"), Body: fx.Body}
	if fx.Status != 0 {
		ex.Status, ex.ResponseType, ex.Response = fx.Status, fx.ResponseHeader.Get("Content-Type"), fx.Response
	}
	injected, off := fx.Scripted, fx.Off != ""
	op, err := c.d.Match(ex.Method, ex.Path)
	var errs []error
	switch {
	case err != nil:
		errs = []error{err}
	default:
		errs = c.d.CheckRequest(op, ex)
		body := bytes.TrimSpace(ex.Response)
		scripted := off || injected && (!c.d.Documents(op, ex.Status) || (len(body) > 0 && !json.Valid(body)))
		// Status 0: the answer was held and never written.
		if !scripted && ex.Status != 0 {
			errs = append(errs, c.d.CheckResponse(op, ex)...)
		}
		tally.add(c.d.Name, op.ID)
	}
	c.fail(errs)
}

func (c *checker) fail(errs []error) {
	if len(errs) > 0 {
		c.mu.Lock()
		c.errs = append(c.errs, errs...)
		c.mu.Unlock()
	}
}

// tally counts, per test binary, the exchanges checked and the distinct
// operations they reached, per description.
var tally = &counts{ops: map[string]map[string]int{}}

type counts struct {
	mu        sync.Mutex
	exchanges int
	ops       map[string]map[string]int // description -> operationId -> exchanges
}

func (c *counts) add(desc, op string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.exchanges++
	if c.ops[desc] == nil {
		c.ops[desc] = map[string]int{}
	}
	c.ops[desc][op]++
}

// CheckedSummary is one line saying how many exchanges this test binary
// held to GitHub's descriptions and how many distinct operations they
// reached; "" when none was checked.
func CheckedSummary() string {
	tally.mu.Lock()
	defer tally.mu.Unlock()
	if tally.exchanges == 0 {
		return ""
	}
	names := make([]string, 0, len(tally.ops))
	for n := range tally.ops {
		names = append(names, n)
	}
	sort.Strings(names)
	var parts []string
	for _, n := range names {
		parts = append(parts, fmt.Sprintf("%s %d", n, len(tally.ops[n])))
	}
	return fmt.Sprintf("githubtest: %s: %d exchanges held to @octokit/openapi@%s, distinct operations: %s",
		pkg(), tally.exchanges, openapi.Version, strings.Join(parts, ", "))
}

// pkg is the test binary's name (go test names it after its package).
func pkg() string { return strings.TrimSuffix(filepath.Base(os.Args[0]), ".test") }

// EnvSummary names a file ReportChecked appends its line to, so a test
// run can print the figures of every package (go test shows a passing
// package's output only with -v).
const EnvSummary = "FORGETOOLS_OCTOKIT_SUMMARY"

// ReportChecked prints CheckedSummary, and appends it to the file
// EnvSummary names; call it from TestMain after m.Run.
func ReportChecked() {
	line := CheckedSummary()
	if line == "" {
		return
	}
	fmt.Println(line)
	if path := os.Getenv(EnvSummary); path != "" {
		f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err != nil {
			fmt.Fprintln(os.Stderr, "githubtest:", err)
			return
		}
		defer f.Close()
		fmt.Fprintln(f, line)
	}
}
