package runtime_test

import (
	"strings"
	"testing"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/gen/forgetools/gateway/v1/gatewayv1tools"
	"github.com/forgetools/forgetools/runtime"
)

// TestValidationPhrasing covers rules the generated decoders catch before
// protovalidate sees them (a missing enum, an undefined enum number, a list
// over its cap), so their phrasing is checked on built messages directly.
func TestValidationPhrasing(t *testing.T) {
	tests := []struct {
		name string
		args runtime.Args
		want string
	}{
		{"required enum", runtime.Args{Request: &gatewayv1.SubmitReviewRequest{Repo: "a/b", PullNumber: 1, Body: "x"}}, "verdict: is required"},
		{"undefined enum", runtime.Args{Request: &gatewayv1.ListIssuesRequest{Repo: "a/b", State: 9}}, "state: must be one of open, closed, all"},
		{"list cap", runtime.Args{Request: &gatewayv1.ListIssuesRequest{Repo: "a/b", Labels: strings.Split(strings.Repeat("x,", 20)+"x", ",")}}, "labels: must have at most 20 items"},
		{"selector names", runtime.Args{Request: &gatewayv1.GetIssueRequest{Repo: "a/b", IssueNumber: 1}, Forge: &forgev1.ForgeRef{Provider: 99}},
			"forge_provider: must be one of github, gitlab, gitea, forgejo, linear, local"},
		{"CEL rule by its message", runtime.Args{Request: &gatewayv1.SubmitReviewRequest{Repo: "a/b", PullNumber: 1, Verdict: gatewayv1.Verdict_VERDICT_COMMENT, Body: " \n"}},
			"body is required unless verdict is approve"},
		{"max length", runtime.Args{Request: &gatewayv1.UnsubscribeRequest{SubscriptionId: strings.Repeat("s", 201)}}, "subscription_id: must be at most 200 characters"},
		{"valid", runtime.Args{Request: &gatewayv1.GetIssueRequest{Repo: "a/b", IssueNumber: 1}, Forge: &forgev1.ForgeRef{Provider: forgev1.ForgeProvider_FORGE_PROVIDER_LINEAR}}, ""},
	}
	for _, tc := range tests {
		err := runtime.ValidateArgs(gatewayv1tools.ForgeTools, tc.args)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.name, got, tc.want)
		}
	}
}
