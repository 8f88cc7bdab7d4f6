package cli

import (
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
)

// originPolicy is which browser origins may speak to the MCP HTTP
// listener. The MCP specification (transports, "Security Warning") says a
// server MUST validate Origin: a web page the user visits can otherwise
// drive a local MCP server from the browser (DNS rebinding, or a plain
// cross-site fetch). A request with no Origin did not come from a browser
// page and passes to the bearer check; one with an Origin passes only if
// it is a loopback origin and the listener is on loopback (a local
// client's UI, such as the MCP Inspector's), or is named by
// --allow-origin. "null" (a sandboxed frame, a file: page, a redirect) and
// everything else get 403 before any token is looked at.
type originPolicy struct {
	loopback bool            // the listener is on a loopback address
	allowed  map[string]bool // normalized --allow-origin entries
}

// newOriginPolicy checks the --allow-origin entries: each must be a bare
// origin (scheme://host[:port]) of http or https.
func newOriginPolicy(listener net.Addr, allow []string) (*originPolicy, error) {
	p := &originPolicy{loopback: isLoopbackAddr(listener), allowed: map[string]bool{}}
	for _, a := range allow {
		o, ok := normalizeOrigin(a)
		if !ok {
			return nil, usageError{fmt.Errorf("--allow-origin %q: want an origin such as https://app.example.com or http://localhost:6274 (scheme, host and port only)", a)}
		}
		p.allowed[o] = true
	}
	return p, nil
}

// permits reports whether a request with these Origin header values may
// proceed.
func (p *originPolicy) permits(values []string) bool {
	if len(values) == 0 {
		return true
	}
	if len(values) > 1 {
		return false // a browser sends one; two is someone probing the check
	}
	o, ok := normalizeOrigin(values[0])
	if !ok {
		return false // includes "null"
	}
	if p.allowed[o] {
		return true
	}
	if !p.loopback {
		return false
	}
	u, _ := url.Parse(o)
	return isLoopbackHost(u.Hostname())
}

// permitsRequest is permits for a request's headers. A browser's no-cors
// request (an <img>, a <script>, a navigation) may carry no Origin; its
// Sec-Fetch-Site still says it came from another site, and it is refused.
func (p *originPolicy) permitsRequest(h http.Header) bool {
	if len(h.Values("Origin")) == 0 && strings.EqualFold(h.Get("Sec-Fetch-Site"), "cross-site") {
		return false
	}
	return p.permits(h.Values("Origin"))
}

// wrap answers 403 to a request whose Origin the policy refuses.
func (p *originPolicy) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !p.permitsRequest(r.Header) {
			http.Error(w, "Forbidden: Origin not allowed (see mcp --allow-origin)", http.StatusForbidden)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// normalizeOrigin is s as "scheme://host[:port]", lower-cased with the
// default port dropped, or false if s is not an http(s) origin.
func normalizeOrigin(s string) (string, bool) {
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" ||
		u.User != nil || (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" || u.Opaque != "" {
		return "", false
	}
	host, port := strings.ToLower(u.Hostname()), u.Port()
	if host == "" || (u.Scheme == "http" && port == "80") || (u.Scheme == "https" && port == "443") {
		port = ""
	}
	if host == "" {
		return "", false
	}
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	if port != "" {
		host += ":" + port
	}
	return u.Scheme + "://" + host, true
}

// isLoopbackHost reports whether a host name (no port) is loopback:
// "localhost" or a loopback IP.
func isLoopbackHost(host string) bool {
	host = strings.TrimSuffix(strings.ToLower(host), ".")
	if host == "localhost" {
		return true
	}
	ip, err := netip.ParseAddr(strings.Trim(host, "[]"))
	return err == nil && ip.IsLoopback()
}

// isLoopbackAddr reports whether a listener's address is loopback; an
// unspecified one (0.0.0.0, ::) is not.
func isLoopbackAddr(a net.Addr) bool {
	if t, ok := a.(*net.TCPAddr); ok {
		return t.IP.IsLoopback()
	}
	host, _, err := net.SplitHostPort(a.String())
	return err == nil && isLoopbackHost(host)
}
