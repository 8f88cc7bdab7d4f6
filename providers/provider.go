// Package providers defines what a forge provider is: one interface per
// capability, so a provider implements only what its forge can do and the
// gateway answers the rest with an in-band unimplemented.
//
// Providers receive validated requests whose bodies the gateway has already
// stamped with the attribution header, and return canonical forge types with
// bodies as the forge stores them (the gateway parses attribution back out).
package providers

import (
	"context"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
)

// Call is who a provider call is made for.
type Call struct {
	// Account is the gateway account the connection is bound to.
	Account string
	// Session is the agent session the call arrived on.
	Session string
	// ClientRequestID is the create's dedup key ("" on other arms). A forge
	// with native idempotency derives its own key from (Account, this).
	ClientRequestID string
	// Resumed marks a create an earlier attempt with the same key may have
	// made already: that attempt's gateway died while it held the key,
	// perhaps with the forge call in flight. A provider whose forge has no
	// idempotency key looks for that attempt's artifact before creating,
	// and returns it if found.
	Resumed bool
}

// Provider is a configured forge instance. Its capabilities are the
// interfaces below that it also implements.
type Provider interface {
	// Ref is the coordinate this provider serves.
	Ref() *forgev1.ForgeRef
}

// Issues reads, lists, creates and comments on issues.
type Issues interface {
	GetIssue(ctx context.Context, c Call, req *gatewayv1.GetIssueRequest) (*forgev1.Issue, error)
	ListIssues(ctx context.Context, c Call, req *gatewayv1.ListIssuesRequest) (*forgev1.IssueList, error)
	CreateIssue(ctx context.Context, c Call, req *gatewayv1.CreateIssueRequest) (*forgev1.Issue, error)
	CommentOnIssue(ctx context.Context, c Call, req *gatewayv1.CommentOnIssueRequest) (*forgev1.CommentRef, error)
}

// PullRequests reads, opens and comments on pull requests.
type PullRequests interface {
	GetPullRequest(ctx context.Context, c Call, req *gatewayv1.GetPullRequestRequest) (*forgev1.PullRequest, error)
	CreatePullRequest(ctx context.Context, c Call, req *gatewayv1.CreatePullRequestRequest) (*forgev1.PullRequest, error)
	CommentOnPullRequest(ctx context.Context, c Call, req *gatewayv1.CommentOnPullRequestRequest) (*forgev1.CommentRef, error)
}

// Reviews submits pull request reviews.
type Reviews interface {
	SubmitReview(ctx context.Context, c Call, req *gatewayv1.SubmitReviewRequest) (*forgev1.ReviewRef, error)
}

// Notifications marks a provider whose forge can deliver change
// notifications, so the gateway accepts subscriptions for it.
type Notifications interface {
	// Watch checks that the artifact exists and can be watched.
	Watch(ctx context.Context, c Call, req *gatewayv1.SubscribeRequest) error
}

// Capability names, as the gateway passes them to Explainer.Unsupported.
const (
	CapIssues        = "issues"
	CapPullRequests  = "pull requests"
	CapReviews       = "reviews"
	CapNotifications = "change notifications"
)

// Explainer is implemented by providers that say in their forge's own terms
// why a capability is missing ("Linear has no pull requests"); the gateway
// returns that as the in-band unimplemented message. "" means no
// explanation, and the gateway words one itself.
type Explainer interface {
	Unsupported(capability string) string
}
