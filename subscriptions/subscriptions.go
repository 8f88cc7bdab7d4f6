// Package subscriptions serves the forge table's "change_notifications"
// capability for any forge provider, from the gateway store: the forge
// itself is only asked whether the artifact can be watched.
//
// Serve wraps a provider; the wrapper answers forge_subscribe,
// forge_unsubscribe and forge_get_events for one subscription, cuts
// forge_read_file's answer to the line range asked for (so every forge
// serves ranges alike), and passes every other arm to the provider. The gateway has already scoped a call
// naming a subscription by the stored subscription's repository (its scope
// field is marked SCOPE_SUBSCRIPTION) before the wrapper runs. State serves
// forge_get_events for a call that names none: every subscription of the
// caller.
//
// The events come from sources that describe changes as notify.Change
// values (package toolserver/notify, which providers import instead of this
// one) and hand them to a notify.Recorder (the feed sub-package): the
// local forge after its own writes, the poll sub-package's driver, the
// webhook sub-package.
package subscriptions

import (
	"context"
	"database/sql"
	"errors"
	"google.golang.org/protobuf/proto"

	"github.com/forgetools/forgetools/gateway/store"
	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/gen/forgetools/gateway/v1/gatewayv1handler"
	"github.com/forgetools/forgetools/providers/kit"
	"github.com/forgetools/forgetools/toolserver"
)

// Provider is a forge provider of the forge table.
type Provider interface {
	// Ref is the coordinate the provider serves (gateway.Provider).
	Ref() *forgev1.ForgeRef
	gatewayv1handler.ForgeHandler
}

// Watcher is implemented by providers whose forge can deliver change
// notifications; the wrapper accepts subscriptions only for them.
type Watcher interface {
	// Watch checks that the artifact exists and can be watched.
	Watch(ctx context.Context, c toolserver.Call, req *gatewayv1.SubscribeRequest) error
}

// Serve returns p with the change_notifications capability served from st.
func Serve(p Provider, st *store.Store) Provider {
	return &forge{Provider: p, store: st}
}

// forge is a provider with subscriptions kept in the gateway store.
type forge struct {
	Provider
	store *store.Store
}

// Unsupported passes the wrapped provider's own words through, so the
// gateway explains its missing capabilities as it would unwrapped.
func (f *forge) Unsupported(capability string) string {
	if e, ok := f.Provider.(toolserver.Explainer); ok {
		return e.Unsupported(capability)
	}
	return ""
}

// JoinsTx passes the wrapped provider's answer through, so a create on a
// forge in the gateway's database still commits with its memo.
func (f *forge) JoinsTx(db *sql.DB) bool {
	j, ok := f.Provider.(toolserver.TxJoiner)
	return ok && j.JoinsTx(db)
}

// MergeFacts passes the wrapped provider's answer through, so the
// gateway's unreviewed-merge rule sees the forge's reviews; a provider
// that cannot say reports no merge, and the push rule alone applies.
func (f *forge) MergeFacts(ctx context.Context, c toolserver.Call, req proto.Message) (toolserver.MergeFacts, error) {
	if m, ok := f.Provider.(toolserver.MergeReviewer); ok {
		return m.MergeFacts(ctx, c, req)
	}
	return toolserver.MergeFacts{}, nil
}

// OrgMember passes the wrapped provider's answer through; a provider that
// cannot say answers with an error, which the gateway reads as untrusted.
func (f *forge) OrgMember(ctx context.Context, c toolserver.Call, org, login string) (bool, error) {
	if v, ok := f.Provider.(toolserver.AuthorVouch); ok {
		return v.OrgMember(ctx, c, org, login)
	}
	return false, toolserver.Unimplemented("trusted_authors", "org membership")
}

// RepoWriter passes the wrapped provider's answer through, as OrgMember.
func (f *forge) RepoWriter(ctx context.Context, c toolserver.Call, repo, login string) (bool, error) {
	if v, ok := f.Provider.(toolserver.AuthorVouch); ok {
		return v.RepoWriter(ctx, c, repo, login)
	}
	return false, toolserver.Unimplemented("trusted_authors", "write permission")
}

// ReadFile reads the file through the provider and cuts it to the lines
// the call asks for (kit.Window): the providers return the file's text up
// to their read cap, and the range is cut here, once for every forge.
func (f *forge) ReadFile(ctx context.Context, c toolserver.Call, req *gatewayv1.ReadFileRequest) (*forgev1.FileContent, error) {
	out, err := f.Provider.ReadFile(ctx, c, req)
	if err != nil {
		return nil, err
	}
	if err := kit.Window(out, req.GetStartLine(), req.GetEndLine()); err != nil {
		return nil, err
	}
	return out, nil
}

// Subscribe asks the forge whether the artifact can be watched, then
// stores the subscription; a forge that cannot deliver notifications gets
// an in-band unimplemented.
func (f *forge) Subscribe(ctx context.Context, c toolserver.Call, req *gatewayv1.SubscribeRequest) (*forgev1.Subscription, error) {
	w, ok := f.Provider.(Watcher)
	if !ok {
		return nil, toolserver.Unimplemented("change_notifications", "subscribe")
	}
	if err := w.Watch(ctx, c, req); err != nil {
		return nil, err
	}
	kind := store.KindIssue
	if req.GetKind() == gatewayv1.SubscriptionKind_SUBSCRIPTION_KIND_PULL_REQUEST {
		kind = store.KindPullRequest
	}
	sub, err := f.store.Subscribe(ctx, store.Subscription{
		Account: c.Account, Forge: store.ForgeOf(f.Ref()), Repo: req.GetRepo(), Kind: kind, Number: req.GetNumber(),
	})
	if err != nil {
		return nil, err
	}
	return &forgev1.Subscription{SubscriptionId: sub.ID, Repo: sub.Repo, Kind: string(sub.Kind), Number: sub.Number}, nil
}

// GetEvents reads the events of the subscription the call names.
func (f *forge) GetEvents(ctx context.Context, c toolserver.Call, req *gatewayv1.GetEventsRequest) (*forgev1.EventList, error) {
	return readEvents(ctx, f.store, c, req)
}

// Unsubscribe removes one of the account's subscriptions.
func (f *forge) Unsubscribe(ctx context.Context, c toolserver.Call, req *gatewayv1.UnsubscribeRequest) (*forgev1.Unsubscribed, error) {
	id := req.GetSubscriptionId()
	if err := f.store.Unsubscribe(ctx, c.Account, id); errors.Is(err, store.ErrNotFound) {
		// Removed by a concurrent call since the gateway looked it up.
		return nil, toolserver.NotFound("subscription %q not found for this account", id)
	} else if err != nil {
		return nil, err
	}
	return &forgev1.Unsubscribed{SubscriptionId: id}, nil
}
