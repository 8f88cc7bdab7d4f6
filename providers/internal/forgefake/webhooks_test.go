package forgefake

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"testing"

	"github.com/forgetools/forgetools/internal/forgemodel"
)

// A route's change queues a webhook delivery; it leaves once the state
// has answered, before a delayed answer is released, signed by the
// forge's Sign and named by its DeliveryID; every delivery is kept, and
// a redelivery sends the same one again.
func TestWebhooks(t *testing.T) {
	var (
		mu  sync.Mutex
		got []string
	)
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		got = append(got, r.Header.Get("X-Event")+" "+r.Header.Get("X-Id")+" "+string(b))
		mu.Unlock()
		w.WriteHeader(http.StatusAccepted)
		io.WriteString(w, "thanks\n")
	}))
	defer receiver.Close()
	e := New(Options{
		Root:       "/api",
		NotFound:   func() Answer { return Answer{Status: http.StatusNotFound} },
		Sign:       func(req *http.Request, d Delivery) { req.Header.Set("X-Event", d.Event); req.Header.Set("X-Id", d.ID) },
		DeliveryID: func(h *forgemodel.Hook, n int) string { return strconv.FormatInt(h.ID, 10) + "-" + strconv.Itoa(n) },
	})
	t.Cleanup(e.Close)
	hook := &forgemodel.Hook{ID: 7, URL: receiver.URL}
	e.Handle("POST /things", func(c *Call) Answer {
		e.Emit(hook, "thing", c.Body)
		return Created(nil)
	})
	release := make(chan struct{})
	e.Delay("POST /things", release)
	done := make(chan int)
	go func() {
		resp, err := http.Post(e.URL+"/api/things", "application/json", nil)
		if err != nil {
			done <- 0
			return
		}
		resp.Body.Close()
		done <- resp.StatusCode
	}()
	for len(e.Deliveries()) == 0 {
		select {
		case status := <-done:
			t.Fatalf("answered (%d) before the delivery left", status)
		default:
		}
	}
	close(release)
	if status := <-done; status != http.StatusCreated {
		t.Fatalf("answer %d", status)
	}
	ds := e.Deliveries()
	if len(ds) != 1 || ds[0].ID != "7-0" || ds[0].Status != http.StatusAccepted || ds[0].Answer != "thanks" || ds[0].Hook != hook {
		t.Fatalf("deliveries %+v", ds)
	}
	again, ok := e.Redeliver("7-0")
	if _, none := e.Redeliver("nope"); !ok || none || again.ID != "7-0" || len(e.Deliveries()) != 2 {
		t.Errorf("redelivery %+v %v", again, ok)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(got) != 2 || got[0] != "thing 7-0 " || got[1] != got[0] {
		t.Errorf("received %q", got)
	}
}
