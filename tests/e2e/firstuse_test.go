package e2e_test

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/forgetools/forgetools/gateway/store/storetest"
)

// concurrentFirstUses is how many `forgetools call` processes race to be
// the first on an empty store.
const concurrentFirstUses = 50

// TestConcurrentFirstUse starts 50 `forgetools call` processes at once on a
// store nobody has used yet (a fresh data directory for SQLite, a fresh
// schema on PostgreSQL): each one migrates the gateway's and the local
// forge's tables on its way in, so they race to do it. Every call must
// succeed, and the 50 issues they file are numbered 1..50.
func TestConcurrentFirstUse(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, dsn string) {
		t.Parallel()
		e := newEnv(t)
		var flags []string
		if strings.HasPrefix(dsn, "postgres") {
			flags = []string{"--store", dsn}
		}
		// For SQLite the store is the default one in the fresh data
		// directory, which does not exist yet either.
		e.vars[0] += "/fresh"

		results := make([]result, concurrentFirstUses)
		var wg sync.WaitGroup
		for i := range results {
			wg.Go(func() {
				r, err := e.runErr(append([]string{"call", "forge_create_issue",
					fmt.Sprintf(`{"repo":"demo/app","title":"first use %d"}`, i)}, flags...)...)
				if err != nil {
					r.code, r.stderr = -1, err.Error()+"\n"+r.stderr
				}
				results[i] = r
			})
		}
		wg.Wait()

		created := regexp.MustCompile(`^Created issue #([0-9]+) in demo/app: \S+\n$`)
		var numbers []int
		succeeded := 0
		for _, r := range results {
			m := created.FindStringSubmatch(r.stdout)
			if r.code != 0 || m == nil {
				t.Errorf("a concurrent first call failed: %v", r)
				continue
			}
			succeeded++
			n, _ := strconv.Atoi(m[1])
			numbers = append(numbers, n)
		}
		t.Logf("concurrent first calls succeeded: %d of %d", succeeded, concurrentFirstUses)
		slices.Sort(numbers)
		for i, n := range numbers {
			if n != i+1 {
				t.Fatalf("issue numbers %v, want 1..%d each once", numbers, len(numbers))
			}
		}
	})
}
