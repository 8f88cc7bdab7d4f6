package forgefake

import (
	"bytes"
	"net/http"
	"net/url"
)

// Exchange is one request and the answer the fake gave it, for a fake
// that holds its exchanges to the forge's API description (Options.Exchange).
type Exchange struct {
	Method string
	Path   string // as recorded (see Options.Unescaped)
	// Sent is the path below the API root as sent (escaped); a mounted
	// path's recordAs.
	Sent   string
	Query  url.Values
	Header http.Header
	Body   []byte
	// Outside says the path is outside the API root (and no mount);
	// Mounted that a Mount served it.
	Outside, Mounted bool
	// Scripted says an injected answer, not the state, gave it; Off is
	// that answer's OffDescription.
	Scripted bool
	Off      string
	// The answer as written; Status 0 when it never was (a held one).
	Status         int
	ResponseHeader http.Header
	Response       []byte
}

// capture records the status and body an answer writes, for Exchange.
type capture struct {
	http.ResponseWriter
	status int
	body   bytes.Buffer
}

func (w *capture) WriteHeader(status int) {
	if w.status == 0 {
		w.status = status
	}
	w.ResponseWriter.WriteHeader(status)
}

func (w *capture) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	w.body.Write(b)
	return w.ResponseWriter.Write(b)
}

func (w *capture) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}
