// Package webhook receives forges' webhooks on the gateway's TCP listener
// and records what they report for the subscribers, as the poll driver
// does for forges it polls, once a delivery has proved it comes from the
// forge.
//
// Each forge signs its deliveries in its own way (GitHub: an HMAC-SHA256
// of the body under the hook's secret in X-Hub-Signature-256); a Source
// checks that before anything in the delivery is read, and a delivery with
// a missing or wrong signature is refused with 401 and leaves nothing
// behind. A redelivery (the forge's delivery id seen before) is
// acknowledged and ignored. A signed delivery also marks its repository as
// covered, so the poll driver leaves the repository's artifacts to the
// webhooks for a while.
package webhook

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"

	"github.com/forgetools/forgetools/enumname"
	"github.com/forgetools/forgetools/gateway/store"
	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	"github.com/forgetools/forgetools/toolserver/notify"
)

// MaxBody is the largest delivery accepted: GitHub caps payloads at 25 MB.
const MaxBody = 25 << 20

// Errors a Source's Authenticate returns for a delivery to refuse.
var (
	ErrUnsigned     = notify.ErrUnsigned
	ErrBadSignature = notify.ErrBadSignature
)

// Source is a forge that sends webhooks.
type Source interface {
	// Ref is the forge.
	Ref() *forgev1.ForgeRef
	// Authenticate checks a delivery's signature over body under secret,
	// before anything else in it is trusted, and returns the forge's id of
	// the delivery. A delivery to refuse is ErrUnsigned or ErrBadSignature
	// (wrapped).
	Authenticate(h http.Header, body, secret []byte) (delivery string, err error)
	// Read reads what an authenticated delivery reports.
	Read(ctx context.Context, h http.Header, body []byte) (Delivery, error)
}

// Delivery is what one webhook delivery reports, and Report the changes
// to one issue or pull request: spelled in handler/notify, so a provider
// satisfies Source without importing this package.
type (
	Delivery = notify.Delivery
	Report   = notify.Report
)

// Path is where the webhooks of a forge are received, e.g.
// "/webhooks/github/github.com".
func Path(ref *forgev1.ForgeRef) string {
	return "/webhooks/" + enumname.Of(ref.GetProvider()) + "/" + strings.ToLower(ref.GetHost())
}

// Handler receives the webhooks of src, signed with secret, and records
// what they report with rec.
func Handler(st *store.Store, rec notify.Recorder, src Source, secret []byte, log *slog.Logger) http.Handler {
	if log == nil {
		log = slog.Default()
	}
	return &receiver{store: st, rec: rec, src: src, secret: secret, forge: store.ForgeOf(src.Ref()), log: log}
}

type receiver struct {
	store  *store.Store
	rec    notify.Recorder
	src    Source
	secret []byte
	forge  store.Forge
	log    *slog.Logger
}

func (h *receiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		http.Error(w, "webhooks are POSTed", http.StatusMethodNotAllowed)
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxBody))
	if err != nil {
		http.Error(w, fmt.Sprintf("the delivery is larger than %d bytes", MaxBody), http.StatusRequestEntityTooLarge)
		return
	}
	id, err := h.src.Authenticate(r.Header, body, h.secret)
	if err != nil {
		h.log.WarnContext(r.Context(), "refused a webhook delivery", "forge", Path(h.src.Ref()), "remote", r.RemoteAddr, "cause", err.Error())
		http.Error(w, err.Error(), http.StatusUnauthorized)
		return
	}
	if id == "" {
		http.Error(w, "the delivery has no delivery id", http.StatusBadRequest)
		return
	}
	status, msg := h.deliver(r.Context(), r.Header, body, id)
	http.Error(w, msg, status)
}

// deliver records an authenticated delivery once: its changes first (each
// named by its key, so a crash before the delivery id is stored costs a
// redelivery nothing twice), then the delivery id and the coverage.
func (h *receiver) deliver(ctx context.Context, hdr http.Header, body []byte, id string) (int, string) {
	seen, err := h.store.Delivered(ctx, h.forge, id)
	if err != nil {
		h.log.ErrorContext(ctx, "webhook: store unavailable", "cause", err.Error())
		return http.StatusServiceUnavailable, "the gateway store did not answer; redeliver later"
	}
	if seen {
		return http.StatusOK, "already delivered"
	}
	d, err := h.src.Read(ctx, hdr, body)
	if err != nil {
		return http.StatusBadRequest, err.Error()
	}
	if err := h.record(ctx, d); err != nil {
		h.log.ErrorContext(ctx, "webhook: changes not recorded", "delivery", id, "cause", err.Error())
		return http.StatusServiceUnavailable, "the changes were not recorded; redeliver later"
	}
	if _, err := h.store.RecordDelivery(ctx, h.forge, id); err != nil {
		h.log.ErrorContext(ctx, "webhook: delivery id not recorded", "delivery", id, "cause", err.Error())
	}
	if d.Repo != "" {
		if err := h.store.CoverRepo(ctx, h.forge, d.Repo); err != nil {
			h.log.ErrorContext(ctx, "webhook: coverage not recorded", "repo", d.Repo, "cause", err.Error())
		}
	}
	return http.StatusOK, "recorded"
}

// record stores each report for the subscribers of its artifact, under
// every spelling of the repository a subscription used (forges compare
// names without case).
func (h *receiver) record(ctx context.Context, d Delivery) error {
	if d.Repo == "" || len(d.Reports) == 0 {
		return nil
	}
	repos, err := h.store.SubscribedRepos(ctx, h.forge, d.Repo)
	if err != nil {
		return err
	}
	for _, repo := range repos {
		for _, rep := range d.Reports {
			a := store.Artifact{Forge: h.forge, Repo: repo, Kind: rep.Kind, Number: rep.Number}
			if err := h.rec.Record(ctx, a, rep.Changes...); err != nil {
				return err
			}
		}
	}
	return nil
}
