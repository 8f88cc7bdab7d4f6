package server_test

import (
	"context"
	"fmt"
	"log/slog"
	"path/filepath"
	"runtime"
	"sync/atomic"
	"testing"

	"github.com/forgetools/forgetools/gateway/store"
	"github.com/forgetools/forgetools/gateway/store/storetest"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/providers/local"
	"github.com/forgetools/forgetools/toolserver"
)

// BenchmarkLocalRead reads an issue the way forgetools-load's get_issue
// case does (two labels, two comments) on each store's database, opened as
// the gateway opens it (its DSN pragmas and statement cache), so the
// figure is the local forge's share of a gateway read (here, beside the
// gateway: the provider may not import the store). Its baseline, in the
// same run, is the cheapest read the driver does on that database (one
// issue's title and body by primary key): the ratio of the two is what the
// read's statement, decoding and building cost over the floor. On
// PostgreSQL (with FORGETOOLS_TEST_POSTGRES set) a read is a round trip,
// so its time holds the server's work too when the server is on this
// machine.
func BenchmarkLocalRead(b *testing.B) {
	b.Run("sqlite", func(b *testing.B) { benchLocalRead(b, storetest.SQLite(b)) })
	b.Run("postgres", func(b *testing.B) { benchLocalRead(b, storetest.Postgres(b)) })
}

func benchLocalRead(b *testing.B, dsn string) {
	ctx := context.Background()
	dir := b.TempDir()
	quiet := slog.New(slog.DiscardHandler)
	st, err := store.Open(ctx, dsn, store.Options{Logger: quiet})
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
	var repoID int64
	if err := st.DB().QueryRowContext(ctx, "SELECT id FROM local_repos WHERE name_key = $1", repo).Scan(&repoID); err != nil {
		b.Fatal(err)
	}
	readers(b, "baseline", func(i int) error {
		var title, body string
		return st.DB().QueryRowContext(ctx, "SELECT title, body FROM local_items WHERE repo_id = $1 AND number = $2",
			repoID, int64(numbers[i%len(numbers)])).Scan(&title, &body)
	})
	readers(b, "get_issue", func(i int) error {
		is, err := f.GetIssue(ctx, alice, &gatewayv1.GetIssueRequest{Repo: repo, IssueNumber: numbers[i%len(numbers)]})
		if err == nil && (len(is.GetComments()) != 2 || len(is.GetLabels()) != 2) {
			err = fmt.Errorf("read %d comments and %d labels, want 2 and 2", len(is.GetComments()), len(is.GetLabels()))
		}
		return err
	})
}

// readers benchmarks read as name, one reader at a time (its time is a
// read's latency), and as name/16readers, sixteen at once as in
// forgetools-load (its time per read is the machine's: on PostgreSQL that
// counts the server's CPU, which shares the cores).
func readers(b *testing.B, name string, read func(i int) error) {
	b.Run(name, func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			if err := read(i); err != nil {
				b.Fatal(err)
			}
			i++
		}
	})
	b.Run(name+"/16readers", func(b *testing.B) {
		b.ReportAllocs()
		b.SetParallelism(max(1, 16/runtime.GOMAXPROCS(0)))
		var next atomic.Int64
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				if err := read(int(next.Add(1))); err != nil {
					b.Error(err)
					return
				}
			}
		})
	})
}
