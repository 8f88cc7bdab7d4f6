package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"regexp"
	"strings"
	"sync"

	"connectrpc.com/connect"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/runtime"
	"github.com/forgetools/forgetools/runtime/events"
)

// Change notifications as MCP resources: one per subscription,
// forge://subscriptions/<id>. resources/read returns exactly what
// forge_get_events returns for the subscription (the page after the
// session's acknowledged cursor; reading acknowledges nothing), and a
// client that resources/subscribes to one gets
// notifications/resources/updated whenever events arrive for it.

const (
	// SubscriptionURI is the template of a subscription's resource.
	SubscriptionURI = "forge://subscriptions/{subscription_id}"
	uriPrefix       = "forge://subscriptions/"
	eventsTool      = "forge_get_events"
)

// subscriptionID is what a subscription id can be inside a URI: what
// forge_subscribe hands out, nothing that could mean another resource.
var subscriptionID = regexp.MustCompile(`^[A-Za-z0-9._-]{1,200}$`)

type resources struct {
	tools  *runtime.Toolset
	waiter events.Waiter
	ctx    context.Context
	log    *slog.Logger

	mu      sync.Mutex
	watches map[string]*watch // by URI
	srv     *mcp.Server
}

// watch follows one subscribed resource for as many client subscriptions.
type watch struct {
	clients int
	stop    context.CancelFunc
}

func (r *resources) template() *mcp.ResourceTemplate {
	return &mcp.ResourceTemplate{
		URITemplate: SubscriptionURI,
		Name:        "subscription-events",
		Title:       "Events of a forge subscription",
		Description: "What changed on an issue or pull request you subscribed to with forge_subscribe, as forge_get_events shows it. Subscribe to hear when it changes.",
		MIMEType:    "text/plain",
	}
}

// idOf is the subscription a resource URI names.
func idOf(uri string) (string, bool) {
	id, ok := strings.CutPrefix(uri, uriPrefix)
	return id, ok && subscriptionID.MatchString(id)
}

// exists asks the gateway whether the session has the subscription,
// without waiting.
func (r *resources) exists(ctx context.Context, uri string) (string, error) {
	id, ok := idOf(uri)
	if !ok {
		return "", mcp.ResourceNotFoundError(uri)
	}
	_, err := r.waiter.WaitEvents(ctx, &gatewayv1.WaitEventsRequest{SubscriptionId: id, TimeoutMs: 1})
	if connect.CodeOf(err) == connect.CodeNotFound {
		return "", mcp.ResourceNotFoundError(uri)
	}
	if err != nil {
		return "", fmt.Errorf("the gateway did not answer: %v", err)
	}
	return id, nil
}

func (r *resources) read(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	uri := req.Params.URI
	id, err := r.exists(ctx, uri)
	if err != nil {
		return nil, err
	}
	args, _ := json.Marshal(map[string]string{"subscription_id": id})
	// Without a call id, as every MCP call (server.go's handler).
	res := r.tools.Execute(ctx, runtime.Call{Name: eventsTool, Args: args})
	if res.IsError {
		return nil, fmt.Errorf("%s", res.Text)
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: "text/plain", Text: res.Text}}}, nil
}

func (r *resources) subscribe(ctx context.Context, req *mcp.SubscribeRequest) error {
	uri := req.Params.URI
	id, err := r.exists(ctx, uri)
	if err != nil {
		return err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if w := r.watches[uri]; w != nil {
		w.clients++
		return nil
	}
	wctx, stop := context.WithCancel(r.ctx)
	r.watches[uri] = &watch{clients: 1, stop: stop}
	go r.follow(wctx, uri, id)
	return nil
}

func (r *resources) unsubscribe(_ context.Context, req *mcp.UnsubscribeRequest) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if w := r.watches[req.Params.URI]; w != nil {
		if w.clients--; w.clients == 0 {
			w.stop()
			delete(r.watches, req.Params.URI)
		}
	}
	return nil
}

// follow tells subscribed clients each time the subscription has news,
// until the last client unsubscribes or the server stops.
func (r *resources) follow(ctx context.Context, uri, id string) {
	news, stopped := events.Watch(ctx, r.waiter, id)
	for range news {
		if err := r.srv.ResourceUpdated(ctx, &mcp.ResourceUpdatedNotificationParams{URI: uri}); err != nil && ctx.Err() == nil {
			r.log.WarnContext(ctx, "mcp: resource update not sent", "uri", uri, "cause", err.Error())
		}
	}
	if err := stopped(); err != nil {
		r.log.WarnContext(ctx, "mcp: stopped following a subscription", "uri", uri, "cause", err.Error())
	}
}
