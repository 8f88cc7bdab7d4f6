package forgefake

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"strings"

	"github.com/forgetools/forgetools/internal/forgemodel"
)

// Validator names the ETag a forge gives an answer, or "" for none: a
// fake's rule for which answers carry one and in what form (GitLab's
// weak digest of every API answer, Gitea's blob id on raw files only).
type Validator func(a Answer, body []byte) string

// WriteConditional sends a as Write does, and answers a GET as a forge
// with conditional requests does: a 200 carries the ETag v names, and
// when the request's If-None-Match lists it (IfNoneMatch), the answer is 304
// Not Modified with the ETag and no body. A nil v gives no answer an
// ETag.
func (a Answer) WriteConditional(w http.ResponseWriter, r *http.Request, v Validator) {
	if v == nil || r.Method != http.MethodGet || a.Status != http.StatusOK {
		a.Write(w, r)
		return
	}
	body := a.Raw
	if body == nil && a.Body != nil {
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		enc.Encode(a.Body)
		body = buf.Bytes()
	}
	tag := v(a, body)
	if tag == "" {
		a.Write(w, r)
		return
	}
	w.Header().Set("ETag", tag)
	if IfNoneMatch(r.Header.Get("If-None-Match"), tag) {
		for k, vs := range a.Header {
			w.Header()[k] = vs
		}
		w.Header().Del("Content-Type")
		w.WriteHeader(http.StatusNotModified)
		return
	}
	a.Write(w, r)
}

// IfNoneMatch reports whether an If-None-Match header lists tag, or is
// "*". The comparison is weak, as RFC 9110 (13.1.2) has it for this
// header: W/"x" and "x" name the same representation.
func IfNoneMatch(header, tag string) bool {
	for v := range strings.SplitSeq(header, ",") {
		if v = strings.TrimSpace(v); v == "*" || strings.TrimPrefix(v, "W/") == strings.TrimPrefix(tag, "W/") {
			return true
		}
	}
	return false
}

// WeakDigest gives every answer a weak ETag of a digest of its body, as
// GitLab's API does (Rack's ETag middleware).
func WeakDigest(_ Answer, body []byte) string {
	sum := sha256.Sum256(body)
	return `W/"` + hex.EncodeToString(sum[:16]) + `"`
}

// RawBlob gives only raw answers (a file's bytes) an ETag, the quoted
// blob id (strong), as Gitea does: its API's JSON answers carry none.
func RawBlob(a Answer, body []byte) string {
	if a.Raw == nil {
		return ""
	}
	return `"` + forgemodel.BlobSHA(string(body)) + `"`
}
