package forgefake

import (
	"bytes"
	"io"
	"net/http"
	"strings"

	"github.com/forgetools/forgetools/internal/forgemodel"
)

// Webhooks, as forges deliver them: a change queues an event for a hook
// (Emit, the lock held, so the body shows the state the change left);
// the engine sends what is queued once the state has answered, before a
// delayed answer is held (the work is done, the deliveries go out
// whether or not the answer does), and keeps every delivery so a test
// can redeliver one. What a forge puts on a delivery (its event header,
// delivery id, signature) is its codec's: Options.Sign.

// Delivery is one webhook delivery.
type Delivery struct {
	ID, Event string
	Body      []byte
	Hook      *forgemodel.Hook
	// Status is what the receiver answered; 0 when it could not be
	// reached.
	Status int
	// Answer is the receiver's response body.
	Answer string
}

// Emit queues a delivery of event with body to h; the lock is held.
func (e *Engine) Emit(h *forgemodel.Hook, event string, body []byte) {
	e.outbox = append(e.outbox, Delivery{Event: event, Body: body, Hook: h})
}

// Flush sends what Emit queued, oldest first, and returns those
// deliveries; the lock is not held (a receiver may call the API back).
// Each is named when it leaves (Options.DeliveryID).
func (e *Engine) Flush() []Delivery {
	e.Lock()
	out := e.outbox
	e.outbox = nil
	e.Unlock()
	var done []Delivery
	for _, d := range out {
		e.Lock()
		if e.o.DeliveryID != nil {
			d.ID = e.o.DeliveryID(d.Hook, len(e.delivered))
		}
		e.Unlock()
		done = append(done, e.send(d))
	}
	return done
}

// Deliveries are the deliveries made so far, oldest first.
func (e *Engine) Deliveries() []Delivery {
	e.Lock()
	defer e.Unlock()
	return append([]Delivery(nil), e.delivered...)
}

// Redeliver sends the delivery with id again, id and all, as a forge's
// "Redeliver" button does; false when there is none.
func (e *Engine) Redeliver(id string) (Delivery, bool) {
	e.Lock()
	var again *Delivery
	for i := range e.delivered {
		if e.delivered[i].ID == id {
			again = &e.delivered[i]
		}
	}
	if again == nil {
		e.Unlock()
		return Delivery{}, false
	}
	d := *again
	e.Unlock()
	return e.send(d), true
}

// send POSTs a delivery, signed as the forge signs it, and records the
// answer.
func (e *Engine) send(d Delivery) Delivery {
	req, err := http.NewRequest(http.MethodPost, d.Hook.URL, bytes.NewReader(d.Body))
	if err != nil {
		panic(err)
	}
	req.Header.Set("Content-Type", "application/json")
	if e.o.Sign != nil {
		e.o.Sign(req, d)
	}
	d.Status, d.Answer = 0, ""
	if resp, err := http.DefaultClient.Do(req); err == nil {
		answer, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		d.Status, d.Answer = resp.StatusCode, strings.TrimSpace(string(answer))
	}
	e.Lock()
	e.delivered = append(e.delivered, d)
	e.Unlock()
	return d
}
