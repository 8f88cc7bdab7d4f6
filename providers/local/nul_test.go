package local_test

import (
	"context"
	"testing"

	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/providers/local"
)

// PostgreSQL's text cannot hold U+0000; SQLite's can. A title or body with
// one is the caller's input, so on PostgreSQL it is refused as
// invalid_argument naming the character (not an internal error), and on
// SQLite it is kept as sent.
func TestNULInText(t *testing.T) {
	eachDialect(t, func(t *testing.T, d database) {
		ctx := context.Background()
		f, _ := newForge(t, d, local.Options{})
		const repo = "acme/app"
		n := createIssue(t, f, repo, "plain")
		is, err := f.CreateIssue(ctx, alice, &gatewayv1.CreateIssueRequest{Repo: repo, Title: "a\x00b"})
		_, cerr := f.CommentOnIssue(ctx, alice, &gatewayv1.CommentOnIssueRequest{Repo: repo, IssueNumber: n, Body: "x\x00y"})
		if d.dialect == local.DialectPostgres {
			wantCode(t, err, invalid, "U+0000")
			wantCode(t, cerr, invalid, "U+0000")
			return
		}
		if err != nil || cerr != nil {
			t.Fatalf("SQLite refused a NUL: %v, %v", err, cerr)
		}
		got, err := f.GetIssue(ctx, alice, &gatewayv1.GetIssueRequest{Repo: repo, IssueNumber: is.GetNumber()})
		if err != nil || got.GetTitle() != "a\x00b" {
			t.Fatalf("title read back %q, %v", got.GetTitle(), err)
		}
	})
}
