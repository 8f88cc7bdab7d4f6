package rest

import (
	"fmt"
	"io"
	"net/http"
)

// MaxResponseBytes bounds the body of any one forge answer a provider
// reads. Providers ask for the page the renderer shows (a GitHub issue's
// first 30 comments of at most 64 KiB each is under 4 MiB of JSON), so an
// answer past this is a forge ignoring per_page or sending a pathological
// artifact; reading it whole is how ten reads of a hostile issue took the
// gateway past 2 GB. It is the factor of the memory bound in
// docs/limits.md: what one call can make a provider hold.
const MaxResponseBytes = 16 << 20

// TooLargeError is a forge answer cut off at MaxResponseBytes.
type TooLargeError struct{ Limit int64 }

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("the forge's answer is larger than the %d MiB one call may read", e.Limit>>20)
}

// capBody makes resp's body fail with *TooLargeError once more than limit
// bytes have been read from it, so a decoder stops instead of buffering a
// forge's unbounded answer.
func capBody(resp *http.Response, limit int64) {
	if resp == nil || resp.Body == nil {
		return
	}
	resp.Body = &cappedBody{rc: resp.Body, left: limit, limit: limit}
}

type cappedBody struct {
	rc    io.ReadCloser
	left  int64
	limit int64
}

func (b *cappedBody) Read(p []byte) (int, error) {
	if b.left < 0 {
		return 0, &TooLargeError{Limit: b.limit}
	}
	// Read one byte past the limit: an answer of exactly limit bytes is
	// whole, one byte more is not.
	if int64(len(p)) > b.left+1 {
		p = p[:b.left+1]
	}
	n, err := b.rc.Read(p)
	b.left -= int64(n)
	if b.left < 0 {
		return n - int(-b.left), &TooLargeError{Limit: b.limit}
	}
	return n, err
}

func (b *cappedBody) Close() error { return b.rc.Close() }
