package testkit

import (
	"encoding/base64"
	"fmt"
	"html"
	"net/url"
	"regexp"
	"strings"

	"golang.org/x/text/unicode/norm"
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
		"percent-encoded whole": percentAll(secret, "%%%02X"),
		"percent-encoded lower": percentAll(secret, "%%%02x"),
		"dash between each":     separated(secret, "-"),
		"space between each":    separated(secret, " "),
		"dot between each":      separated(secret, "."),
		"6-byte chunks":         chunks(secret, 6, " and "),
		"hex entities":          entities(secret, "&#x%x;"),
		"decimal entities":      entities(secret, "&#%d;"),
		"named entities":        strings.NewReplacer("_", "&lowbar;", "+", "&plus;", "/", "&sol;", "=", "&equals;", "&", "&amp;", " ", "&#32;", "?", "&quest;").Replace(secret),
		"fullwidth":             fullwidth(secret),
		"fullwidth upper":       fullwidth(strings.ToUpper(secret)),
	}
}

// percentAll is every byte of s as format (%XX or %xx).
func percentAll(s, format string) string {
	var b strings.Builder
	for i := range len(s) {
		fmt.Fprintf(&b, format, s[i])
	}
	return b.String()
}

// separated is s with sep between every character.
func separated(s, sep string) string { return strings.Join(strings.Split(s, ""), sep) }

// chunks is s cut into n-byte pieces joined by glue.
func chunks(s string, n int, glue string) string {
	var parts []string
	for len(s) > n {
		parts = append(parts, s[:n])
		s = s[n:]
	}
	return strings.Join(append(parts, s), glue)
}

// entities is every character of s as an HTML character reference.
func entities(s, format string) string {
	var b strings.Builder
	for _, r := range s {
		fmt.Fprintf(&b, format, r)
	}
	return b.String()
}

// fullwidth is s with every printable ASCII character as its fullwidth
// form (U+FF01 to U+FF5E), which NFKC folds back.
func fullwidth(s string) string {
	return strings.Map(func(r rune) rune {
		if '!' <= r && r <= '~' {
			return r + 0xFEE0
		}
		return r
	}, s)
}

// LeakWindow is the shortest piece of a credential Leak looks for, and
// LeakEncodedWindow the shortest of its base64 forms (as internal/redact).
const (
	LeakWindow        = 6
	LeakEncodedWindow = 8
)

// Leak is a piece of secret at least LeakWindow bytes long, in any case,
// verbatim, URL-encoded or base64-encoded at any alignment, that text
// shows, as it is or once decoded (percent-encoding, HTML character
// references, Unicode compatibility forms such as fullwidth letters) or
// with a repeated separator between its characters taken out; "" when
// there is none.
func Leak(secret, text string) string {
	for _, view := range leakViews(text) {
		if l := leakIn(secret, view); l != "" {
			return l
		}
	}
	return ""
}

// leakViews are the ways Leak reads text.
func leakViews(text string) []string {
	decoded := norm.NFKC.String(html.UnescapeString(text))
	if u, err := url.PathUnescape(decoded); err == nil {
		decoded = u
	}
	views := []string{text, decoded}
	for _, sep := range []string{"-", " ", ".", ",", "_", ":", "|", "/", "\n", "\t"} {
		if !strings.Contains(decoded, sep) {
			continue
		}
		// A run with sep between every two characters, sep taken out.
		q := regexp.QuoteMeta(sep)
		run := regexp.MustCompile(fmt.Sprintf(`(?:[^%s]%s){%d,}[^%s]`, q, q, LeakWindow-1, q))
		views = append(views, run.ReplaceAllStringFunc(decoded, func(m string) string { return strings.ReplaceAll(m, sep, "") }))
	}
	return views
}

// publicPrefix is the kind marker a token starts with ("ghp_",
// "lin_oauth_", "glpat-"): naming it is no leak.
var publicPrefix = regexp.MustCompile(`^(?:[a-z]+[_-])+`)

func leakIn(secret, text string) string {
	folded := strings.ToLower(text)
	public := len(publicPrefix.FindString(secret))
	forms := []string{secret, url.QueryEscape(secret), url.PathEscape(secret)}
	for shift := range 3 {
		padded := strings.Repeat("\x00", shift) + secret
		for _, enc := range []*base64.Encoding{base64.RawStdEncoding, base64.RawURLEncoding} {
			b := enc.EncodeToString([]byte(padded))
			forms = append(forms, b[min(len(b), 4*min(shift, 1)):max(len(b)-4, 0)])
		}
	}
	for f, form := range forms {
		form = strings.ToLower(form)
		n := LeakWindow
		if f >= 3 {
			n = LeakEncodedWindow
		}
		for i := 0; i+n <= len(form); i++ {
			if f < 3 && i+n <= public {
				continue
			}
			w := form[i : i+n]
			if strings.Count(w, w[:1]) == n {
				continue // "00000000" is no secret
			}
			if strings.Contains(folded, w) {
				return w
			}
		}
	}
	return ""
}
