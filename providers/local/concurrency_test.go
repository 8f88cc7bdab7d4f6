package local_test

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"

	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	optionsv1 "github.com/forgetools/forgetools/gen/forgetools/options/v1"
	"github.com/forgetools/forgetools/providers/local"
	"github.com/forgetools/forgetools/toolserver"
)

// TestConcurrentCreates races 20 creates, issues and pull requests, into a
// repository that does not exist yet, through two Forges on separate
// connection pools (two gateway replicas, or two processes on one SQLite
// file): every create gets its own number and together they are 1..20.
func TestConcurrentCreates(t *testing.T) {
	eachDialect(t, func(t *testing.T, d database) {
		ctx := context.Background()
		forges := [2]*local.Forge{}
		for i := range forges {
			forges[i], _ = newForge(t, d, local.Options{})
		}
		const n = 20
		for i := 1; i < n; i += 2 {
			branch(t, forges[0], "acme/race", fmt.Sprint("branch-", i))
		}
		start := make(chan struct{})
		numbers := make([]uint64, n)
		errs := make([]error, n)
		var wg sync.WaitGroup
		for i := range n {
			wg.Go(func() {
				f := forges[i%2]
				<-start
				if i%2 == 0 {
					is, err := f.CreateIssue(ctx, alice, &gatewayv1.CreateIssueRequest{Repo: "acme/race", Title: fmt.Sprint("issue ", i)})
					numbers[i], errs[i] = is.GetNumber(), err
					return
				}
				pr, err := f.CreatePullRequest(ctx, alice, &gatewayv1.CreatePullRequestRequest{
					Repo: "acme/race", Title: fmt.Sprint("pr ", i), HeadRef: fmt.Sprint("branch-", i),
				})
				numbers[i], errs[i] = pr.GetNumber(), err
			})
		}
		close(start)
		wg.Wait()
		for i, err := range errs {
			if err != nil {
				t.Fatalf("create %d: %v", i, err)
			}
		}
		slices.Sort(numbers)
		for i, got := range numbers {
			if got != uint64(i+1) {
				t.Fatalf("numbers = %v, want 1..%d each once", numbers, n)
			}
		}
		list, err := forges[0].ListIssues(ctx, alice, &gatewayv1.ListIssuesRequest{Repo: "acme/race", Limit: ptr[uint32](100)})
		if err != nil || len(list.GetIssues()) != n/2 {
			t.Fatalf("listed %d issues (err %v), want %d", len(list.GetIssues()), err, n/2)
		}
	})
}

// TestConcurrentDuplicatePulls races ten identical pull requests: exactly one
// opens, the rest are refused as already existing.
func TestConcurrentDuplicatePulls(t *testing.T) {
	eachDialect(t, func(t *testing.T, d database) {
		ctx := context.Background()
		forges := [2]*local.Forge{}
		for i := range forges {
			forges[i], _ = newForge(t, d, local.Options{})
		}
		const n = 10
		branch(t, forges[0], "acme/dup", "feat")
		start := make(chan struct{})
		errs := make([]error, n)
		var wg sync.WaitGroup
		for i := range n {
			wg.Go(func() {
				<-start
				_, errs[i] = forges[i%2].CreatePullRequest(ctx, alice, &gatewayv1.CreatePullRequestRequest{
					Repo: "acme/dup", Title: "same", HeadRef: "feat",
				})
			})
		}
		close(start)
		wg.Wait()
		opened, refused := 0, 0
		for _, err := range errs {
			if err == nil {
				opened++
				continue
			}
			if pe, ok := toolserver.AsError(err); ok && pe.Code == optionsv1.ErrorCode_ERROR_CODE_ALREADY_EXISTS {
				refused++
				continue
			}
			t.Errorf("unexpected error: %v", err)
		}
		if opened != 1 || refused != n-1 {
			t.Fatalf("opened %d, refused %d; want 1 and %d", opened, refused, n-1)
		}
		// Refused creates used no numbers.
		if next := createIssue(t, forges[0], "acme/dup", "after"); next != 2 {
			t.Fatalf("next number = %d, want 2", next)
		}
	})
}
