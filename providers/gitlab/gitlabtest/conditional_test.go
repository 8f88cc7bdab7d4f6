package gitlabtest

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

// GitLab's conditional requests: every API GET answer carries a weak
// ETag; If-None-Match naming it is a 304 with no body; a change moves it.
func TestConditionalRequests(t *testing.T) {
	s := New(Options{})
	t.Cleanup(s.Close)
	s.AddToken("glpat-conditional0000000000", "bot")
	s.AddProject("a/b", "main", map[string]string{"x": "y"})
	s.AddIssue("a/b", Issue{Title: "T"})
	do := func(method, inm string) (int, http.Header, string) {
		t.Helper()
		req, _ := http.NewRequest(method, s.APIURL()+"projects/a%2Fb/issues/1", nil)
		req.Header.Set("PRIVATE-TOKEN", "glpat-conditional0000000000")
		if inm != "" {
			req.Header.Set("If-None-Match", inm)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, resp.Header, string(b)
	}
	status, h, body := do("GET", "")
	tag := h.Get("ETag")
	if status != 200 || !strings.HasPrefix(tag, `W/"`) || !strings.Contains(body, `"title":"T"`) {
		t.Fatalf("GET: %d ETag %q %s", status, tag, body)
	}
	if status, h, body := do("GET", tag); status != 304 || body != "" || h.Get("ETag") != tag {
		t.Fatalf("If-None-Match: %d ETag %q body %q", status, h.Get("ETag"), body)
	}
	s.Lock()
	s.Repo("a/b").Items[0].Title = "U"
	s.Unlock()
	if status, h, _ := do("GET", tag); status != 200 || h.Get("ETag") == tag {
		t.Fatalf("after a change: %d ETag %q", status, h.Get("ETag"))
	}
}
