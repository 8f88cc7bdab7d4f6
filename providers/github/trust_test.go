package github

import (
	"context"
	"net/http"
	"testing"
)

// Organisation membership and write permission, as the gateway's trusted
// authors ask them: GitHub's status and permission mapped to yes or no,
// a failure an error, and a name that could change the path refused
// before any request.
func TestAuthorVouch(t *testing.T) {
	ctx := context.Background()
	perm := func(user, level string) exchange {
		return exchange{method: http.MethodGet, path: "/repos/octocat/Hello-World/collaborators/" + user + "/permission",
			reply:          `{"permission":"` + level + `","role_name":"` + level + `","user":null}`,
			offDescription: "the user is left out: only the permission is read"}
	}
	f := newFake(t,
		exchange{method: http.MethodGet, path: "/orgs/acme/members/carol", status: http.StatusNoContent},
		exchange{method: http.MethodGet, path: "/orgs/acme/members/mallory", status: http.StatusNotFound},
		exchange{method: http.MethodGet, path: "/orgs/acme/members/eve", status: http.StatusBadGateway, reply: `{"message":"Server Error"}`},
		perm("wes", "admin"), perm("wes", "write"), perm("rita", "read"), perm("nobody", "none"),
		exchange{method: http.MethodGet, path: "/repos/octocat/Hello-World/collaborators/ghost/permission", status: http.StatusNotFound,
			reply: `{"message":"Not Found","documentation_url":"https://docs.github.com/rest"}`},
	)
	p := f.provider(t)
	for _, c := range []struct {
		login string
		want  bool
		err   bool
	}{{"carol", true, false}, {"mallory", false, false}, {"eve", false, true}} {
		got, err := p.OrgMember(ctx, noCall, "acme", c.login)
		if got != c.want || (err != nil) != c.err {
			t.Errorf("OrgMember(acme, %s) = %v, %v; want %v, error %v", c.login, got, err, c.want, c.err)
		}
	}
	for _, c := range []struct {
		login string
		want  bool
	}{{"wes", true}, {"wes", true}, {"rita", false}, {"nobody", false}, {"ghost", false}} {
		got, err := p.RepoWriter(ctx, noCall, hello, c.login)
		if got != c.want || err != nil {
			t.Errorf("RepoWriter(%s) = %v, %v; want %v", c.login, got, err, c.want)
		}
	}
	before := f.requests()
	if _, err := p.OrgMember(ctx, noCall, "acme", ".."); err == nil {
		t.Error(`OrgMember(acme, "..") asked GitHub`)
	}
	if _, err := p.RepoWriter(ctx, noCall, hello, "a/b"); err == nil {
		t.Error(`RepoWriter("a/b") asked GitHub`)
	}
	if f.requests() != before {
		t.Errorf("%d requests for names that could change the path", f.requests()-before)
	}
}
