package gitea_test

import (
	"context"
	"io"
	"net/http"
	"testing"

	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
)

// BenchmarkGetIssue measures a forge_get_issue through the provider (an
// SDK client per operation, two requests: the issue and its comments)
// against its baseline in the same run: the same two requests with a bare
// http.Client. The difference is the provider's own cost.
//
//	go test ./providers/gitea -run X -bench GetIssue -benchmem
func BenchmarkGetIssue(b *testing.B) {
	s := fake(b, false)
	p, err := newProvider(s)
	if err != nil {
		b.Fatal(err)
	}
	req := &gatewayv1.GetIssueRequest{Repo: repo, IssueNumber: 1}
	b.Run("provider", func(b *testing.B) {
		for b.Loop() {
			if _, err := p.GetIssue(context.Background(), noCall, req); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("baseline", func(b *testing.B) {
		for b.Loop() {
			for _, path := range []string{"repos/acme/widgets/issues/1", "repos/acme/widgets/issues/1/comments?page=1&limit=50"} {
				r, _ := http.NewRequest("GET", s.APIURL()+path, nil)
				r.Header.Set("Authorization", "token "+token)
				resp, err := http.DefaultClient.Do(r)
				if err != nil {
					b.Fatal(err)
				}
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
			}
		}
	})
}
