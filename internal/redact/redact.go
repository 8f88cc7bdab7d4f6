// Package redact removes credentials from text that may reach a model, a
// log or the store: tool results, error messages, log lines, ownership
// rows, event payloads. A forge, or whatever answers at its api_url, may
// echo the credential it was sent, and not always verbatim: base64-encoded
// (an Authorization: Basic header), lower- or upper-cased, URL-encoded
// (partly or every byte, %XX in either case), as HTML character references
// (&#x67; &#103; &lowbar;), in fullwidth or other Unicode compatibility
// forms, with a separator between every character (g-h-p-_-1-6, spaced
// letters), or cut into pieces. A Redactor finds all of those.
//
// It matches windows: every run of Window bytes of the verbatim and
// URL-escaped forms, and of EncodedWindow bytes of the base64 forms,
// compared case-insensitively, in the text as it is and in two views of
// it (views.go): decoded (percent-escapes, character references and NFKC
// folded, each decoded byte remembering the span it came from) and
// separator-collapsed. Text containing such a run has it replaced, and
// neighbouring runs merge, so a credential's every form, and any piece of
// one at least Window bytes long, comes out as Marker.
//
// The floor is 6 bytes. Chunks of 7 got through the earlier floor of 8;
// at 6, a credential's windows are random strings of about 31 bits even
// case-folded, and one 40-byte token's few dozen windows match a
// position of ordinary text about once in 70 MB. At 5 (about 26 bits)
// that would be about once in 2 MB: the redactor would start
// shredding hex ids and words. So a credential cut into pieces of 5
// bytes or fewer is not caught. Base64 windows stay at 8 characters: six
// carry under five bytes, too little beyond a token's public prefix
// ("ghp_" is "Z2hwX" in base64) to name it. Windows made only of a token's
// public prefix ("github_pat_", "lin_api_") or of three or fewer distinct
// bytes ("000000") are skipped: they name a kind of credential, or
// nothing, rather than a secret. Every whole form is still matched.
//
// What no redactor can catch is a credential the upstream transforms in
// a way of its own: encrypted, hashed, reversed, paraphrased, spelled
// out in words, or cut into pieces shorter than the floor. SECURITY.md
// says so.
package redact

import (
	"encoding/base64"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"
)

// Version names what a Redactor catches; it goes up whenever it catches
// more, so stored rows are scrubbed again (gateway/store Scrub).
const Version = 2

// Window is the shortest piece of a credential that is redacted;
// EncodedWindow is the shortest piece of its base64 forms.
const (
	Window        = 6
	EncodedWindow = 8
)

// Marker replaces what was redacted.
const Marker = "[REDACTED]"

// Redactor redacts a fixed set of credentials. The zero value and nil
// redact nothing. It is safe for concurrent use.
type Redactor struct {
	// short holds the Window-byte runs of the verbatim and URL-escaped
	// forms, long the EncodedWindow-byte runs of the base64 ones: six
	// base64 characters carry under five bytes, too few beyond a token's
	// public prefix to name it.
	short, long windowSet
	// tails has a bit for the last two bytes of every window of either
	// set: most text positions fail it, and never reach a map.
	tails [1 << 16 / 64]uint64
	// Every form, lower-cased, is also matched whole, so a credential's
	// public prefix goes with it. A form with a window in the set can only
	// occur where a window matched (covered); the others (short, or of low
	// variety) are searched for always (bare).
	covered, bare []string
	// prefixes are the credentials' public prefixes, lower-cased: a span
	// that starts inside one ("G" + "LPAT-XQ3…") takes the rest of it.
	prefixes []string
}

// New returns a Redactor for secrets; empty ones are ignored.
func New(secrets ...string) *Redactor {
	r := &Redactor{short: newWindowSet(Window), long: newWindowSet(EncodedWindow)}
	seen := map[string]bool{}
	for _, secret := range secrets {
		if secret == "" {
			continue
		}
		public := len(publicPrefix.FindString(secret))
		if public > 0 && !slices.Contains(r.prefixes, foldASCII(secret[:public])) {
			r.prefixes = append(r.prefixes, foldASCII(secret[:public]))
		}
		for _, f := range forms(secret) {
			f.text = foldASCII(f.text)
			if f.text == "" || seen[f.text] {
				continue
			}
			seen[f.text] = true
			set := &r.long
			if f.verbatim {
				set = &r.short
			}
			kept := false
			for i := 0; i+set.n <= len(f.text); i++ {
				w := f.text[i : i+set.n]
				if (f.verbatim && i+set.n <= public) || distinct(w) <= 3 {
					continue
				}
				key := set.add(w)
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
// "lin_api_", "lin_oauth_", GitLab's "glpat-".
var publicPrefix = regexp.MustCompile(`^(?:[a-z]+[_-])+`)

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

// windowSet is the windows of one length n, packed.
type windowSet struct {
	n    int
	mask uint64 // keeps the last n bytes of a rolling key
	keys map[uint64]struct{}
}

func newWindowSet(n int) windowSet {
	return windowSet{n: n, mask: 1<<(8*n) - 1, keys: map[uint64]struct{}{}}
}

// add puts w in the set and returns its key.
func (ws *windowSet) add(w string) uint64 {
	var k uint64
	for i := range len(w) {
		k = k<<8 | uint64(w[i])
	}
	ws.keys[k] = struct{}{}
	return k
}

// has reports whether the last n bytes of rolling key k are a window.
func (ws *windowSet) has(k uint64) bool {
	_, ok := ws.keys[k&ws.mask]
	return ok
}

func lower(b byte) byte {
	if 'A' <= b && b <= 'Z' {
		return b + 'a' - 'A'
	}
	return b
}

// String returns s with every form of every credential, and every piece
// of one at least Window bytes long, replaced by Marker: as s spells it,
// or as its decoded and separator-collapsed views do (views.go).
func (r *Redactor) String(s string) string {
	if r.Empty() {
		return s
	}
	spans := r.withPrefixes(s, r.match(s))
	runs := collapsed(s, &view{}) // s itself: from and to are nil
	if mayEncode(s) {
		for _, d := range decodedViews(s) {
			for _, sp := range r.match(string(d.text)) {
				spans = insert(spans, d.span(sp[0], sp[1]))
			}
			runs = append(runs, collapsed(d.text, d)...)
		}
	}
	for _, run := range runs {
		for _, sp := range r.match(string(run.text)) {
			spans = insert(spans, run.span(sp[0], sp[1]))
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
		if end <= start {
			continue
		}
		b.WriteString(s[last:start])
		b.WriteString(Marker)
		last = end
	}
	b.WriteString(s[last:])
	return b.String()
}

// withPrefixes extends each span of s that starts inside a public prefix
// (the prefix's first bytes before it, the rest at its start) over the
// whole prefix: windows inside a prefix are not kept, so a piece of a
// credential cut in its prefix would otherwise leave the prefix's start.
func (r *Redactor) withPrefixes(s string, spans [][2]int) [][2]int {
	if len(r.prefixes) == 0 || len(spans) == 0 {
		return spans
	}
	var out [][2]int
	for _, sp := range spans {
		for _, p := range r.prefixes {
			for j := len(p) - 1; j > 0; j-- {
				if sp[0] >= j && sp[0]+len(p)-j <= len(s) && foldASCII(s[sp[0]-j:sp[0]+len(p)-j]) == p {
					sp[0] -= j
					break
				}
			}
		}
		out = insert(out, sp)
	}
	return out
}

// match is the spans of s, sorted and merged, that hold a window or a
// whole form.
func (r *Redactor) match(s string) [][2]int {
	var spans [][2]int // [start, end) to redact, sorted and merged
	var k uint64       // the last 8 bytes of s, lower-cased
	for i := range len(s) {
		k = k<<8 | uint64(lower(s[i]))
		if r.tails[uint16(k)/64]&(1<<(uint16(k)%64)) == 0 {
			continue
		}
		for _, ws := range [2]*windowSet{&r.short, &r.long} {
			if i+1 < ws.n || !ws.has(k) {
				continue
			}
			switch start, n := i+1-ws.n, len(spans); {
			case n == 0 || start > spans[n-1][1]:
				spans = append(spans, [2]int{start, i + 1})
			case start >= spans[n-1][0]:
				spans[n-1][1] = i + 1
			default: // a long window reaching back past the last span's start
				spans = insertSpan(spans, start, i+1)
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
				spans = insertSpan(spans, from+i, from+i+len(w))
				from += i + len(w)
			}
		}
	}
	return spans
}

// insert adds sp to sorted, merged spans.
func insert(spans [][2]int, sp [2]int) [][2]int {
	return insertSpan(spans, sp[0], sp[1])
}

// insertSpan adds [start, end) to sorted, merged spans.
func insertSpan(spans [][2]int, start, end int) [][2]int {
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
