package e2e_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/forgetools/forgetools/gateway/store"
	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	"github.com/forgetools/forgetools/internal/testkit"
	"github.com/forgetools/forgetools/providers/github/githubtest"
)

const hostileToken = "ghp_H0stileEch0Tok3n7Qw9Er2Ty4Ui6Op8As"

// echoingGitHub is the GitHub fake behind a proxy that, as a hostile
// forge would, writes the token it was sent into every answer: the
// html_url (verbatim, every byte percent-encoded, fullwidth), the title
// (HTML character references, a separator between every character) and
// the body (every echo testkit knows).
func echoingGitHub(t *testing.T) string {
	gh := githubtest.New(githubtest.Options{})
	t.Cleanup(gh.Close)
	gh.AddToken(hostileToken, "echo-bot")
	gh.AddRepo("octocat/Hello-World", "main")
	target, _ := url.Parse(gh.URL)
	echoes := testkit.Echoes(hostileToken)
	var all []string
	for _, e := range echoes {
		all = append(all, e)
	}
	proxy := httptest.NewServer(&httputil.ReverseProxy{
		Rewrite: func(r *httputil.ProxyRequest) { r.SetURL(target); r.Out.Header.Del("Accept-Encoding") },
		ModifyResponse: func(resp *http.Response) error {
			b, err := io.ReadAll(resp.Body)
			resp.Body.Close()
			if err != nil {
				return err
			}
			var obj map[string]any
			if json.Unmarshal(b, &obj) == nil {
				if u, ok := obj["html_url"].(string); ok {
					obj["html_url"] = u + "?t=" + hostileToken + "&p=" + echoes["percent-encoded whole"] + "#" + echoes["fullwidth"]
				}
				if _, ok := obj["title"].(string); ok {
					obj["title"] = "Echo " + echoes["hex entities"] + " " + echoes["dash between each"]
				}
				if _, ok := obj["body"].(string); ok {
					obj["body"] = strings.Join(all, "\n")
				}
				b, _ = json.Marshal(obj)
			}
			resp.Body = io.NopCloser(bytes.NewReader(b))
			resp.ContentLength = int64(len(b))
			resp.Header.Set("Content-Length", strconv.Itoa(len(b)))
			return nil
		},
	})
	t.Cleanup(proxy.Close)
	return proxy.URL + "/"
}

// TestHostileForgeEchoIsNeverStored: a forge that puts the token into an
// issue's URL, title and body, and a comment's: afterwards no form of the
// token is in what the model was shown, in audit (table and JSON), in the
// store's SQLite file and its write-ahead log, or in the logs.
func TestHostileForgeEchoIsNeverStored(t *testing.T) {
	t.Parallel()
	api := echoingGitHub(t)
	e := newEnv(t, "GITHUB_TOKEN="+hostileToken, "FORGETOOLS_LOG_LEVEL=debug")
	flags := []string{"--github", "--github-api-url", api, "--repo", "octocat/Hello-World"}
	var seen []string
	check := func(what, text string) {
		t.Helper()
		if l := testkit.Leak(hostileToken, text); l != "" {
			t.Errorf("%s shows %q of the token:\n%s", what, l, text)
		}
		seen = append(seen, text)
	}
	created := e.call("forge_create_issue", `{"repo":"octocat/Hello-World","title":"Hello","body":"Hi"}`, flags...)
	if created.code != 0 {
		t.Fatalf("create: %v", created)
	}
	check("the create's answer", created.stdout)
	check("the create's log", created.stderr)
	commented := e.call("forge_comment_on_issue", `{"repo":"octocat/Hello-World","issue_number":1,"body":"Hi"}`, flags...)
	if commented.code != 0 {
		t.Fatalf("comment: %v", commented)
	}
	check("the comment's answer", commented.stdout)
	check("the comment's log", commented.stderr)
	read := e.call("forge_get_issue", `{"repo":"octocat/Hello-World","issue_number":1}`, flags...)
	check("the read", read.stdout)
	check("the read's log", read.stderr)

	for _, format := range []string{"table", "json"} {
		a := e.run("audit", "--format", format)
		if a.code != 0 || !strings.Contains(a.stdout, "forge_comment_on_issue") || !strings.Contains(a.stdout, "[REDACTED]") {
			t.Fatalf("audit --format %s lists neither both artifacts nor a redaction: %v", format, a)
		}
		check("audit --format "+format, a.stdout)
	}
	// Without the token in the environment audit cannot redact: what it
	// prints is what the store holds.
	bare := newEnv(t)
	bare.vars[0] = e.vars[0]
	a := bare.run("audit", "--format", "json")
	check("audit without the token", a.stdout)

	files, _ := filepath.Glob(filepath.Join(e.dataDir(), "*"))
	n := 0
	for _, f := range files {
		if !strings.Contains(filepath.Base(f), ".db") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		n++
		check("the store file "+filepath.Base(f), string(b))
	}
	if n == 0 {
		t.Fatalf("no store file in %s: %v", e.dataDir(), files)
	}
	// The checks above can fail: the forge did echo the token.
	if !strings.Contains(strings.Join(seen, "\n"), "[REDACTED]") {
		t.Error("nothing was redacted: the hostile forge echoed nothing")
	}
}

// TestStartScrubsStoredRows: a row stored before redaction came first
// (written here straight to the store, as an older gateway did) holds the
// token; the next start of the gateway with that token configured
// scrubs it, so audit run without the token, and the SQLite file and its
// write-ahead log, show none of it.
func TestStartScrubsStoredRows(t *testing.T) {
	t.Parallel()
	api := echoingGitHub(t)
	e := newEnv(t, "GITHUB_TOKEN="+hostileToken)
	dsn := filepath.Join(e.dataDir(), "forgetools.db")
	ctx := context.Background()
	st, err := store.Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	gh := store.Forge{Provider: forgev1.ForgeProvider_FORGE_PROVIDER_GITHUB, Host: "github.com"}
	if err := st.RecordOwnership(ctx, store.Ownership{Account: "agent", Session: "agent", Tool: "forge_create_issue",
		Artifact: store.Artifact{Forge: gh, Repo: "octocat/Hello-World", Kind: store.KindIssue, Number: 9},
		URL:      "https://github.com/octocat/Hello-World/issues/9?t=" + hostileToken}); err != nil {
		t.Fatal(err)
	}
	st.Close()
	bare := &env{t: t, vars: e.vars[:1]} // the data directory, no token
	if a := bare.run("audit", "--format", "json"); testkit.Leak(hostileToken, a.stdout) == "" {
		t.Fatalf("the planted row does not show the token before the start: the check below could not fail\n%s", a.stdout)
	}
	r := e.call("forge_get_issue", `{"repo":"octocat/Hello-World","issue_number":1}`,
		"--github", "--github-api-url", api, "--repo", "octocat/Hello-World", "--log-level", "info")
	if !strings.Contains(r.stderr, "redacted credentials in stored rows") {
		t.Errorf("the start did not say it scrubbed:\n%s", r.stderr)
	}
	a := bare.run("audit", "--format", "json")
	if l := testkit.Leak(hostileToken, a.stdout); l != "" || !strings.Contains(a.stdout, "[REDACTED]") {
		t.Errorf("after the start, audit without the token shows %q:\n%s", l, a.stdout)
	}
	for _, f := range []string{dsn, dsn + "-wal"} {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		if l := testkit.Leak(hostileToken, string(b)); l != "" {
			t.Errorf("%s holds %q after the scrub", filepath.Base(f), l)
		}
	}
}
