package store_test

import (
	"context"
	"net/url"
	"os"
	"strings"
	"testing"

	"github.com/forgetools/forgetools/gateway/store"
	"github.com/forgetools/forgetools/gateway/store/storetest"
	"github.com/forgetools/forgetools/internal/redact"
	"github.com/forgetools/forgetools/internal/testkit"
)

const storeSecret = "ghp_S7oreR3dact10nT0ken4Kq9Zx2Lm8Vb6Nc"

// TestWritesAreRedacted: with a redactor set, an ownership row, an
// event's keys and a webhook delivery id are stored redacted; the
// delivery is still found by the id it came with.
func TestWritesAreRedacted(t *testing.T) {
	storetest.Run(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		s := open(t, dsn)
		s.SetRedactor(redact.New(storeSecret))
		a := store.Artifact{Forge: github, Repo: "acme/web", Kind: store.KindIssue, Number: 7, ID: "id-" + storeSecret}
		if err := s.RecordOwnership(ctx, store.Ownership{Account: "alice", Session: "s1", Tool: "forge_create_issue",
			Artifact: a, URL: "https://github.com/acme/web/issues/7?t=" + url.QueryEscape(storeSecret)}); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Subscribe(ctx, store.Subscription{Account: "alice", Forge: github, Repo: "acme/web", Kind: store.KindIssue, Number: 7}); err != nil {
			t.Fatal(err)
		}
		if _, err := s.RecordChanges(ctx, a, []store.Change{{Type: "comment", ArtifactID: storeSecret, DedupKey: "k-" + storeSecret, Payload: []byte("p")}}); err != nil {
			t.Fatal(err)
		}
		if _, err := s.RecordDelivery(ctx, github, "d-"+storeSecret); err != nil {
			t.Fatal(err)
		}
		if ok, err := s.Delivered(ctx, github, "d-"+storeSecret); err != nil || !ok {
			t.Errorf("Delivered(the id as it came) = %v, %v; want true", ok, err)
		}
		rows, err := s.Audit(ctx, store.AuditFilter{})
		if err != nil || len(rows) != 1 {
			t.Fatalf("audit: %v, %v", rows, err)
		}
		if l := testkit.Leak(storeSecret, rows[0].URL+" "+rows[0].ID); l != "" || !strings.Contains(rows[0].URL, redact.Marker) {
			t.Errorf("the ownership row holds %q: %+v", l, rows[0])
		}
		if strings.HasPrefix(dsn, "postgres") {
			return
		}
		s.Close()
		sqliteLeak(t, dsn, storeSecret)
	})
}

// TestScrub: rows stored before a redactor was set are redacted by Scrub,
// once per digest; the SQLite file and its write-ahead log then hold no
// form of the credential.
func TestScrub(t *testing.T) {
	storetest.Run(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		s := open(t, dsn)
		a := store.Artifact{Forge: github, Repo: "acme/web", Kind: store.KindIssue, Number: 8}
		if err := s.RecordOwnership(ctx, store.Ownership{Account: "alice", Session: "s1", Artifact: a,
			URL: "https://github.com/acme/web/issues/8#" + strings.ToUpper(storeSecret)}); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Subscribe(ctx, store.Subscription{Account: "alice", Forge: github, Repo: "acme/web", Kind: store.KindIssue, Number: 8}); err != nil {
			t.Fatal(err)
		}
		if _, err := s.RecordChanges(ctx, a, []store.Change{{Type: "comment", DedupKey: "k-" + storeSecret, Payload: []byte("payload " + storeSecret)}}); err != nil {
			t.Fatal(err)
		}
		if _, err := s.RecordDelivery(ctx, github, storeSecret); err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(dsn, "postgres") && !sqliteHolds(dsn, storeSecret) {
			t.Fatal("the unredacted rows are not in the SQLite files: the check below could not fail")
		}
		// Nothing to redact with: Scrub does nothing, records nothing.
		if n, err := s.Scrub(ctx, "d0", nil); err != nil || n != 0 {
			t.Fatalf("Scrub without a redactor = %d, %v", n, err)
		}
		r := redact.New(storeSecret)
		s.SetRedactor(r)
		payload := func(b []byte) ([]byte, error) { return []byte(r.String(string(b))), nil }
		digest := store.ScrubDigest([]string{storeSecret})
		n, err := s.Scrub(ctx, digest, payload)
		if err != nil || n != 3 {
			t.Fatalf("Scrub = %d, %v; want 3 rows (ownership, event, delivery)", n, err)
		}
		if n, err := s.Scrub(ctx, digest, payload); err != nil || n != 0 {
			t.Errorf("Scrub again with the same digest = %d, %v; want nothing done", n, err)
		}
		rows, err := s.Audit(ctx, store.AuditFilter{})
		if err != nil || len(rows) != 1 || testkit.Leak(storeSecret, rows[0].URL) != "" {
			t.Errorf("after the scrub: %+v, %v", rows, err)
		}
		if ok, _ := s.Delivered(ctx, github, storeSecret); !ok {
			t.Error("the scrubbed delivery is no longer found by its id")
		}
		if strings.Contains(digest, storeSecret) || digest == store.ScrubDigest([]string{storeSecret, "another-secret-0123456789"}) {
			t.Error("the digest shows the secret, or ignores one")
		}
		if strings.HasPrefix(dsn, "postgres") {
			return
		}
		s.Close()
		sqliteLeak(t, dsn, storeSecret)
	})
}

// sqliteHolds reports whether the SQLite files of dsn hold a piece of
// secret.
func sqliteHolds(dsn, secret string) bool {
	for _, f := range sqliteFiles(dsn) {
		if b, err := os.ReadFile(f); err == nil && testkit.Leak(secret, string(b)) != "" {
			return true
		}
	}
	return false
}

// sqliteFiles are the database file of dsn and the files beside it.
func sqliteFiles(dsn string) []string {
	path := strings.TrimPrefix(dsn, "sqlite:")
	if i := strings.IndexByte(path, '?'); i >= 0 {
		path = path[:i]
	}
	return []string{path, path + "-wal", path + "-shm"}
}

// sqliteLeak fails t if the SQLite file of dsn, or its -wal or -shm,
// holds a piece of secret.
func sqliteLeak(t *testing.T, dsn, secret string) {
	t.Helper()
	for _, f := range sqliteFiles(dsn) {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		if l := testkit.Leak(secret, string(b)); l != "" {
			t.Errorf("%s holds %q", f, l)
		}
	}
}
