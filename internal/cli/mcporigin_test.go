package cli

import (
	"net"
	"net/http"
	"testing"
)

// TestOriginPolicy: no Origin passes; loopback origins pass on a loopback
// listener only; --allow-origin entries pass in any spelling of the same
// origin; "null", cross-site and malformed origins are refused.
func TestOriginPolicy(t *testing.T) {
	loop := &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 8080}
	wild := &net.TCPAddr{IP: net.IPv4zero, Port: 8080}
	allow := []string{"https://App.Example.com:443", "http://tool.example:8000"}
	cases := []struct {
		listener net.Addr
		origin   []string
		want     bool
	}{
		{loop, nil, true},
		{loop, []string{"http://localhost:6274"}, true},
		{loop, []string{"http://127.0.0.1"}, true},
		{loop, []string{"http://127.5.6.7:9"}, true},
		{loop, []string{"http://[::1]:3000"}, true},
		{loop, []string{"https://app.example.com"}, true},
		{loop, []string{"http://tool.example:8000"}, true},
		{loop, []string{"http://evil.example"}, false},
		{loop, []string{"null"}, false},
		{loop, []string{"NULL"}, false},
		{loop, []string{""}, false},
		{loop, []string{"file://"}, false},
		{loop, []string{"http://tool.example:8001"}, false},
		{loop, []string{"http://app.example.com"}, false}, // http, not https
		{loop, []string{"https://app.example.com.evil.example"}, false},
		{loop, []string{"http://localhost.evil.example"}, false},
		{loop, []string{"http://localhost@evil.example"}, false},
		{loop, []string{"http://evil.example/http://localhost"}, false},
		{loop, []string{"http://localhost", "http://evil.example"}, false},
		{loop, []string{"chrome-extension://abcdef"}, false},
		{wild, []string{"http://localhost:6274"}, false},
		{wild, []string{"https://app.example.com"}, true},
		{wild, nil, true},
	}
	for _, c := range cases {
		p, err := newOriginPolicy(c.listener, allow)
		if err != nil {
			t.Fatal(err)
		}
		if got := p.permits(c.origin); got != c.want {
			t.Errorf("listener %s, Origin %q: permitted %v, want %v", c.listener, c.origin, got, c.want)
		}
	}
	// Adversarial pass: a browser's no-cors GET (an <img>, a <script>)
	// carries no Origin but says where it came from in Sec-Fetch-Site.
	p, _ := newOriginPolicy(loop, allow)
	for site, want := range map[string]bool{"": true, "none": true, "same-origin": true, "same-site": true, "cross-site": false, "CROSS-SITE": false} {
		h := http.Header{}
		if site != "" {
			h.Set("Sec-Fetch-Site", site)
		}
		if got := p.permitsRequest(h); got != want {
			t.Errorf("no Origin, Sec-Fetch-Site %q: permitted %v, want %v", site, got, want)
		}
	}
	h := http.Header{"Origin": {"https://app.example.com"}, "Sec-Fetch-Site": {"cross-site"}}
	if !p.permitsRequest(h) {
		t.Error("an allowed origin's cross-site request was refused")
	}
	for _, o := range []string{"http://127.0.0.1.evil.example", "http://0.0.0.0:8080", "http://localhost.:1"} {
		if got := p.permits([]string{o}); got != (o == "http://localhost.:1") {
			t.Errorf("Origin %q: permitted %v", o, got)
		}
	}
	for _, bad := range []string{"null", "app.example.com", "https://app.example.com/path", "ftp://x.example", "https://"} {
		if _, err := newOriginPolicy(loop, []string{bad}); err == nil {
			t.Errorf("--allow-origin %q accepted", bad)
		}
	}
}
