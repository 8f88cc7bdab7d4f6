// Package fuzztargets_test keeps .ci/fuzz-targets honest: CI fuzzes exactly
// the targets listed there, so a target added to the tree but not to the
// list would never be fuzzed, and one listed but gone would fail CI late.
package fuzztargets_test

import (
	"bufio"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const root = "../.."

// inTree is every "./package FuzzName" declared in the module's test files.
func inTree(t *testing.T) []string {
	var out []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		// tools/ is a module of its own; build/ holds generated inputs.
		if d.IsDir() && path != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" ||
			path == filepath.Join(root, "tools") || path == filepath.Join(root, "build")) {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, filepath.Dir(path))
		for _, decl := range f.Decls {
			if fn, ok := decl.(*ast.FuncDecl); ok && fn.Recv == nil && strings.HasPrefix(fn.Name.Name, "Fuzz") {
				out = append(out, "./"+filepath.ToSlash(rel)+" "+fn.Name.Name)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(out)
	return out
}

// listed is what .ci/fuzz-targets names.
func listed(t *testing.T) []string {
	f, err := os.Open(filepath.Join(root, ".ci", "fuzz-targets"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		out = append(out, strings.Join(strings.Fields(line), " "))
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	slices.Sort(out)
	return out
}

func TestEveryFuzzTargetIsListed(t *testing.T) {
	tree, list := inTree(t), listed(t)
	for _, x := range tree {
		if !slices.Contains(list, x) {
			t.Errorf("%s is in the tree but not in .ci/fuzz-targets: CI would never fuzz it", x)
		}
	}
	for _, x := range list {
		if !slices.Contains(tree, x) {
			t.Errorf("%s is in .ci/fuzz-targets but not in the tree", x)
		}
	}
	if len(tree) == 0 {
		t.Fatal("found no fuzz targets: the walk is broken")
	}
}
