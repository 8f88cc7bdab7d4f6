package eleventharm_test

import (
	"context"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/providers/local"
	"github.com/forgetools/forgetools/tests/eleventharm/examplev1"
	"github.com/forgetools/forgetools/tests/eleventharm/examplev1/examplev1handler"
	"github.com/forgetools/forgetools/toolserver"
)

// closer is the local forge plus the one method forge_close_issue needs:
// all it takes on the server side to serve a new arm.
type closer struct{ *local.Forge }

var _ examplev1handler.ForgeIssuesHandler = closer{}

// CloseIssue posts the closing comment (already stamped by the gateway),
// closes the issue and answers with it.
func (c closer) CloseIssue(ctx context.Context, call toolserver.Call, req *examplev1.CloseIssueRequest) (*forgev1.Issue, error) {
	if req.GetComment() != "" {
		comment := &gatewayv1.CommentOnIssueRequest{Repo: req.GetRepo(), IssueNumber: req.GetIssueNumber(), Body: req.GetComment()}
		if _, err := c.CommentOnIssue(ctx, call, comment); err != nil {
			return nil, err
		}
	}
	if err := c.SetState(ctx, req.GetRepo(), req.GetIssueNumber(), "closed"); err != nil {
		return nil, err
	}
	return c.GetIssue(ctx, call, &gatewayv1.GetIssueRequest{Repo: req.GetRepo(), IssueNumber: req.GetIssueNumber()})
}
