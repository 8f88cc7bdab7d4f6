// Package toolsnaps_test pins what the model reads: one snapshot per
// generated forge tool (tests/toolsnaps/<tool>.json, the export.Definition
// shape), one per tool of the grouped shape (grouped/<tool>.json) and the
// toolset instructions (instructions.md; the grouped shape's are the same
// unless they name a tool it offers as an action, then grouped/ has its
// own). A proto or
// generator change that alters a tool's name, description, approval, hints
// or input schema fails here until the snapshots are regenerated on
// purpose, so the change shows up in review as a diff of these files.
//
// The guard tests beside it assert the contract the snapshots must keep
// (names, approvals, risk and action class, idempotency, bounds), and the
// budget test keeps the whole tool surface within issue 9's 17,000 bytes,
// the ten original tools grown by their new parameters only.
package toolsnaps_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/forgetools/forgetools/gen/forgetools/gateway/v1/gatewayv1tools"
	"github.com/forgetools/forgetools/runtime"
	"github.com/forgetools/forgetools/runtime/export"
)

const (
	// updateEnv rewrites every snapshot when set to 1 (make generate does).
	updateEnv = "UPDATE_TOOLSNAPS"
	// regenerate is the command a failure tells the reader to run.
	regenerate = "UPDATE_TOOLSNAPS=1 go test ./tests/toolsnaps/ -run TestToolSnapshots"
	// instructionsFile holds the toolset instructions; every other snapshot
	// is <tool name>.json.
	instructionsFile = "instructions.md"
)

// wantSnapshots returns every snapshot file the generated table implies,
// by file name.
func wantSnapshots(t *testing.T) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	flat := snapshotsOf(t, runtime.ShapeFlat, "", files)
	if grouped := snapshotsOf(t, runtime.ShapeGrouped, groupedDir+"/", files); grouped != flat {
		files[groupedDir+"/"+instructionsFile] = []byte(grouped)
	}
	if flat != "" {
		files[instructionsFile] = []byte(flat)
	}
	return files
}

// groupedDir holds the grouped shape's snapshots.
const groupedDir = "grouped"

// snapshotsOf adds the full toolset's tools in shape to files, under
// prefix, and returns its instructions as a snapshot's text.
func snapshotsOf(t *testing.T, shape runtime.Shape, prefix string, files map[string][]byte) string {
	t.Helper()
	ts, err := runtime.NewToolset(gatewayv1tools.ForgeTools, runtime.NewBroker(nil), runtime.WithShape(shape))
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range ts.Tools() {
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetIndent("", "  ")
		// Descriptions are prose; keep < > & readable in review.
		enc.SetEscapeHTML(false)
		if err := enc.Encode(export.Define(tool)); err != nil {
			t.Fatalf("%s: %v", tool.Name, err)
		}
		files[prefix+tool.Name+".json"] = b.Bytes() // Encode ends with a newline
	}
	// The full vocabulary: what a toolset not narrowed to served forges
	// reads (the parts and their conditions are in the generated table).
	if text := ts.Instructions(); text != "" {
		return strings.TrimRight(text, "\n") + "\n"
	}
	return ""
}

// fullInstructions is the instructions of the table's unfiltered toolset.
func fullInstructions(t *testing.T) string {
	t.Helper()
	ts, err := runtime.NewToolset(gatewayv1tools.ForgeTools, runtime.NewBroker(nil))
	if err != nil {
		t.Fatal(err)
	}
	return ts.Instructions()
}

// haveSnapshots returns the snapshot files on disk, by file name.
func haveSnapshots(t *testing.T) map[string][]byte {
	t.Helper()
	var names []string
	for _, pattern := range []string{"*.json", groupedDir + "/*.json", instructionsFile, groupedDir + "/" + instructionsFile} {
		found, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, found...)
	}
	files := map[string][]byte{}
	for _, name := range names {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		files[name] = data
	}
	return files
}

func TestToolSnapshots(t *testing.T) {
	want, have := wantSnapshots(t), haveSnapshots(t)
	if os.Getenv(updateEnv) == "1" {
		update(t, want, have)
		return
	}
	for _, name := range sortedKeys(want) {
		got, ok := have[name]
		switch {
		case !ok:
			t.Errorf("%s: snapshot missing; run %s", name, regenerate)
		case !bytes.Equal(got, want[name]):
			t.Errorf("%s: snapshot differs from the generated tool (- snapshot, + generated):\n%s\nIf the change is intended, run %s and review the diff.",
				name, lineDiff(string(got), string(want[name])), regenerate)
		}
	}
	for _, name := range sortedKeys(have) {
		if _, ok := want[name]; !ok {
			t.Errorf("%s: stale snapshot, no generated tool has this name; run %s", name, regenerate)
		}
	}
}

// update writes want and deletes the stale snapshots, logging each change.
func update(t *testing.T, want, have map[string][]byte) {
	for _, name := range sortedKeys(want) {
		if bytes.Equal(have[name], want[name]) {
			continue
		}
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(name, want[name], 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %s", name)
	}
	for _, name := range sortedKeys(have) {
		if _, ok := want[name]; ok {
			continue
		}
		if err := os.Remove(name); err != nil {
			t.Fatal(err)
		}
		t.Logf("removed stale %s", name)
	}
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// lineDiff renders the line-level difference of a and b: the changed lines
// with "-" (only in a) and "+" (only in b), one line of context either side
// of each change. Snapshots are tens of lines, so the quadratic longest
// common subsequence is cheap.
func lineDiff(a, b string) string {
	x, y := strings.Split(a, "\n"), strings.Split(b, "\n")
	// lcs[i][j] is the LCS length of x[i:] and y[j:].
	lcs := make([][]int, len(x)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(y)+1)
	}
	for i := len(x) - 1; i >= 0; i-- {
		for j := len(y) - 1; j >= 0; j-- {
			if x[i] == y[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	type line struct {
		op   byte
		text string
	}
	var lines []line
	i, j := 0, 0
	for i < len(x) || j < len(y) {
		switch {
		case i < len(x) && j < len(y) && x[i] == y[j]:
			lines = append(lines, line{' ', x[i]})
			i, j = i+1, j+1
		case i < len(x) && (j == len(y) || lcs[i+1][j] >= lcs[i][j+1]):
			lines = append(lines, line{'-', x[i]})
			i++
		default:
			lines = append(lines, line{'+', y[j]})
			j++
		}
	}
	changed := func(k int) bool { return k >= 0 && k < len(lines) && lines[k].op != ' ' }
	var out strings.Builder
	skipped := false
	for k, l := range lines {
		if !changed(k) && !changed(k-1) && !changed(k+1) {
			skipped = true
			continue
		}
		if skipped && out.Len() > 0 {
			out.WriteString("  ...\n")
		}
		skipped = false
		fmt.Fprintf(&out, "%c %s\n", l.op, l.text)
	}
	return strings.TrimSuffix(out.String(), "\n")
}

// The diff a failure prints must show what changed, or the failure message
// sends the reader to diff the files by hand.
func TestLineDiff(t *testing.T) {
	got := lineDiff("a\nb\nc\nd\ne\nf\ng\n", "a\nb\nC\nd\ne\nf\ng\nh\n")
	want := "  b\n- c\n+ C\n  d\n  ...\n  g\n+ h\n  "
	if got != want {
		t.Errorf("lineDiff:\n%s\nwant:\n%s", got, want)
	}
}
