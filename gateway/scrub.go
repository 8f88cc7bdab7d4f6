package gateway

import (
	"context"

	"google.golang.org/protobuf/proto"

	"github.com/forgetools/forgetools/gateway/store"
	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
)

// Scrub redacts the rows the store already holds with the gateway's
// credentials, once per set of credentials and redactor version (the
// store records the digest): rows written before redaction came before
// the store, or before a credential was configured. SQL cannot do it in a
// migration, which knows no secret. It reports how many rows changed.
func (s *Service) Scrub(ctx context.Context) (int, error) {
	return s.store.Scrub(ctx, store.ScrubDigest(s.cfg.secrets), s.scrubEvent)
}

// scrubEvent is a stored event payload redacted; unchanged when it holds
// nothing to redact.
func (s *Service) scrubEvent(payload []byte) ([]byte, error) {
	ev := &forgev1.Event{}
	if err := proto.Unmarshal(payload, ev); err != nil {
		return nil, err
	}
	before := proto.Clone(ev)
	s.redactMessage(ev.ProtoReflect())
	if proto.Equal(before, ev) {
		return payload, nil
	}
	return proto.Marshal(ev)
}
