package render_test

import (
	"strconv"
	"strings"
	"testing"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	"github.com/forgetools/forgetools/runtime/render"
)

// realisticIssue is a bug report as forge_get_issue returns it: a title, a
// report of about 900 bytes, labels, and five comments (about 1,900 bytes
// of text in all), two of them written by an agent through the gateway, so
// they carry an attribution claim, as does the issue.
func realisticIssue() *forgev1.Issue {
	agent := &forgev1.Attribution{AgentHandle: "builder-7", OwnerHandle: "alice", SessionId: "s-42"}
	comment := func(n int, author, body string, a *forgev1.Attribution) *forgev1.Comment {
		return &forgev1.Comment{Author: author, Attribution: a, Body: body,
			Url: "https://github.com/acme/widgets/issues/1234#issuecomment-20871" + strconv.Itoa(n)}
	}
	return &forgev1.Issue{
		Forge: &forgev1.ForgeRef{Provider: forgev1.ForgeProvider_FORGE_PROVIDER_GITHUB, Host: "github.com"},
		Repo:  "acme/widgets", Number: 1234, State: "open",
		Url:         "https://github.com/acme/widgets/issues/1234",
		Labels:      []string{"bug", "needs triage"},
		Author:      "alice",
		Attribution: agent,
		Title:       "Crash when the config file is empty",
		Body: "Steps to reproduce:\n1. Create an empty `widgets.yaml`.\n2. Run `widgets serve --config widgets.yaml`.\n\n" +
			"Expected: a clear error naming the missing sections.\nActual: the process exits with status 1 and prints nothing.\n\n" +
			"Environment: linux/amd64, Go 1.26, SQLite store in the default data directory. The same happens with a PostgreSQL " +
			"store. Logs at debug level show the store migrating and nothing after it; the socket directory is created but " +
			"stays empty.\n\nI think the configuration check returns before the logger is set up, so its error is never " +
			"printed. `internal/config/load.go` returns `errEmpty` from `Load`, and `main` only logs errors after " +
			"`setupLogging`, which runs later. A fix could print the error to stderr directly, or set up logging first.\n\n" +
			"This blocks anyone trying the quick start with a fresh file, and the docs say an empty file is valid.",
		Comments: []*forgev1.Comment{
			comment(1, "carol", "Same here on macOS with the default store. Running with `--log-level debug` shows nothing either, "+
				"and the exit status is 1 with an empty stderr. An empty file is exactly what `widgets init --bare` writes, so new "+
				"users hit this on their first run.", nil),
			comment(2, "widgets-bot", "I reproduced it on main at 3f2a9c1: `Load` returns `errEmpty` before `setupLogging` runs, so the error is "+
				"dropped. I will open a pull request that sets up logging first and adds a test for the empty file.", agent),
			comment(3, "dave", "Could the error also say which file it read? With several config files around it is not obvious "+
				"which one was empty. We keep one per environment, and `--config` is often set by a wrapper script, so the path "+
				"in the message would save a round of guessing.", nil),
			comment(4, "widgets-bot", "Opened #1240: logging is set up before the configuration is loaded, the error names the file, and "+
				"`TestLoadEmptyFile` covers it.", agent),
			comment(5, "carol", "Thanks, the fix works for me: the error now reads `config widgets.yaml: empty file, expected "+
				"sections forges and accounts`. Closing once it is released.", nil),
		},
	}
}

// sizes splits a read render of realisticIssue into what forge users wrote
// (the fenced titles and bodies), the attribute values the renderer guards
// and shows (repo, number, state, URLs, labels, authors, claim values), and
// the renderer's own overhead: preamble, fence markers, record headers,
// labels, claim wording and line ends.
func sizes(t testing.TB, issue *forgev1.Issue, out string) (text, data, overhead int) {
	values := []string{issue.Repo, strconv.FormatUint(issue.Number, 10), issue.State, issue.Url, issue.Author}
	values = append(values, issue.Labels...)
	claims := []*forgev1.Attribution{issue.Attribution}
	texts := []string{issue.Title, issue.Body}
	for _, c := range issue.Comments {
		values = append(values, c.Author, c.Url)
		claims = append(claims, c.Attribution)
		texts = append(texts, c.Body)
	}
	for _, a := range claims {
		values = append(values, a.GetAgentHandle(), a.GetOwnerHandle(), a.GetSessionId())
	}
	for _, s := range texts {
		if !strings.Contains(out, s) {
			t.Fatalf("the render does not carry %q whole:\n%s", s, out)
		}
		text += len(s)
	}
	for _, s := range values {
		data += len(s)
	}
	return text, data, len(out) - text - data
}

// BenchmarkRenderSize renders realisticIssue and reports its bytes: text
// (what forge users wrote), data (attribute values), overhead (what the
// renderer adds), overhead as a percentage of text, and overhead plus data
// as a percentage of text. Run with
//
//	go test ./runtime/render -run X -bench RenderSize
func BenchmarkRenderSize(b *testing.B) {
	issue := realisticIssue()
	text, data, overhead := sizes(b, issue, render.Read(issue))
	b.ReportAllocs()
	for b.Loop() {
		render.Read(issue)
	}
	b.ReportMetric(float64(text), "text-B")
	b.ReportMetric(float64(data), "data-B")
	b.ReportMetric(float64(overhead), "overhead-B")
	b.ReportMetric(100*float64(overhead)/float64(text), "overhead/text-%")
	// The same with the attribute values counted as overhead too: the
	// stricter reading, where only what users wrote is payload.
	b.ReportMetric(100*float64(overhead+data)/float64(text), "overhead+data/text-%")
}
