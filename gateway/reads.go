package gateway

import (
	"github.com/forgetools/forgetools/gateway/attribution"
	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
)

// stamp puts the caller's owner header on a body the gateway writes,
// replacing any header the agent wrote itself.
func (c *ForgeCaller) stamp(x *call, body string) (string, error) {
	return attribution.Stamp(&forgev1.Attribution{
		AgentHandle: x.acct.AgentHandle,
		OwnerHandle: x.acct.OwnerHandle,
		SessionId:   x.id.Session,
	}, body)
}

// claim moves a body's header into its attribution field, as a claim: the
// body shown no longer carries it, and a body without one has none.
func claim(body *string) *forgev1.Attribution {
	a, rest := attribution.Parse(*body)
	*body = rest
	return a
}

// readIssue prepares an issue a provider returned: the resolved forge, and
// attribution parsed out of its body and comments.
func readIssue(i *forgev1.Issue, ref *forgev1.ForgeRef) *forgev1.Issue {
	i.Forge = ref
	i.Attribution = claim(&i.Body)
	readComments(i.Comments)
	return i
}

// readPR does the same for a pull request, its reviews and comments.
func readPR(pr *forgev1.PullRequest, ref *forgev1.ForgeRef) *forgev1.PullRequest {
	pr.Forge = ref
	pr.Attribution = claim(&pr.Body)
	readComments(pr.Comments)
	for _, r := range pr.Reviews {
		r.Attribution = claim(&r.Body)
	}
	return pr
}

func readComments(cs []*forgev1.Comment) {
	for _, cm := range cs {
		cm.Attribution = claim(&cm.Body)
	}
}
