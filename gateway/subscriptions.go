package gateway

import (
	"context"
	"errors"

	"github.com/forgetools/forgetools/gateway/store"
	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/providers"
)

// subscribe asks the provider whether the artifact can be watched, then
// stores the subscription. Providers that cannot deliver notifications get
// an in-band unimplemented.
func (c *ForgeCaller) subscribe(ctx context.Context, x *call, p providers.Provider, ref *forgev1.ForgeRef,
	req *gatewayv1.SubscribeRequest) (*gatewayv1.ForgeCallResult, error) {
	n, err := need[providers.Notifications](p, x, nounNotifications)
	if err != nil {
		return nil, err
	}
	if err := n.Watch(ctx, providers.Call{Account: x.acct.Name, Session: x.id.Session}, req); err != nil {
		return nil, err
	}
	kind := store.KindIssue
	if req.GetKind() == gatewayv1.SubscriptionKind_SUBSCRIPTION_KIND_PULL_REQUEST {
		kind = store.KindPullRequest
	}
	sub, err := c.store.Subscribe(ctx, store.Subscription{
		Account: x.acct.Name, Forge: store.ForgeOf(ref), Repo: req.GetRepo(), Kind: kind, Number: req.GetNumber(),
	})
	if err != nil {
		return nil, err
	}
	return &gatewayv1.ForgeCallResult{Result: &gatewayv1.ForgeCallResult_Subscribed{Subscribed: &forgev1.Subscription{
		Forge: ref, SubscriptionId: sub.ID, Repo: sub.Repo, Kind: string(sub.Kind), Number: sub.Number,
	}}}, nil
}

// unsubscribe removes one of the account's subscriptions. The request names
// no repository, so it is scoped by the stored subscription's: an account
// whose scope no longer covers it cannot touch it either.
func (c *ForgeCaller) unsubscribe(ctx context.Context, x *call, req *gatewayv1.UnsubscribeRequest) (*gatewayv1.ForgeCallResult, error) {
	id := req.GetSubscriptionId()
	sub, err := c.store.Subscription(ctx, x.acct.Name, id)
	if errors.Is(err, store.ErrNotFound) {
		return nil, refuse(gatewayv1.ErrorCode_ERROR_CODE_NOT_FOUND, "subscription %q not found for this account", id)
	}
	if err != nil {
		return nil, err
	}
	x.repo, x.forge = sub.Repo, describe(sub.Forge.Ref())
	if !x.acct.scope.allows(sub.Repo) {
		return nil, refuse(gatewayv1.ErrorCode_ERROR_CODE_PERMISSION_DENIED,
			"repository %q is outside the scope of account %q", sub.Repo, x.acct.Name)
	}
	if err := c.store.Unsubscribe(ctx, x.acct.Name, id); errors.Is(err, store.ErrNotFound) {
		// Removed by a concurrent call between the read and the delete.
		return nil, refuse(gatewayv1.ErrorCode_ERROR_CODE_NOT_FOUND, "subscription %q not found for this account", id)
	} else if err != nil {
		return nil, err
	}
	return &gatewayv1.ForgeCallResult{Result: &gatewayv1.ForgeCallResult_Unsubscribed{
		Unsubscribed: &forgev1.Unsubscribed{SubscriptionId: id},
	}}, nil
}
