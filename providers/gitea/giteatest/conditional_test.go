package giteatest

import (
	"net/http"
	"strings"
	"testing"
)

// Gitea's conditional requests: a raw file carries its quoted blob id as
// a strong ETag and If-None-Match naming it is a 304 with no body; the
// API's JSON answers carry no ETag.
func TestConditionalRawFiles(t *testing.T) {
	s := seeded(t)
	status, h, body := get(t, s, "GET", "/repos/acme/gadgets/raw/src/gadget.go", "", token)
	tag := h.Get("ETag")
	if status != 200 || string(body) != "package gadget\n" || !strings.HasPrefix(tag, `"`) {
		t.Fatalf("raw file: %d ETag %q body %q", status, tag, body)
	}
	req, _ := http.NewRequest("GET", s.APIURL()+"repos/acme/gadgets/raw/src/gadget.go", nil)
	req.Header.Set("Authorization", "token "+token)
	req.Header.Set("If-None-Match", tag)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotModified || resp.Header.Get("ETag") != tag {
		t.Fatalf("If-None-Match: %d ETag %q", resp.StatusCode, resp.Header.Get("ETag"))
	}
	if _, h, _ := get(t, s, "GET", "/repos/acme/gadgets/issues/1", "", token); h.Get("ETag") != "" {
		t.Fatalf("an API answer carries ETag %q", h.Get("ETag"))
	}
	if st := s.Statuses(); st[200] != 2 || st[304] != 1 {
		t.Fatalf("statuses %v", st)
	}
}
