package gateway

import (
	"google.golang.org/protobuf/reflect/protoreflect"
)

// redact replaces every configured secret in text: verbatim, encoded, or any
// piece of one at least redact.Window bytes long.
func (s *Service) redact(text string) string { return s.cfg.redactor.String(text) }

// redactMessage applies redact to every string in m, however deeply nested
// (redact.Redactor.Proto).
func (s *Service) redactMessage(m protoreflect.Message) { s.cfg.redactor.Proto(m) }
