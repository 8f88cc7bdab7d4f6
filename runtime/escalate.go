package runtime

import "github.com/forgetools/forgetools/escalate"

// approvalRequest is what the Approver is asked about tool's call: the
// tool's facts from the table, with its risk raised to RiskHigh when the
// call's text names a force push or a history rewrite (package escalate,
// which the gateway runs on the same request before its own policy).
func (t *Toolset) approvalRequest(tool *Tool, args Args) ApprovalRequest {
	r := ApprovalRequest{
		Tool: tool, Args: args, Approval: tool.Approval, ActionClass: tool.ActionClass, Risk: tool.Risk,
		Escalations: escalate.Find(args.Request, t.table.ParamNames),
	}
	if len(r.Escalations) > 0 {
		r.Risk = RiskHigh
	}
	return r
}
