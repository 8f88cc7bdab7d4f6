package console

import (
	"errors"
	"net"
	"net/http"
	"net/url"
	"strings"
)

// sameOrigin checks a state-changing request came from one of the
// console's own pages: the browser's Origin header (or, where a browser
// sends none, its Referer) must name this very scheme, host and port, and
// a Sec-Fetch-Site header, where sent, must say same-origin. A request
// with neither header is refused: every browser that submits a form sends
// one, and a non-browser client has no business posting here.
func sameOrigin(r *http.Request) error {
	if site := r.Header.Get("Sec-Fetch-Site"); site != "" && site != "same-origin" && site != "none" {
		return errors.New("the request came from another site (Sec-Fetch-Site: " + site + ")")
	}
	want := "http://" + r.Host
	if r.TLS != nil {
		want = "https://" + r.Host
	}
	if o := r.Header.Get("Origin"); o != "" {
		if !strings.EqualFold(o, want) {
			return errors.New("the request's Origin is not this console's")
		}
		return nil
	}
	ref := r.Header.Get("Referer")
	if ref == "" {
		return errors.New("the request has neither Origin nor Referer, so its origin cannot be checked")
	}
	u, err := url.Parse(ref)
	if err != nil || !strings.EqualFold(u.Scheme+"://"+u.Host, want) {
		return errors.New("the request's Referer is not this console's")
	}
	return nil
}

// loopbackHost reports whether a Host header names this machine by a
// loopback address or "localhost", with or without a port.
func loopbackHost(host string) bool {
	h, _, err := net.SplitHostPort(host)
	if err != nil {
		h = strings.Trim(host, "[]")
	}
	if strings.EqualFold(h, "localhost") {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}
