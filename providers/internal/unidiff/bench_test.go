package unidiff_test

import (
	"os"
	"strings"
	"testing"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	"github.com/forgetools/forgetools/providers/internal/unidiff"
	"github.com/forgetools/forgetools/runtime/render"
)

// renderAll reads every page of diff the way an agent would, through the
// render the model reads, and returns the pages' rendered bytes.
func renderAll(tb testing.TB, diff string) (pages []string) {
	tb.Helper()
	files, err := unidiff.Parse(diff)
	if err != nil {
		tb.Fatal(err)
	}
	d := unidiff.Diff{Files: files, Scope: "o/r#1", Rev: "base..head"}
	cursor := ""
	for {
		pg, err := unidiff.Cut(d, "", cursor, 0)
		if err != nil {
			tb.Fatal(err)
		}
		pages = append(pages, render.Read(&forgev1.PullRequestDiff{
			Repo: "o/r", Number: 1, BaseSha: strings.Repeat("a", 40), HeadSha: strings.Repeat("b", 40),
			FilesChanged: pg.Changed, NextCursor: pg.Next, Files: pg.Files,
		}))
		if cursor = pg.Next; cursor == "" {
			return pages
		}
	}
}

// BenchmarkRenderRatio renders a real 2,877-line review diff (a refactor
// of this repository: 793 lines added, 871 removed, over 32 files) and
// reports the render's bytes over the raw unified diff's: the goal is at
// most 1.15 (github-mcp-server's JSON render of a diff is about 1.7).
func BenchmarkRenderRatio(b *testing.B) {
	raw, err := os.ReadFile("testdata/refactor.diff")
	if err != nil {
		b.Fatal(err)
	}
	if n := strings.Count(string(raw), "\n"); n < 2000 {
		b.Fatalf("the diff has %d lines; the figure needs at least 2,000", n)
	}
	var rendered int
	for b.Loop() {
		rendered = 0
		for _, p := range renderAll(b, string(raw)) {
			rendered += len(p)
		}
	}
	ratio := float64(rendered) / float64(len(raw))
	b.ReportMetric(ratio, "render/raw")
	b.Logf("raw unified diff %d bytes, %d lines; render %d bytes: ratio %.3f", len(raw), strings.Count(string(raw), "\n"), rendered, ratio)
}
