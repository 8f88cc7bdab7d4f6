package gateway

import (
	"context"
	"fmt"

	"google.golang.org/protobuf/proto"

	"github.com/forgetools/forgetools/toolserver"
)

// FlowCheck checks and scopes req for id as Call would, then returns the
// information-flow step Call runs for it, to be called with the
// provider's result: for a read, recording what the result showed the
// session (as Call does, in the store); for a write, the flow rules'
// holds (nil: none), with no provider call but a visibility read the
// rules need. It exists to measure the rules' cost beside Call's (the
// chokepoint benchmark); it is no authorization answer: Call is.
func (s *Service) FlowCheck(ctx context.Context, id Identity, req proto.Message) (func(result proto.Message) ([]ApprovalHold, error), error) {
	t, ok := s.byRequest[req.ProtoReflect().Descriptor().FullName()]
	if !ok {
		return nil, fmt.Errorf("gateway: no table of this gateway takes %s", req.ProtoReflect().Descriptor().FullName())
	}
	o := &operation{id: id, table: t, envelope: req}
	if o.arm, o.req, o.env = t.Split(req); o.arm != nil {
		o.tool = o.arm.Tool
	}
	if _, err := s.check(ctx, o, req); err != nil {
		return nil, fmt.Errorf("gateway: the call does not pass the checks: %w", err)
	}
	return func(result proto.Message) ([]ApprovalHold, error) {
		if o.arm.Approval == toolserver.ApprovalRead {
			return nil, s.recordReads(ctx, o, result)
		}
		hs, err := s.flowHolds(ctx, o)
		var out []ApprovalHold
		for _, h := range hs {
			out = append(out, ApprovalHold{Rule: h.rule, Reason: h.reason})
		}
		return out, err
	}, nil
}
