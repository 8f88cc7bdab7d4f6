package github

import (
	"context"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	"github.com/forgetools/forgetools/providers/github/githubtest"
	"github.com/forgetools/forgetools/providers/kit"
)

func TestNewRefusesBadOptions(t *testing.T) {
	for _, tc := range []struct {
		name string
		o    Options
		want string
	}{
		{"url as host", Options{Options: kit.Options{Host: "https://ghe.example.com", Token: "t"}}, "not a host name"},
		{"host with path", Options{Options: kit.Options{Host: "ghe.example.com/api", Token: "t"}}, "not a host name"},
		{"no token", Options{Options: kit.Options{Host: "ghe.example.com"}}, "no token for ghe.example.com"},
		{"negative timeout", Options{Options: kit.Options{Token: "t", Timeout: -time.Second}}, "negative"},
		{"plain http off loopback", Options{Options: kit.Options{Token: "t", APIURL: "http://ghe.example.com/api/v3/"}}, "plain http"},
		{"other scheme", Options{Options: kit.Options{Token: "t", APIURL: "ftp://ghe.example.com/"}}, "scheme must be https"},
		{"credentials in url", Options{Options: kit.Options{Token: "t", APIURL: "https://user:pw@ghe.example.com/"}}, "no credentials"},
		{"query in url", Options{Options: kit.Options{Token: "t", APIURL: "https://ghe.example.com/?x=1"}}, "no credentials, query"},
		{"no host in url", Options{Options: kit.Options{Token: "t", APIURL: "/api/v3/"}}, "scheme://host"},
		{"unparsable url", Options{Options: kit.Options{Token: "t", APIURL: "https://user:pw@ghe.example.com/%zz"}}, "not a URL"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := New(tc.o)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("New(%+v) = %v, want an error containing %q", tc.o, err, tc.want)
			}
			if err != nil && strings.Contains(err.Error(), "pw") {
				t.Errorf("error repeats a credential: %v", err)
			}
		})
	}
}

func TestRef(t *testing.T) {
	for host, want := range map[string]string{"": "github.com", "GHE.Example.com": "ghe.example.com", "ghe.example.com:8443": "ghe.example.com:8443"} {
		p, err := New(Options{Options: kit.Options{Host: host, Token: "t"}})
		if err != nil {
			t.Fatal(err)
		}
		wantProto(t, p.Ref(), &forgev1.ForgeRef{Provider: forgev1.ForgeProvider_FORGE_PROVIDER_GITHUB, Host: want})
	}
}

// dialing is the fake's HTTPS transport with every connection dialled to
// the fake, so a provider configured for a real host name (whose TLS name
// is checked as serverName) reaches it.
func dialing(f *fakeGitHub, serverName string) http.RoundTripper {
	tr := f.srv.Client().Transport.(*http.Transport).Clone()
	addr := f.srv.Listener.Addr().String()
	tr.DialContext = func(ctx context.Context, network, _ string) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, network, addr)
	}
	tr.TLSClientConfig.ServerName = serverName
	return tr
}

// Each kind of host reaches its API root: api.github.com for github.com,
// HOST/api/v3 for Enterprise Server, api.HOST for GHE.com.
func TestHostsMapToTheirAPI(t *testing.T) {
	for _, tc := range []struct {
		host, apiHost, prefix, tlsName string
	}{
		{"", "api.github.com", "", "api.example.com"},
		{"ghe.example.com", "ghe.example.com", "/api/v3", ""},
		{"octo.ghe.com", "api.octo.ghe.com", "", "api.example.com"},
	} {
		t.Run(tc.apiHost, func(t *testing.T) {
			// The fake mounts the API at the prefix and refuses a request
			// outside it; its recorded paths are within the root.
			f := startFake(t, githubtest.Options{TLS: true, PathPrefix: tc.prefix}, []exchange{
				{method: "GET", path: repoPath + "/issues/1347", host: tc.apiHost, accept: acceptReactions, reply: fixture(t, "issue.json")},
				{method: "GET", path: repoPath + "/issues/1347/comments", host: tc.apiHost, query: q("per_page", "30"), accept: acceptReactions, reply: "[]"},
			})
			p, err := New(Options{Options: kit.Options{Host: tc.host, Token: authorToken, UserAgent: testUserAgent, Transport: dialing(f, tc.tlsName)}})
			if err != nil {
				t.Fatal(err)
			}
			got, err := p.GetIssue(ctx, noCall, getIssue1347)
			if err != nil {
				t.Fatal(err)
			}
			if want := p.Ref().GetHost(); got.GetForge().GetHost() != want {
				t.Errorf("forge host = %q, want %q", got.GetForge().GetHost(), want)
			}
		})
	}
}

// api_url points an Enterprise host at another API root (as tests and
// unusual proxies need); the Ref keeps the configured host.
func TestAPIURLOverride(t *testing.T) {
	f := startFake(t, githubtest.Options{PathPrefix: "/ghe/api/v3"}, []exchange{
		{method: "GET", path: repoPath + "/issues/1347", accept: acceptReactions, reply: fixture(t, "issue.json")},
		{method: "GET", path: repoPath + "/issues/1347/comments", query: q("per_page", "30"), accept: acceptReactions, reply: "[]"},
	})
	p := f.provider(t, func(o *Options) { o.Host = "ghe.example.com"; o.APIURL = f.srv.URL + "/ghe/api/v3" })
	got, err := p.GetIssue(ctx, noCall, getIssue1347)
	if err != nil {
		t.Fatal(err)
	}
	if got.GetForge().GetHost() != "ghe.example.com" {
		t.Errorf("forge host = %q", got.GetForge().GetHost())
	}
}

func TestDefaultUserAgent(t *testing.T) {
	f := newFake(t, exchange{method: "POST", path: repoPath + "/issues", agent: DefaultUserAgent, status: 201,
		body: `{"title":"Crash on start"}`, reply: fixture(t, "issue_created.json")})
	if _, err := f.provider(t, func(o *Options) { o.UserAgent = "" }).CreateIssue(ctx, noCall, newIssue); err != nil {
		t.Fatal(err)
	}
}
