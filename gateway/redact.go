package gateway

import (
	"google.golang.org/protobuf/reflect/protoreflect"
)

// redact replaces every configured secret in s: verbatim, encoded, or any
// piece of one at least redact.Window bytes long.
func (c *ForgeCaller) redact(s string) string { return c.cfg.redactor.String(s) }

// redactMessage applies redact to every string in m, however deeply nested.
// A forge answer can quote a credential (a token pasted into an issue, an
// API that echoes the Authorization header); no tool result may carry one.
func (c *ForgeCaller) redactMessage(m protoreflect.Message) {
	if c.cfg.redactor.Empty() {
		return
	}
	m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		switch {
		case fd.IsList():
			l := v.List()
			for i := range l.Len() {
				if fd.Kind() == protoreflect.StringKind {
					l.Set(i, protoreflect.ValueOfString(c.redact(l.Get(i).String())))
				} else if fd.Message() != nil {
					c.redactMessage(l.Get(i).Message())
				}
			}
		case fd.IsMap():
			// No result type has a map today; walk one anyway, so adding
			// one cannot open a leak.
			v.Map().Range(func(k protoreflect.MapKey, mv protoreflect.Value) bool {
				if fd.MapValue().Kind() == protoreflect.StringKind {
					v.Map().Set(k, protoreflect.ValueOfString(c.redact(mv.String())))
				} else if fd.MapValue().Message() != nil {
					c.redactMessage(mv.Message())
				}
				return true
			})
		case fd.Kind() == protoreflect.StringKind:
			if r := c.redact(v.String()); r != v.String() {
				m.Set(fd, protoreflect.ValueOfString(r))
			}
		case fd.Message() != nil:
			c.redactMessage(v.Message())
		}
		return true
	})
}
