package rest

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	optionsv1 "github.com/forgetools/forgetools/gen/forgetools/options/v1"
)

// A hostile forge that ignores per_page and answers one page of 59 MB:
// the pinned client stops reading at MaxResponseBytes, and the failure is
// resource_exhausted, not a JSON error or internal. An answer of exactly
// the cap still reads whole.
func TestPinnedClientCapsAnAnswer(t *testing.T) {
	sizes := map[string]int{"/huge": MaxResponseBytes + 1, "/exact": MaxResponseBytes}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(w, io.LimitReader(zeros{}, int64(sizes[r.URL.Path])))
	}))
	defer srv.Close()
	c := PinnedClient(mustURL(t, srv.URL+"/"), http.DefaultTransport)

	resp, err := c.Get(srv.URL + "/exact")
	if err != nil {
		t.Fatal(err)
	}
	n, err := io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if err != nil || n != MaxResponseBytes {
		t.Fatalf("an answer of exactly the cap: read %d, %v; want all %d", n, err, MaxResponseBytes)
	}

	resp, err = c.Get(srv.URL + "/huge")
	if err != nil {
		t.Fatal(err)
	}
	n, err = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	var large *TooLargeError
	if !errors.As(err, &large) || n != MaxResponseBytes {
		t.Fatalf("past the cap: read %d, %v; want %d and a *TooLargeError", n, err, MaxResponseBytes)
	}
	fe := (&Forge{Name: "GitHub"}).Map("get issue acme/app#1", err)
	if fe.Code != optionsv1.ErrorCode_ERROR_CODE_RESOURCE_EXHAUSTED || !strings.Contains(fe.Message, "16 MiB") {
		t.Errorf("mapped to %v %q; want resource_exhausted naming the cap", fe.Code, fe.Message)
	}
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = ' '
	}
	return len(p), nil
}
