package github

import (
	"bytes"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	gh "github.com/google/go-github/v84/github"

	"github.com/forgetools/forgetools/internal/redact"
	"github.com/forgetools/forgetools/internal/shown"
	"github.com/forgetools/forgetools/providers/github/githubtest"
	"github.com/forgetools/forgetools/toolserver"
)

// A pull request's GraphQL answer is untrusted bytes. Whatever GitHub (or
// something in its place) answers, the read either fails with a defined
// code and a message without the credential, or holds at most what the
// model is shown; it never panics.
func FuzzGraphQLAnswer(f *testing.F) {
	for _, name := range []string{"graphql_pull.json", "graphql_pull_empty.json", "graphql_pull_checks_forbidden.json", "graphql_not_found.json", "graphql_rate_limited.json"} {
		f.Add([]byte(githubtest.Fixture(name)))
	}
	f.Add([]byte(`{"data":{"repository":{"pullRequest":{"reviews":{"nodes":[null]},"commits":{"nodes":[{"commit":null}]}}}}}`))
	f.Add([]byte(`{"errors":[{"type":"FORBIDDEN","message":"` + authorToken + `","path":[0,"repository",{}]}]}`))
	p := &Provider{timeout: time.Second, redactor: redact.New(authorToken), now: func() time.Time { return time.Unix(1767225000, 0) },
		log: slog.New(slog.DiscardHandler)}
	pr := &gh.PullRequest{Head: &gh.PullRequestBranch{SHA: gh.Ptr(headSHA)}}
	resp := &http.Response{StatusCode: 200, Header: http.Header{gh.HeaderRateRemaining: {"0"}, gh.HeaderRateReset: {"1767225090"}}}
	f.Fuzz(func(t *testing.T, body []byte) {
		var d pullQueryData
		errs, err := decodeGraphQL("get pull request o/n#1", bytes.NewReader(body), &d)
		var agg *pullAggregates
		if err == nil {
			agg, err = p.pullAggregates(t.Context(), repoName{"o", "n"}, "get pull request o/n#1", pr, &d, errs, resp)
		}
		if err != nil {
			e := p.mapError("get pull request o/n#1", err)
			if _, ok := toolserver.AsError(error(e)); !ok || e.Code == 0 || strings.Contains(e.Message, authorToken) {
				t.Fatalf("mapped to %v (code %s)", e, e.Code)
			}
			return
		}
		if len(agg.reviews) > shown.PullReviews || len(agg.comments) > shown.PullComments {
			t.Fatalf("%d reviews and %d comments kept; at most %d and %d are shown", len(agg.reviews), len(agg.comments), shown.PullReviews, shown.PullComments)
		}
		for _, r := range agg.reviews {
			if len(r.Comments) > shown.ReviewComments {
				t.Fatalf("%d comments kept on a review; %d are shown", len(r.Comments), shown.ReviewComments)
			}
		}
	})
}
