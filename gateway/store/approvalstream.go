package store

import (
	"context"
	"database/sql"
	"fmt"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
)

// KindApproval is the kind of an account's approval stream: a
// subscription to the account's own gateway state rather than to a forge's
// artifact (no forge, no repository, number 0), whose events are the
// operators' decisions on the account's parked calls. It lives among the
// subscriptions so that the decisions reach a session through every path
// events already take (forge_get_events, WaitEvents, MCP resources) under
// the same cursors, and no poll driver or webhook ever matches it (it
// names no configured forge).
const KindApproval Kind = "approval"

// ApprovalStream returns the account's approval stream, creating it the
// first time: a parked call names it, so a runtime can wait on it before
// any decision is recorded.
func (s *Store) ApprovalStream(ctx context.Context, account string) (Subscription, error) {
	return s.Subscribe(ctx, approvalStream(account))
}

func approvalStream(account string) Subscription {
	return Subscription{Account: account, Forge: Forge{Provider: forgev1.ForgeProvider_FORGE_PROVIDER_UNSPECIFIED}, Kind: KindApproval}
}

// RecordDecision stores c as an event of the account's approval stream
// (creating the stream if the account removed it) and returns what it
// stored; a change whose DedupKey the stream already has is stored once.
func (s *Store) RecordDecision(ctx context.Context, account string, c Change) ([]Recorded, error) {
	var out []Recorded
	var err error
	// The stream removed between its lookup and the insert fails the
	// insert (its foreign key): look it up again.
	for attempt := 0; attempt < 3; attempt++ {
		var sub Subscription
		if sub, err = s.ApprovalStream(ctx, account); err != nil {
			continue
		}
		err = s.inTx(ctx, func(tx *sql.Tx) error {
			out, err = s.insertEvents(ctx, tx, []Subscription{sub}, []Change{c})
			return err
		})
		if err == nil || ctx.Err() != nil {
			break
		}
	}
	if err != nil {
		return nil, fmt.Errorf("record decision: %w", err)
	}
	return out, nil
}
