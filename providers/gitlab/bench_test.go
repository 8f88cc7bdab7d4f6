package gitlab_test

import (
	"context"
	"io"
	"net/http"
	"testing"

	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/providers/gitlab"
	"github.com/forgetools/forgetools/providers/kit"
)

// BenchmarkGetIssue measures a forge_get_issue through the provider (the
// issue and its notes) against its baseline in the same run: the same two
// requests with a bare http.Client. The difference is the provider's and
// the client library's own cost.
//
//	go test ./providers/gitlab -run X -bench GetIssue -benchmem
func BenchmarkGetIssue(b *testing.B) {
	s := fake(b)
	p, err := gitlab.New(gitlab.Options{Options: kit.Options{Host: s.Host(), APIURL: s.APIURL(), Token: token}})
	if err != nil {
		b.Fatal(err)
	}
	req := &gatewayv1.GetIssueRequest{Repo: proj, IssueNumber: 1}
	b.Run("provider", func(b *testing.B) {
		for b.Loop() {
			if _, err := p.GetIssue(context.Background(), noCall, req); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("baseline", func(b *testing.B) {
		for b.Loop() {
			for _, path := range []string{escaped + "/issues/1", escaped + "/issues/1/notes?order_by=created_at&page=1&per_page=100&sort=asc"} {
				r, _ := http.NewRequest("GET", s.URL+"/api/v4"+path, nil)
				r.Header.Set("PRIVATE-TOKEN", token)
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
