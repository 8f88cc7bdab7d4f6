package rest

import (
	"bytes"
	"container/list"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
)

// Conditional reads. A repeated GET of an unchanged resource costs the
// forge a 304 instead of a full answer, and GitHub does not count a 304
// against a token's hourly quota. The cache sits below the client
// libraries, inside the pin (egress.go), so every REST provider gets it
// once and no library needs to know.
//
// It never answers on its own: every read asks the forge, with
// If-None-Match (and If-Modified-Since) from the last full answer, and
// only a 304 is answered from the stored body, as the 200 it stands for.
// So a read is as fresh as without the cache; what it saves is the
// forge's quota and the body's transfer.
//
// An entry is keyed by an HMAC, under a key random to this process, of
// the credential (the headers that carry one), the method, the URL and
// the request headers that vary an answer (Accept, Accept-Encoding): no
// secret is stored, and one credential's answer is never served to
// another. Only a whole 200 with a validator, no Set-Cookie, no
// "no-store" and a body of at most MaxCachedBody is stored; the cache
// holds at most MaxCacheEntries entries and MaxCacheBytes bytes, least
// recently used first out.

const (
	// MaxCachedBody is the largest answer body kept: a rendered page of
	// an issue's comments is well under it; larger answers (a hostile
	// forge's, a log) pass through uncached.
	MaxCachedBody = 1 << 20
	// MaxCacheEntries and MaxCacheBytes bound one client's cache.
	MaxCacheEntries = 1024
	MaxCacheBytes   = 16 << 20
)

// credentialHeaders carry a credential on the REST forges: GitHub's and
// Gitea's Authorization, GitLab's PRIVATE-TOKEN (or JOB-TOKEN), a cookie.
var credentialHeaders = []string{"Authorization", "Private-Token", "Job-Token", "Cookie"}

// varyHeaders are the request headers that change a forge's answer to
// the same URL and are part of the key.
var varyHeaders = []string{"Accept", "Accept-Encoding"}

// conditionalTransport is the cache, in front of next.
type conditionalTransport struct {
	next                 http.RoundTripper
	maxBody              int64
	maxEntries, maxBytes int
	secret               []byte // the HMAC key of credential digests

	mu    sync.Mutex
	lru   *list.List // of *cacheEntry, most recently used at the front
	byKey map[string]*list.Element
	bytes int
}

type cacheEntry struct {
	key       string
	etag, mod string
	header    http.Header
	body      []byte
	size      int
	status    string
}

func newConditional(next http.RoundTripper, maxBody int64, maxEntries, maxBytes int) *conditionalTransport {
	secret := make([]byte, 32)
	_, _ = rand.Read(secret) // crypto/rand never fails on a supported OS
	return &conditionalTransport{
		next: next, maxBody: maxBody, maxEntries: maxEntries, maxBytes: maxBytes,
		secret: secret, lru: list.New(), byKey: map[string]*list.Element{},
	}
}

// key is the cache key of r, or "" when r is not a read the cache takes:
// not a GET, a range, or a request already conditional (the GitHub poll
// driver sends its own If-None-Match and reads the 304 itself).
func (t *conditionalTransport) key(r *http.Request) string {
	if r.Method != http.MethodGet || r.Header.Get("Range") != "" ||
		r.Header.Get("If-None-Match") != "" || r.Header.Get("If-Modified-Since") != "" {
		return ""
	}
	// The whole key is a digest: neither a credential nor a URL (a signed
	// log download's carries one in its query) is kept as sent.
	mac := hmac.New(sha256.New, t.secret)
	field := func(s string) {
		io.WriteString(mac, strconv.Itoa(len(s))+":"+s)
	}
	for _, h := range credentialHeaders {
		for _, v := range r.Header.Values(h) {
			field(h)
			field(v)
		}
	}
	field(r.Method)
	field(r.URL.String())
	for _, h := range varyHeaders {
		field(strings.Join(r.Header.Values(h), ","))
	}
	return string(mac.Sum(nil))
}

func (t *conditionalTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	key := t.key(r)
	if key == "" {
		return t.next.RoundTrip(r)
	}
	e := t.get(key)
	if e != nil {
		r = r.Clone(r.Context())
		if e.etag != "" {
			r.Header.Set("If-None-Match", e.etag)
		}
		if e.mod != "" {
			r.Header.Set("If-Modified-Since", e.mod)
		}
	}
	resp, err := t.next.RoundTrip(r)
	if err != nil {
		return nil, err
	}
	switch {
	case resp.StatusCode == http.StatusNotModified && e != nil:
		return e.response(resp), nil
	case resp.StatusCode == http.StatusOK:
		return t.store(key, resp), nil
	default:
		t.drop(key)
		return resp, nil
	}
}

// response is the 200 a 304 stands for: the stored status, headers and
// body, with the 304's own headers over them (RFC 9111 4.3.4: the rate
// limit headers, a moved date) except those that describe its empty body.
func (e *cacheEntry) response(nm *http.Response) *http.Response {
	nm.Body.Close()
	h := e.header.Clone()
	for k, v := range nm.Header {
		switch k {
		case "Content-Length", "Content-Type", "Content-Encoding", "Transfer-Encoding":
			continue
		}
		h[k] = v
	}
	resp := *nm
	resp.Status, resp.StatusCode, resp.Header = e.status, http.StatusOK, h
	resp.Body = io.NopCloser(bytes.NewReader(e.body))
	resp.ContentLength = int64(len(e.body))
	resp.Uncompressed = nm.Uncompressed
	return &resp
}

// store keeps resp when it may be kept and returns it, its body unread:
// up to maxBody+1 bytes are read here, and an answer longer than that
// goes on from where the read stopped.
func (t *conditionalTransport) store(key string, resp *http.Response) *http.Response {
	etag, mod := resp.Header.Get("ETag"), resp.Header.Get("Last-Modified")
	if (etag == "" && mod == "") || len(resp.Header.Values("Set-Cookie")) > 0 ||
		strings.Contains(strings.ToLower(resp.Header.Get("Cache-Control")), "no-store") ||
		resp.ContentLength > t.maxBody {
		t.drop(key)
		return resp
	}
	buf, err := io.ReadAll(io.LimitReader(resp.Body, t.maxBody+1))
	rest := resp.Body
	if err != nil || int64(len(buf)) > t.maxBody {
		// Too long, or cut off: pass on what was read and the rest.
		t.drop(key)
		resp.Body = readCloser{io.MultiReader(bytes.NewReader(buf), &errReader{err}, rest), rest}
		return resp
	}
	rest.Close()
	resp.Body = io.NopCloser(bytes.NewReader(buf))
	e := &cacheEntry{key: key, etag: etag, mod: mod, header: resp.Header.Clone(), body: buf, status: resp.Status}
	e.size = len(key) + len(buf) + headerSize(e.header)
	t.put(e)
	return resp
}

func headerSize(h http.Header) int {
	n := 0
	for k, vs := range h {
		for _, v := range vs {
			n += len(k) + len(v) + 4
		}
	}
	return n
}

// errReader returns err once the bytes before it are read; nil is EOF.
type errReader struct{ err error }

func (r *errReader) Read([]byte) (int, error) {
	if r.err != nil {
		return 0, r.err
	}
	return 0, io.EOF
}

type readCloser struct {
	io.Reader
	io.Closer
}

func (t *conditionalTransport) get(key string) *cacheEntry {
	t.mu.Lock()
	defer t.mu.Unlock()
	el, ok := t.byKey[key]
	if !ok {
		return nil
	}
	t.lru.MoveToFront(el)
	return el.Value.(*cacheEntry)
}

func (t *conditionalTransport) put(e *cacheEntry) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.remove(e.key)
	if e.size > t.maxBytes {
		return
	}
	t.byKey[e.key] = t.lru.PushFront(e)
	t.bytes += e.size
	for t.lru.Len() > t.maxEntries || t.bytes > t.maxBytes {
		t.remove(t.lru.Back().Value.(*cacheEntry).key)
	}
}

func (t *conditionalTransport) drop(key string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.remove(key)
}

// remove deletes key's entry; t.mu is held.
func (t *conditionalTransport) remove(key string) {
	if el, ok := t.byKey[key]; ok {
		t.bytes -= el.Value.(*cacheEntry).size
		t.lru.Remove(el)
		delete(t.byKey, key)
	}
}

// cached is how many entries and bytes the cache holds (for tests).
func (t *conditionalTransport) cached() (entries, bytes int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.lru.Len(), t.bytes
}
