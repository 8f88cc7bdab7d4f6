package server_test

import (
	"context"
	"fmt"
	"log/slog"
	"path/filepath"
	"testing"

	"github.com/forgetools/forgetools/gateway/store"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/providers/local"
	"github.com/forgetools/forgetools/toolserver"
)

// BenchmarkLocalRead reads an issue the way forgetools-load's get_issue
// case does (two labels, two comments) on the store's SQLite database,
// opened as the gateway opens it (its DSN pragmas and statement cache), so
// the figure is the local forge's share of a gateway read (here, beside
// the gateway: the provider may not import the store). Its baseline,
// in the same run, is the cheapest read the driver does on that database
// (one issue's title and body by primary key): the ratio of the two is
// what the read's statement, decoding and building cost over the floor.
func BenchmarkLocalRead(b *testing.B) {
	ctx := context.Background()
	dir := b.TempDir()
	quiet := slog.New(slog.DiscardHandler)
	st, err := store.Open(ctx, filepath.Join(dir, "gateway.db"), store.Options{Logger: quiet})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { st.Close() })
	f, err := local.New(ctx, st.DB(), local.Options{Dialect: string(st.Dialect()), Logger: quiet, GitDir: filepath.Join(dir, "repos")})
	if err != nil {
		b.Fatal(err)
	}
	const repo = "load/bench"
	alice := toolserver.Call{Account: "alice", Session: "s-1"}
	var numbers []uint64
	for i := range 16 {
		is, err := f.CreateIssue(ctx, alice, &gatewayv1.CreateIssueRequest{Repo: repo, Title: fmt.Sprintf("issue %d", i),
			Body: "Steps to reproduce: run the thing.\nExpected: it works.", Labels: []string{"bug", "load"}})
		if err != nil {
			b.Fatal(err)
		}
		for range 2 {
			if _, err := f.CommentOnIssue(ctx, alice, &gatewayv1.CommentOnIssueRequest{Repo: repo, IssueNumber: is.GetNumber(),
				Body: "Reproduced on main; the check returns before the logger is set up."}); err != nil {
				b.Fatal(err)
			}
		}
		numbers = append(numbers, is.GetNumber())
	}
	b.Run("baseline", func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			var title, body string // repository 1 is the only one, load/bench
			if err := st.DB().QueryRowContext(ctx, "SELECT title, body FROM local_items WHERE repo_id = 1 AND number = ?",
				numbers[i%len(numbers)]).Scan(&title, &body); err != nil {
				b.Fatal(err)
			}
			i++
		}
	})
	b.Run("get_issue", func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			is, err := f.GetIssue(ctx, alice, &gatewayv1.GetIssueRequest{Repo: repo, IssueNumber: numbers[i%len(numbers)]})
			if err != nil {
				b.Fatal(err)
			}
			if len(is.GetComments()) != 2 || len(is.GetLabels()) != 2 {
				b.Fatalf("read %d comments and %d labels, want 2 and 2", len(is.GetComments()), len(is.GetLabels()))
			}
			i++
		}
	})
}
