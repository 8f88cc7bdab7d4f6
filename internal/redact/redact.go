// Package redact removes credentials from text that may reach a model or a
// log: tool results, error messages, log lines. A forge, or whatever
// answers at its api_url, may echo the credential it was sent, and not
// always verbatim: base64-encoded (an Authorization: Basic header), lower-
// or upper-cased, URL-encoded, or cut into pieces. A Redactor finds all of
// those.
//
// It matches windows: every run of Window bytes of any encoded form of a
// credential, compared case-insensitively. Text containing such a run has
// it replaced, and neighbouring runs merge, so a credential's every form,
// and any piece of one at least Window bytes long, comes out as Marker.
//
// Window is 8 because the gateway's shortest credential is 16 bytes (its
// account tokens; forge tokens are longer): whichever way such a
// credential is split in two, one piece is at least 8 bytes, and 8 random
// characters of a token's alphabet carry about 47 bits, so ordinary text
// matching one by chance is not a concern. Windows made only of a token's
// public prefix ("github_pat_", "lin_api_") or of three or fewer distinct
// bytes ("00000000") are skipped: they name a kind of credential, or
// nothing, rather than a secret. Every whole form is still matched.
package redact

import (
	"encoding/base64"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"
)

// Window is the shortest piece of a credential that is redacted.
const Window = 8

// Marker replaces what was redacted.
const Marker = "[REDACTED]"

// Redactor redacts a fixed set of credentials. The zero value and nil
// redact nothing. It is safe for concurrent use.
type Redactor struct {
	windows map[uint64]struct{} // lower-cased Window-byte runs, packed
	// tails has a bit for the last two bytes of every window: most text
	// positions fail it, and never reach the map.
	tails [1 << 16 / 64]uint64
	// Every form, lower-cased, is also matched whole, so a credential's
	// public prefix goes with it. A form with a window in the set can only
	// occur where a window matched (covered); the others (short, or of low
	// variety) are searched for always (bare).
	covered, bare []string
}

// New returns a Redactor for secrets; empty ones are ignored.
func New(secrets ...string) *Redactor {
	r := &Redactor{windows: map[uint64]struct{}{}}
	seen := map[string]bool{}
	for _, secret := range secrets {
		if secret == "" {
			continue
		}
		public := len(publicPrefix.FindString(secret))
		for _, f := range forms(secret) {
			f.text = foldASCII(f.text)
			if f.text == "" || seen[f.text] {
				continue
			}
			seen[f.text] = true
			kept := false
			for i := 0; i+Window <= len(f.text); i++ {
				w := f.text[i : i+Window]
				if (f.verbatim && i+Window <= public) || distinct(w) <= 3 {
					continue
				}
				key := pack(w)
				r.windows[key] = struct{}{}
				r.tails[uint16(key)/64] |= 1 << (uint16(key) % 64)
				kept = true
			}
			if kept {
				r.covered = append(r.covered, f.text)
			} else {
				r.bare = append(r.bare, f.text)
			}
		}
	}
	return r
}

// publicPrefix is the kind marker tokens start with: "ghp_", "github_pat_",
// "lin_api_", "lin_oauth_".
var publicPrefix = regexp.MustCompile(`^(?:[a-z]+_)+`)

// form is one encoding of a credential; verbatim ones keep its prefix
// where it was.
type form struct {
	text     string
	verbatim bool
}

// forms are the encodings a credential is matched in. Case is folded when
// matching, which covers lower- and upper-casing. Base64 is taken at the
// three byte alignments a credential can have inside a longer encoded
// string ("x-access-token:" + token in an Authorization: Basic header):
// only the characters that depend on the credential's bytes alone are
// kept, so any base64 text that encodes the credential contains them.
func forms(secret string) []form {
	out := []form{
		{secret, true},
		{url.QueryEscape(secret), true},
		{url.PathEscape(secret), true},
	}
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding} {
		out = append(out, form{text: enc.EncodeToString([]byte(secret))})
		raw := enc.WithPadding(base64.NoPadding)
		for shift := range 3 {
			b := raw.EncodeToString(append(make([]byte, shift), secret...))
			// The first group holds shift unknown bytes; the last may hold
			// bytes that follow the credential.
			start, end := 0, len(b)
			if shift > 0 {
				start = 4
			}
			if rem := (shift + len(secret)) % 3; rem != 0 {
				end -= rem + 1
			}
			if start < end {
				out = append(out, form{text: b[start:end]})
			}
		}
	}
	return out
}

func distinct(w string) int {
	var seen [256]bool
	n := 0
	for i := range len(w) {
		if !seen[w[i]] {
			seen[w[i]] = true
			n++
		}
	}
	return n
}

// pack is a Window-byte string as a map key.
func pack(w string) uint64 {
	var k uint64
	for i := range Window {
		k = k<<8 | uint64(w[i])
	}
	return k
}

func lower(b byte) byte {
	if 'A' <= b && b <= 'Z' {
		return b + 'a' - 'A'
	}
	return b
}

// String returns s with every form of every credential, and every piece
// of one at least Window bytes long, replaced by Marker.
func (r *Redactor) String(s string) string {
	if r.Empty() {
		return s
	}
	var spans [][2]int // [start, end) to redact, sorted and merged
	var k uint64       // the last Window bytes of s, lower-cased
	for i := range len(s) {
		k = k<<8 | uint64(lower(s[i]))
		if r.tails[uint16(k)/64]&(1<<(uint16(k)%64)) == 0 {
			continue
		}
		if _, ok := r.windows[k]; ok && i+1 >= Window {
			if n := len(spans); n > 0 && i+1-Window <= spans[n-1][1] {
				spans[n-1][1] = i + 1
			} else {
				spans = append(spans, [2]int{i + 1 - Window, i + 1})
			}
		}
	}
	whole := r.bare
	if len(spans) > 0 {
		whole = append(slices.Clip(r.bare), r.covered...)
	}
	if len(whole) > 0 {
		folded := foldASCII(s)
		for _, w := range whole {
			for from := 0; ; {
				i := strings.Index(folded[from:], w)
				if i < 0 {
					break
				}
				spans = insert(spans, from+i, from+i+len(w))
				from += i + len(w)
			}
		}
	}
	if len(spans) == 0 {
		return s
	}
	var b strings.Builder
	last := 0
	for _, sp := range spans {
		start, end := max(sp[0], last), sp[1]
		for start > last && !utf8.RuneStart(s[start]) {
			start-- // never split a character: results must stay UTF-8
		}
		for end < len(s) && !utf8.RuneStart(s[end]) {
			end++
		}
		b.WriteString(s[last:start])
		b.WriteString(Marker)
		last = end
	}
	b.WriteString(s[last:])
	return b.String()
}

// insert adds [start, end) to sorted, merged spans.
func insert(spans [][2]int, start, end int) [][2]int {
	out := make([][2]int, 0, len(spans)+1)
	placed := false
	for _, sp := range spans {
		switch {
		case sp[1] < start:
			out = append(out, sp)
		case end < sp[0]:
			if !placed {
				out = append(out, [2]int{start, end})
				placed = true
			}
			out = append(out, sp)
		default:
			start, end = min(start, sp[0]), max(end, sp[1])
		}
	}
	if !placed {
		out = append(out, [2]int{start, end})
	}
	return out
}

// foldASCII lower-cases ASCII letters only, so byte offsets stay the same.
func foldASCII(s string) string {
	b := []byte(s)
	for i, c := range b {
		b[i] = lower(c)
	}
	return string(b)
}

// Empty reports whether r redacts nothing.
func (r *Redactor) Empty() bool { return r == nil || len(r.covered)+len(r.bare) == 0 }

// Message is s redacted and cut to at most max bytes on a character
// boundary, with "…" marking a cut: how a provider shows text from a
// forge's answer (its message fields, never the raw body) in an error.
func (r *Redactor) Message(s string, max int) string {
	s = r.String(s)
	if len(s) <= max {
		return s
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut-- // never split a character: proto strings must stay UTF-8
	}
	return s[:cut] + "…"
}
