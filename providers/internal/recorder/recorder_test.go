package recorder_test

import (
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"

	"github.com/forgetools/forgetools/providers/internal/recorder"
)

type request struct {
	route    string
	injected bool
}

// receive records a request for route, matched exactly as githubtest does.
func receive(r *recorder.Recorder[request], route string) (recorder.Response, bool, int) {
	return r.Receive(func(in string) bool { return in == route }, func(injected bool) request {
		return request{route, injected}
	})
}

func TestInjectionsAreTakenInOrderAndRecorded(t *testing.T) {
	r := recorder.New[request]()
	r.Inject("GET /a", recorder.Response{Status: 502})
	r.Inject("GET /a", recorder.Response{Status: 503})
	r.Inject("*", recorder.Response{Status: 429})
	r.Inject("POST /b", recorder.Response{Status: 500})

	var statuses []int
	for i, route := range []string{"GET /a", "GET /a", "GET /c", "GET /a"} {
		resp, injected, n := receive(r, route)
		if n != i+1 {
			t.Errorf("request %d: n = %d", i, n)
		}
		if injected {
			statuses = append(statuses, resp.Status)
		}
	}
	// The third GET /a finds no route of its own left, and "*" is gone too.
	if want := []int{502, 503, 429}; !slices.Equal(statuses, want) {
		t.Errorf("answered %v, want %v", statuses, want)
	}
	if got := r.Pending(); !slices.Equal(got, []string{"POST /b"}) {
		t.Errorf("Pending = %q, want the unused POST /b", got)
	}
	want := []request{{"GET /a", true}, {"GET /a", true}, {"GET /c", true}, {"GET /a", false}}
	got := r.Requests()
	if !slices.Equal(got, want) {
		t.Errorf("Requests = %v, want %v", got, want)
	}
	got[0].route = "changed"
	if r.Requests()[0].route != "GET /a" {
		t.Error("Requests returned the recorder's own slice")
	}
}

func TestAnswer(t *testing.T) {
	r := recorder.New[request]()
	req := httptest.NewRequest(http.MethodGet, "/", nil)

	w := httptest.NewRecorder()
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-Usual", "1")
	r.Answer(w, req, recorder.Response{Header: http.Header{"X-Usual": {"2"}}, Body: `{"ok":true}`})
	if w.Code != http.StatusOK || w.Body.String() != `{"ok":true}` ||
		w.Header().Get("X-Usual") != "2" || w.Header().Get("Content-Type") != "application/json" {
		t.Errorf("got %d %q %v; want 200, the body, X-Usual overridden and Content-Type kept", w.Code, w.Body, w.Header())
	}

	held := make(chan struct{})
	w = httptest.NewRecorder()
	go func() {
		r.Answer(w, req, recorder.Response{Status: 500, Hold: true})
		close(held)
	}()
	r.Close()
	<-held // Close released the held answer
	if w.Body.Len() != 0 || w.Code != http.StatusOK || w.Flushed {
		t.Errorf("a held answer wrote %d %q", w.Code, w.Body)
	}
	r.Close() // a second Close is harmless
}
