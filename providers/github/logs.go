package github

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/forgetools/forgetools/providers/internal/rest"
)

// A failed Actions job's log is read in two steps, as GitHub serves it: the
// API answers GET .../actions/jobs/ID/logs with a 302 to a short-lived
// signed download URL on another host (Azure blob storage behind
// *.actions.githubusercontent.com or *.blob.core.windows.net, the hosts
// GitHub documents for job logs), and the log is fetched from there.
//
// The download goes through its own client: it carries no credential (the
// URL is signed; GitHub's token must never reach a storage host), and its
// requests and redirects may go only to the API's own origin or GitHub's
// documented log hosts over https. Egress pinning of the API client is
// untouched.

const (
	// logFetchBytes is how much of a log's end is asked for (a suffix
	// Range request); a host that ignores Range is read through, keeping
	// only the end.
	logFetchBytes = 64 << 10
	// maxLogBytes bounds a read-through: a larger log on a host without
	// Range support is not tailed.
	maxLogBytes = 32 << 20
	// logTailRunes caps the tail returned. The renderer fences a job's
	// log tail with its nested budget (1000 runes) and keeps the start of
	// what it is given, so a longer tail would lose its end: the error.
	logTailRunes = 1000
	// maxLogTails bounds how many failed jobs of one run get a tail: each
	// costs two requests.
	maxLogTails = 5
)

// logHostSuffixes are the hosts GitHub documents for downloading job logs
// (the self-hosted runner communication requirements: results-receiver and
// pipelines under actions.githubusercontent.com, and the blob storage
// accounts behind them).
var logHostSuffixes = []string{".actions.githubusercontent.com", ".blob.core.windows.net"}

// logHosts is where a log download may go: the API's own origin (GitHub
// Enterprise Server serves logs itself); GitHub's documented log hosts,
// over https only; and, when the API is a loopback server (tests, a local
// proxy: the one case plain http is accepted), loopback hosts, since those
// never leave the machine.
func logHosts(base *url.URL) func(*url.URL) bool {
	same := rest.SameOrigin(base)
	loopbackAPI := rest.IsLoopback(base.Hostname())
	return func(u *url.URL) bool {
		switch {
		case same(u):
			return true
		case loopbackAPI && (u.Scheme == "http" || u.Scheme == "https") && rest.IsLoopback(u.Hostname()):
			return true
		case u.Scheme != "https":
			return false
		}
		host := strings.ToLower(u.Hostname())
		for _, suffix := range logHostSuffixes {
			if strings.HasSuffix(host, suffix) && len(host) > len(suffix) {
				return true
			}
		}
		return false
	}
}

// jobLogTail is the end of a job's log, cleaned for reading (see
// tailText). The caller decides what a failure means.
func (p *Provider) jobLogTail(ctx context.Context, repo repoName, jobID int64) (string, error) {
	where, _, err := p.author.Actions.GetWorkflowJobLogs(ctx, repo.owner, repo.name, jobID, rest.MaxRedirects)
	if err != nil {
		return "", err
	}
	// Checked before anything is sent: the URL came in GitHub's answer.
	if err := rest.RefuseRedirect(p.logsPinned, p.logsAllow, where); err != nil {
		return "", err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, where.String(), nil)
	if err != nil {
		return "", err
	}
	req.Header.Set("Range", fmt.Sprintf("bytes=-%d", logFetchBytes))
	req.Header.Set("User-Agent", p.userAgent)
	resp, err := p.logs.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	switch resp.StatusCode {
	case http.StatusPartialContent, http.StatusOK:
	case http.StatusRequestedRangeNotSatisfiable:
		return "", nil // an empty log
	default:
		return "", fmt.Errorf("the log download from %s answered %s", rest.Origin(where), resp.Status)
	}
	tail, cut, err := readTail(resp.Body, logFetchBytes, maxLogBytes)
	if err != nil {
		return "", err
	}
	partial := resp.StatusCode == http.StatusPartialContent && !strings.HasPrefix(resp.Header.Get("Content-Range"), "bytes 0-")
	return tailText(tail, cut || partial), nil
}

// readTail reads r to its end, keeping the last keep bytes; cut reports
// that earlier bytes were dropped. More than limit bytes is an error.
func readTail(r io.Reader, keep, limit int) (tail []byte, cut bool, err error) {
	buf := make([]byte, 0, 2*keep)
	chunk := make([]byte, 32<<10)
	total := 0
	for {
		n, err := r.Read(chunk)
		total += n
		if total > limit {
			return nil, false, fmt.Errorf("the log is larger than %d MiB and its host ignores range requests", limit>>20)
		}
		buf = append(buf, chunk[:n]...)
		if len(buf) > keep && cap(buf)-len(buf) < len(chunk) {
			copy(buf, buf[len(buf)-keep:])
			buf, cut = buf[:keep], true
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, false, err
		}
	}
	if len(buf) > keep {
		buf, cut = buf[len(buf)-keep:], true
	}
	return buf, cut, nil
}

var (
	// logStamp is the time GitHub's runner writes at the start of every
	// log line: noise to a reader of the tail.
	logStamp = regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z ?`)
	// ansiEscape is a terminal control sequence (colours, mostly).
	ansiEscape = regexp.MustCompile(`\x1b\[[0-9;?]*[ -/]*[@-~]`)
)

// logCut opens a tail that does not start at the log's first line.
const logCut = "…(earlier log lines not shown)"

// tailText is the last lines of a log that fit logTailRunes, with the
// byte order mark, the runner's timestamps, terminal escapes and other
// control characters removed; cut says the bytes do not start at the log's beginning, so their
// first line is partial and dropped.
func tailText(b []byte, cut bool) string {
	// A log starts with a byte order mark.
	s := strings.TrimPrefix(strings.ToValidUTF8(string(b), "\uFFFD"), "\ufeff")
	if i := strings.IndexByte(s, '\n'); cut && i >= 0 {
		s = s[i+1:]
	}
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		l = logStamp.ReplaceAllString(strings.TrimSuffix(l, "\r"), "")
		lines[i] = strings.Map(dropControl, ansiEscape.ReplaceAllString(l, ""))
	}
	for len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1]) == "" {
		lines = lines[:len(lines)-1]
	}
	budget := logTailRunes - utf8.RuneCountInString(logCut) - 1
	first, used := len(lines), 0
	for first > 0 {
		n := utf8.RuneCountInString(lines[first-1]) + 1
		if used+n > budget {
			break
		}
		used += n
		first--
	}
	kept := lines[first:]
	if first == len(lines) && first > 0 {
		// Even the last line does not fit: keep its end.
		last := []rune(lines[first-1])
		kept, cut = []string{string(last[len(last)-budget:])}, true
	}
	text := strings.Join(kept, "\n")
	if first > 0 || cut {
		text = logCut + "\n" + text
	}
	return text
}

// dropControl removes control characters but tabs (newlines are already
// line breaks): the renderer would otherwise show each as a marker.
func dropControl(r rune) rune {
	if r != '\t' && unicode.IsControl(r) {
		return -1
	}
	return r
}
