package layering_test

import (
	"encoding/json"
	"fmt"
	"go/parser"
	"go/token"
	"io"
	"maps"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// The direction of the imports, as a table: each rule names the packages
// it binds (from) and what they must not import, directly or through
// any package in between (deny), less its exceptions (allow). Patterns
// are module-relative: "gateway" is that package, "gateway/..." it and
// everything below, and a "*" stands for part of one path element
// ("gen/.../*tools"). docs/architecture.md draws the same picture.
//
// A new rule is one more row here; TestEveryRuleCatchesAViolation then
// proves it reports what it forbids. A rule kept in a file of its own
// calls enforce(t, rule{...}) from its test.
var rules = []rule{
	{
		name: "providers are leaf adapters",
		why: "a provider builds on the contract (handler, handler/notify), the generated packages, the provider kit " +
			"(providers/internal/...) and its forge's SDK; what the gateway and the subscriptions tier need from it they " +
			"ask through interfaces they own (poll.Source, webhook.Source, notify.Recorder), wired in internal/cli",
		from:  []string{"providers/..."},
		deny:  []string{"gateway/...", "subscriptions/...", "internal/migrate", "internal/cli/...", "cmd/..."},
		allow: []string{"gateway/store/storetest"}, // tests' fresh SQLite file and PostgreSQL schema; imports nothing of the gateway
		tests: true,
	},
	{
		name: "the subscriptions tier sits below the gateway",
		why: "subscriptions keep their state in the gateway store but take the caller from the gateway as a function " +
			"(feed.Handler's identify, gateway.CallerFrom), never by importing the Service",
		from:  []string{"subscriptions/..."},
		deny:  []string{"gateway/...", "internal/cli/...", "cmd/..."},
		allow: []string{"gateway/store/..."},
		tests: true,
	},
	{
		name: "the contract sits below every tier that uses it",
		why:  "toolserver and toolserver/notify are what providers, subscriptions and the gateway agree on; they import none of them",
		from: []string{"toolserver/..."},
		deny: []string{"gateway/...", "subscriptions/...", "providers/...", "runtime/...", "internal/...", "cmd/..."},
	},
	{
		name: "the server tier does not link the agent runtime",
		why: "a gateway deployment carries no tool schemas, decoders or renderers: those are the runtime's and the " +
			"generated <pkg>tools packages'",
		from: []string{"gateway/...", "providers/...", "toolserver/...", "subscriptions/..."},
		deny: []string{"runtime/...", "gen/.../*tools"},
	},
}

// rule is one row of the table.
type rule struct {
	name, why         string
	from, deny, allow []string
	// tests binds the packages' test files too (what their tests import,
	// and what that leads to); otherwise only what a build links.
	tests bool
}

// forbids reports whether the rule forbids a package it binds to import p.
func (r rule) forbids(p string) bool {
	return matchAny(r.deny, p) && !matchAny(r.allow, p)
}

// TestImportRules enforces every rule of the table on the module.
func TestImportRules(t *testing.T) {
	for _, r := range rules {
		t.Run(strings.ReplaceAll(r.name, " ", "_"), func(t *testing.T) { enforce(t, r) })
	}
}

// TestEveryRuleCatchesAViolation runs each rule on a synthetic module in
// which a package it binds imports what it forbids, directly and through
// a neutral package, and imports what it allows: the first two are
// reported with the importing file and line, the last is not.
func TestEveryRuleCatchesAViolation(t *testing.T) {
	for _, r := range rules {
		t.Run(strings.ReplaceAll(r.name, " ", "_"), func(t *testing.T) {
			from, bad := instance(r.from[0]), instance(r.deny[0])
			direct := graph{
				from: {path: from, imports: []edge{{to: bad, pos: from + "/a.go:7"}}},
				bad:  {path: bad},
			}
			if got := violations(r, direct); len(got) != 1 || !strings.Contains(got[0], from+"/a.go:7") || !strings.Contains(got[0], bad) {
				t.Errorf("a direct import of %s from %s: reported %q", bad, from, got)
			}
			indirect := graph{
				from:              {path: from, imports: []edge{{to: "neutral/between", pos: from + "/b.go:9"}}},
				"neutral/between": {path: "neutral/between", imports: []edge{{to: bad, pos: "neutral/between/c.go:3"}}},
				bad:               {path: bad},
			}
			if got := violations(r, indirect); len(got) != 1 || !strings.Contains(got[0], from+"/b.go:9") || !strings.Contains(got[0], "neutral/between -> "+bad) {
				t.Errorf("an import of %s through neutral/between: reported %q", bad, got)
			}
			inTest := graph{from: {path: from, testImports: []edge{{to: bad, pos: from + "/a_test.go:5"}}}, bad: {path: bad}}
			if got := violations(r, inTest); r.tests != (len(got) == 1) {
				t.Errorf("an import of %s from a test file (rule binds tests: %t): reported %q", bad, r.tests, got)
			}
			for _, ok := range r.allow {
				good := instance(ok)
				allowed := graph{from: {path: from, imports: []edge{{to: good, pos: from + "/a.go:8"}}}, good: {path: good}}
				if got := violations(r, allowed); len(got) != 0 {
					t.Errorf("an allowed import of %s: reported %q", good, got)
				}
			}
		})
	}
}

// TestPatterns pins the pattern language of the table.
func TestPatterns(t *testing.T) {
	for _, tc := range []struct {
		pattern, path string
		want          bool
	}{
		{"gateway", "gateway", true},
		{"gateway", "gateway/store", false},
		{"gateway/...", "gateway", true},
		{"gateway/...", "gateway/store/storetest", true},
		{"gateway/...", "gatewayx", false},
		{"gen/.../*tools", "gen/forgetools/gateway/v1/gatewayv1tools", true},
		{"gen/.../*tools", "gen/forgetools/gateway/v1/gatewayv1handler", false},
		{"internal/migrate", "internal/migrate", true},
		{"internal/migrate", "internal/migratex", false},
	} {
		if got := match(tc.pattern, tc.path); got != tc.want {
			t.Errorf("match(%q, %q) = %t, want %t", tc.pattern, tc.path, got, tc.want)
		}
	}
}

// enforce fails t with every import in the module that r forbids, each
// at the file and line of the import that starts the path to it.
func enforce(t *testing.T, r rule) {
	t.Helper()
	g := module1.load(t)
	bound := 0
	for p := range g {
		if matchAny(r.from, p) {
			bound++
		}
	}
	if bound == 0 {
		t.Fatalf("rule %q binds no package of the module: is its from pattern right?", r.name)
	}
	for _, v := range violations(r, g) {
		t.Errorf("%s\n\trule: %s: %s", v, r.name, r.why)
	}
}

// violations lists, for every package of g that r binds, each import that
// leads to a package r forbids: the import's position, the path it
// takes.
func violations(r rule, g graph) []string {
	var out []string
	for _, p := range slices.Sorted(maps.Keys(g)) {
		if !matchAny(r.from, p) {
			continue
		}
		pk := g[p]
		starts := pk.imports
		if r.tests {
			starts = append(slices.Clip(starts), pk.testImports...)
		}
		for _, e := range starts {
			if e.to == p {
				continue // an external test package imports the package it tests
			}
			if chain := g.pathTo(e.to, r.forbids); chain != nil {
				out = append(out, fmt.Sprintf("%s: %s imports %s", e.pos, p, strings.Join(chain, " -> ")))
			}
		}
	}
	return out
}

// graph is the module's packages by module-relative path.
type graph map[string]*pkg

type pkg struct {
	path string
	// imports are the module packages its build files import; testImports
	// those its test files add.
	imports, testImports []edge
}

type edge struct{ to, pos string }

// pathTo is the shortest import path from start (itself included) to a
// package bad accepts, through the build files of the packages between;
// nil when there is none.
func (g graph) pathTo(start string, bad func(string) bool) []string {
	prev := map[string]string{start: ""}
	queue := []string{start}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		if bad(p) {
			var chain []string
			for ; p != ""; p = prev[p] {
				chain = append([]string{p}, chain...)
			}
			return chain
		}
		if pk, ok := g[p]; ok {
			for _, e := range pk.imports {
				if _, seen := prev[e.to]; !seen {
					prev[e.to] = p
					queue = append(queue, e.to)
				}
			}
		}
	}
	return nil
}

// module1 is the module's graph, read once for every rule.
var module1 moduleOnce

type moduleOnce struct {
	once sync.Once
	g    graph
	err  error
}

func (m *moduleOnce) load(t *testing.T) graph {
	t.Helper()
	m.once.Do(func() { m.g, m.err = loadModule() })
	if m.err != nil {
		t.Fatal(m.err)
	}
	return m.g
}

// loadModule reads the module's import graph with go list, each import
// placed at its file and line. Imports from outside the module are left
// out: nothing outside can import back in.
func loadModule() (graph, error) {
	root, err := filepath.Abs("../..")
	if err != nil {
		return nil, err
	}
	cmd := exec.Command("go", "list", "-e", "-json=ImportPath,Dir,GoFiles,CgoFiles,TestGoFiles,XTestGoFiles,Error", "./...")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list: %w", err)
	}
	g := graph{}
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for {
		var lp struct {
			ImportPath, Dir                              string
			GoFiles, CgoFiles, TestGoFiles, XTestGoFiles []string
			Error                                        *struct{ Err string }
		}
		if err := dec.Decode(&lp); err == io.EOF {
			break
		} else if err != nil {
			return nil, err
		}
		if lp.Error != nil {
			return nil, fmt.Errorf("go list %s: %s", lp.ImportPath, lp.Error.Err)
		}
		rel, ok := relative(lp.ImportPath)
		if !ok {
			continue
		}
		p := &pkg{path: rel}
		if p.imports, err = fileImports(root, lp.Dir, append(lp.GoFiles, lp.CgoFiles...)); err != nil {
			return nil, err
		}
		if p.testImports, err = fileImports(root, lp.Dir, append(lp.TestGoFiles, lp.XTestGoFiles...)); err != nil {
			return nil, err
		}
		g[rel] = p
	}
	if len(g) < 50 {
		return nil, fmt.Errorf("go list found only %d packages in the module; is the pattern right?", len(g))
	}
	return g, nil
}

// fileImports are the module imports of files in dir, at their positions
// relative to the module root.
func fileImports(root, dir string, files []string) ([]edge, error) {
	var out []edge
	fset := token.NewFileSet()
	for _, name := range files {
		f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, parser.ImportsOnly)
		if err != nil {
			return nil, err
		}
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if rel, ok := relative(p); ok {
				pos := fset.Position(imp.Pos())
				file, _ := filepath.Rel(root, pos.Filename)
				out = append(out, edge{to: rel, pos: fmt.Sprintf("%s:%d", filepath.ToSlash(file), pos.Line)})
			}
		}
	}
	return out, nil
}

// relative is an import path relative to the module root, if it is in the
// module.
func relative(importPath string) (string, bool) {
	return strings.CutPrefix(importPath, module+"/")
}

func matchAny(patterns []string, p string) bool {
	return slices.ContainsFunc(patterns, func(pat string) bool { return match(pat, p) })
}

// match reports whether the module-relative path p matches pattern: a
// "..." element matches any number of elements (none included), any other
// element is a filepath.Match pattern of one element.
func match(pattern, p string) bool {
	return matchElems(strings.Split(pattern, "/"), strings.Split(p, "/"))
}

func matchElems(pat, elems []string) bool {
	if len(pat) == 0 {
		return len(elems) == 0
	}
	if pat[0] == "..." {
		for i := 0; i <= len(elems); i++ {
			if matchElems(pat[1:], elems[i:]) {
				return true
			}
		}
		return false
	}
	if len(elems) == 0 {
		return false
	}
	ok, err := filepath.Match(pat[0], elems[0])
	return err == nil && ok && matchElems(pat[1:], elems[1:])
}

// instance is a package path pattern matches, for the synthetic modules.
func instance(pattern string) string {
	return strings.NewReplacer("...", "synthetic", "*", "synthetic").Replace(pattern)
}
