package recorder_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/forgetools/forgetools/providers/internal/recorder"
)

// Writer counts each answer once by its status: an explicit one, 200 for
// a body written without one; an answer never written is not counted.
func TestStatusesCountWhatWasWritten(t *testing.T) {
	r := recorder.New[request]()
	for _, h := range []func(w http.ResponseWriter){
		func(w http.ResponseWriter) { w.WriteHeader(http.StatusNotModified) },
		func(w http.ResponseWriter) { w.Write([]byte("body")) },
		func(w http.ResponseWriter) { w.WriteHeader(http.StatusOK); w.WriteHeader(http.StatusTeapot) },
		func(http.ResponseWriter) {},
	} {
		h(r.Writer(httptest.NewRecorder()))
	}
	got := r.Statuses()
	if len(got) != 2 || got[http.StatusOK] != 2 || got[http.StatusNotModified] != 1 {
		t.Fatalf("statuses %v; want 200: 2, 304: 1", got)
	}
}
