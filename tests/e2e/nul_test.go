package e2e_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/forgetools/forgetools/gateway/store/storetest"
)

// TestNULTitle: a title with U+0000 is the caller's input. PostgreSQL
// cannot store it, so there the call fails as invalid_argument saying why,
// and the next create on the same store still works (the failed one
// rolled back only itself); SQLite keeps it.
func TestNULTitle(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, dsn string) {
		t.Parallel()
		e := newEnv(t)
		r := e.call("forge_create_issue", `{"repo":"demo/app","title":"a\u0000b"}`, "--store", dsn)
		if strings.HasPrefix(dsn, "postgres") {
			r.want(t, 1, regexp.QuoteMeta(`forge_create_issue failed: invalid_argument: text with a NUL character (U+0000) cannot be stored on this forge's PostgreSQL store; remove it`))
			e.call("forge_create_issue", `{"repo":"demo/app","title":"after"}`, "--store", dsn).
				want(t, 0, `Created issue #1 in demo/app: http://localhost/forge/demo/app/issues/1`)
			return
		}
		r.want(t, 0, `Created issue #1 in demo/app: http://localhost/forge/demo/app/issues/1`)
	})
}
