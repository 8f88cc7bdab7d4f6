package github

import (
	"net/url"
	"strings"
	"testing"
)

// A ref comes from the model and goes into commits/{ref} (each segment
// path-escaped, as go-github does) and compare/{base}...{head} (query
// escaped): whatever checkRef accepts must address exactly that path of
// the repository on the API host, and split back into the same two refs.
func FuzzCheckRef(f *testing.F) {
	for _, s := range []string{"main", "feature/x", "../x", "a/../../b", "v1.0", "a..b", "a?b", "%2e%2e/x", "a#b", "héllo", ".", "./x", "a//b"} {
		f.Add(s)
	}
	base, _ := url.Parse("https://api.github.com/")
	f.Fuzz(func(t *testing.T, ref string) {
		if checkRef("ref", ref) != nil {
			return
		}
		segs := strings.Split(ref, "/")
		for i, s := range segs {
			segs[i] = url.PathEscape(s)
		}
		u, err := base.Parse("repos/o/n/commits/" + strings.Join(segs, "/"))
		if err != nil {
			t.Fatalf("accepted %q but it does not make a URL: %v", ref, err)
		}
		if !strings.HasPrefix(u.Path, "/repos/o/n/commits/") || u.RawQuery != "" || u.Fragment != "" || u.Host != "api.github.com" {
			t.Fatalf("accepted %q but commits/{ref} reads %s", ref, u)
		}
		c, err := base.Parse("repos/o/n/compare/" + url.QueryEscape(ref) + "..." + url.QueryEscape("main"))
		if err != nil || !strings.HasPrefix(c.Path, "/repos/o/n/compare/") || c.RawQuery != "" {
			t.Fatalf("accepted %q but compare reads %v (%v)", ref, c, err)
		}
		if b, h, ok := strings.Cut(strings.TrimPrefix(c.Path, "/repos/o/n/compare/"), "..."); !ok || b != ref || h != "main" {
			t.Fatalf("accepted %q but compare splits into %q and %q", ref, b, h)
		}
	})
}
