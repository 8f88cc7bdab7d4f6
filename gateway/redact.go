package gateway

import (
	"google.golang.org/protobuf/reflect/protoreflect"
)

// redact replaces every configured secret in text: verbatim, encoded, or any
// piece of one at least redact.Window bytes long.
func (s *Service) redact(text string) string { return s.cfg.redactor.String(text) }

// redactMessage applies redact to every string in m, however deeply nested.
// A forge answer can quote a credential (a token pasted into an issue, an
// API that echoes the Authorization header); no tool result may carry one.
func (s *Service) redactMessage(m protoreflect.Message) {
	if s.cfg.redactor.Empty() {
		return
	}
	m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		switch {
		case fd.IsList():
			l := v.List()
			for i := range l.Len() {
				if fd.Kind() == protoreflect.StringKind {
					l.Set(i, protoreflect.ValueOfString(s.redact(l.Get(i).String())))
				} else if fd.Message() != nil {
					s.redactMessage(l.Get(i).Message())
				}
			}
		case fd.IsMap():
			// No result type has a map today; walk one anyway, so adding
			// one cannot open a leak.
			v.Map().Range(func(k protoreflect.MapKey, mv protoreflect.Value) bool {
				if fd.MapValue().Kind() == protoreflect.StringKind {
					v.Map().Set(k, protoreflect.ValueOfString(s.redact(mv.String())))
				} else if fd.MapValue().Message() != nil {
					s.redactMessage(mv.Message())
				}
				return true
			})
		case fd.Kind() == protoreflect.StringKind:
			if r := s.redact(v.String()); r != v.String() {
				m.Set(fd, protoreflect.ValueOfString(r))
			}
		case fd.Message() != nil:
			s.redactMessage(v.Message())
		}
		return true
	})
}
