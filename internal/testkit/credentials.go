package testkit

import (
	"encoding/base64"
	"net/url"
	"strings"
)

// Echoes are the ways a hostile or careless forge could quote a credential
// back in an answer, by name: verbatim, case-changed, base64 (standard and
// URL alphabets, padded or not, alone or inside an Authorization: Basic
// value at each byte alignment), URL-encoded (query and path escaping),
// split in two, and a piece of it. Redaction must remove every one; the
// secret should be at least 16 bytes, as the gateway's are.
func Echoes(secret string) map[string]string {
	half := len(secret) / 2
	b64 := func(enc *base64.Encoding, s string) string { return enc.EncodeToString([]byte(s)) }
	return map[string]string{
		"verbatim":              secret,
		"lower-cased":           strings.ToLower(secret),
		"upper-cased":           strings.ToUpper(secret),
		"base64":                b64(base64.StdEncoding, secret),
		"base64 unpadded":       b64(base64.RawStdEncoding, secret),
		"base64url":             b64(base64.URLEncoding, secret),
		"base64url unpadded":    b64(base64.RawURLEncoding, secret),
		"basic auth":            "Basic " + b64(base64.StdEncoding, "x-access-token:"+secret),
		"basic auth, 1-aligned": b64(base64.StdEncoding, "ab:"+secret+"!"),
		"basic auth, 2-aligned": b64(base64.StdEncoding, "a:"+secret+"?x"),
		"query-escaped":         url.QueryEscape(secret),
		"path-escaped":          url.PathEscape(secret),
		"lower-cased escaped":   strings.ToLower(url.QueryEscape(secret)),
		"split in two":          secret[:half] + " ... " + secret[half:],
		"middle piece":          secret[5:13],
		"in a URL":              "https://api.example/x?access_token=" + url.QueryEscape(secret) + "&y=1",
	}
}

// LeakWindow is the shortest piece of a credential Leak looks for.
const LeakWindow = 8

// Leak is a piece of secret at least LeakWindow bytes long, in any case,
// verbatim, URL-encoded or base64-encoded at any alignment, that text
// shows; "" when there is none.
func Leak(secret, text string) string {
	folded := strings.ToLower(text)
	forms := []string{secret, url.QueryEscape(secret), url.PathEscape(secret)}
	for shift := range 3 {
		padded := strings.Repeat("\x00", shift) + secret
		for _, enc := range []*base64.Encoding{base64.RawStdEncoding, base64.RawURLEncoding} {
			b := enc.EncodeToString([]byte(padded))
			forms = append(forms, b[min(len(b), 4*min(shift, 1)):max(len(b)-4, 0)])
		}
	}
	for _, form := range forms {
		form = strings.ToLower(form)
		for i := 0; i+LeakWindow <= len(form); i++ {
			w := form[i : i+LeakWindow]
			if strings.Count(w, w[:1]) == LeakWindow {
				continue // "00000000" is no secret
			}
			if strings.Contains(folded, w) {
				return w
			}
		}
	}
	return ""
}
