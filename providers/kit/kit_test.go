package kit_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/forgetools/forgetools/providers/kit"
)

var forge = kit.Forge{DefaultHost: "forge.example", APIURL: func(h string) string { return "https://" + h + "/api" }}

func TestOpenDefaults(t *testing.T) {
	c, err := kit.Options{Token: "author-secret", ReviewerToken: "reviewer-secret"}.Open(forge)
	if err != nil {
		t.Fatal(err)
	}
	if c.Host != "forge.example" || c.Base.String() != "https://forge.example/api/" {
		t.Errorf("host %q base %q", c.Host, c.Base)
	}
	if c.Timeout != kit.DefaultTimeout || c.UserAgent != kit.DefaultUserAgent || c.Log == nil || c.Now == nil || c.Transport == nil {
		t.Errorf("not defaulted: %+v", c)
	}
	if got := c.Redactor.String("a author-secret b reviewer-secret"); strings.Contains(got, "secret") {
		t.Errorf("the redactor misses a credential: %q", got)
	}
	f := forge
	f.UserAgent, f.Endpoint = "forgetools-x", true
	c, err = kit.Options{Host: "Other.Example:8443", Token: "t", UserAgent: "", Timeout: time.Second}.Open(f)
	if err != nil {
		t.Fatal(err)
	}
	// An endpoint keeps its path as given; the host is lower-cased.
	if c.Host != "other.example:8443" || c.Base.String() != "https://other.example:8443/api" || c.UserAgent != "forgetools-x" || c.Timeout != time.Second {
		t.Errorf("host %q base %q agent %q timeout %s", c.Host, c.Base, c.UserAgent, c.Timeout)
	}
}

func TestOpenRefuses(t *testing.T) {
	noReviews := forge
	noReviews.NoReviews = "this forge has no reviews"
	for _, tc := range []struct {
		o    kit.Options
		f    kit.Forge
		want string
	}{
		{kit.Options{}, forge, "no token for forge.example"},
		{kit.Options{Token: " \t"}, forge, "no token"},
		{kit.Options{Token: "t\r\nX-Injected: 1"}, forge, "line break"},
		{kit.Options{Token: "t", ReviewerToken: "r\n"}, forge, "line break"},
		{kit.Options{Token: "t", ReviewerToken: "r"}, noReviews, "no reviews"},
		{kit.Options{Token: "t", Timeout: -time.Second}, forge, "negative"},
		{kit.Options{Token: "t", Host: "https://forge.example"}, forge, "not a host name"},
		{kit.Options{Token: "t", APIURL: "http://forge.example/api"}, forge, "plain http"},
		{kit.Options{Token: "secret-token", APIURL: "https://u:secret-token@forge.example/"}, forge, "no credentials"},
	} {
		_, err := tc.o.Open(tc.f)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Open(%+v) = %v, want %q", tc.o, err, tc.want)
		}
		if err != nil && strings.Contains(err.Error(), "secret-token") {
			t.Errorf("the refusal shows the credential: %v", err)
		}
	}
}

type counting struct{ n int }

func (c *counting) RoundTrip(*http.Request) (*http.Response, error) {
	c.n++
	return nil, http.ErrHandlerTimeout
}

// The client goes over the caller's transport, and only to the API's origin.
func TestClientIsPinned(t *testing.T) {
	rt := &counting{}
	c, err := kit.Options{Token: "t", Transport: rt}.Open(forge)
	if err != nil {
		t.Fatal(err)
	}
	hc := c.Client(c.Transport)
	for _, target := range []string{"https://evil.example/api/", "http://forge.example/api/", "https://forge.example:444/api/"} {
		req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, target, nil)
		if resp, err := hc.Do(req); err == nil || !strings.Contains(err.Error(), "refused") {
			if resp != nil {
				resp.Body.Close()
			}
			t.Errorf("%s: err %v, want refused", target, err)
		}
	}
	if rt.n != 0 {
		t.Fatalf("%d requests left the pin", rt.n)
	}
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, "https://forge.example/api/x", nil)
	if _, err := hc.Do(req); err == nil || rt.n != 1 {
		t.Errorf("a request to the API did not reach the caller's transport (%v, %d)", err, rt.n)
	}
}

// pages is a list of n items served size to a page, with page numbers
// 1, 2, ... as a forge names them; asked records what was read.
func pages(n, size int, asked *[]int) func(int) (kit.Page[int, int], error) {
	return func(next int) (kit.Page[int, int], error) {
		*asked = append(*asked, next)
		page := max(next, 1)
		pg := kit.Page[int, int]{}
		for i := (page - 1) * size; i < min(n, page*size); i++ {
			pg.Items = append(pg.Items, i)
		}
		if page*size < n {
			pg.Next = page + 1
		}
		return pg, nil
	}
}

func TestPages(t *testing.T) {
	var asked []int
	all, err := kit.Collect(10, pages(7, 3, &asked))
	if err != nil || len(all) != 7 || all[6] != 6 || len(asked) != 3 || asked[0] != 0 || asked[2] != 3 {
		t.Errorf("Collect = %v, %v after reading %v", all, err, asked)
	}
	// The limit bounds the pages read, however long the list.
	asked = nil
	if all, _ := kit.Collect(2, pages(100, 3, &asked)); len(all) != 6 || len(asked) != 2 {
		t.Errorf("limit 2: %d items from pages %v", len(all), asked)
	}
	// each stops the loop: no page is read past the one it stopped in.
	asked = nil
	var got []int
	_ = kit.Pages(10, pages(100, 3, &asked), func(i int) bool { got = append(got, i); return len(got) < 4 })
	if len(got) != 4 || len(asked) != 2 {
		t.Errorf("stopped at 4: got %v from pages %v", got, asked)
	}
	boom := func(int) (kit.Page[int, int], error) {
		return kit.Page[int, int]{Items: []int{1}}, http.ErrHandlerTimeout
	}
	if all, err := kit.Collect(3, boom); err != http.ErrHandlerTimeout || all != nil {
		t.Errorf("an error: %v, %v", all, err)
	}
	// A cursor names the next page as well as a number does; "" is the end.
	cursors := map[string]kit.Page[string, string]{"": {Items: []string{"a"}, Next: "c1"}, "c1": {Items: []string{"b"}}}
	got2, err := kit.Collect(10, func(next string) (kit.Page[string, string], error) { return cursors[next], nil })
	if err != nil || strings.Join(got2, "") != "ab" {
		t.Errorf("by cursor: %v, %v", got2, err)
	}
}

// A hostile or broken forge that names a page it already served, or names
// a next page forever, must not keep a walk going: Every ends in an error
// that says why, after a bounded number of pages.
func TestEveryEndsOnAHostileForge(t *testing.T) {
	var reads int
	loop := func(next int) (kit.Page[int, int], error) {
		reads++
		return kit.Page[int, int]{Items: []int{next}, Next: 2}, nil // page 2 names page 2 again
	}
	err := kit.Every(loop, func(int) error { return nil })
	if err == nil || !strings.Contains(err.Error(), "named page 2 again") || reads != 2 {
		t.Errorf("a repeated page: %v after %d reads", err, reads)
	}
	reads = 0
	forever := func(next int) (kit.Page[int, int], error) {
		reads++
		return kit.Page[int, int]{Items: []int{next}, Next: next + 1}, nil
	}
	err = kit.Every(forever, func(int) error { return nil })
	if err == nil || !strings.Contains(err.Error(), "more than") || reads != kit.EveryPageLimit {
		t.Errorf("an endless list: %v after %d reads", err, reads)
	}
	// Pages and Collect stop quietly at their limit (a bounded read that
	// shows a total), but a repeated page is still refused.
	reads = 0
	if _, err := kit.Collect(50, loop); err == nil || reads != 2 {
		t.Errorf("Collect over a repeated page: %v after %d reads", err, reads)
	}
}
