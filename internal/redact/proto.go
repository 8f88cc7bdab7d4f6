package redact

import "google.golang.org/protobuf/reflect/protoreflect"

// Proto applies String to every string in m, however deeply nested, in
// place. A forge answer can quote a credential (a token pasted into an
// issue, an API that echoes the Authorization header): no tool result,
// stored event or record may carry one.
func (r *Redactor) Proto(m protoreflect.Message) {
	if r.Empty() {
		return
	}
	m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		switch {
		case fd.IsList():
			l := v.List()
			for i := range l.Len() {
				if fd.Kind() == protoreflect.StringKind {
					l.Set(i, protoreflect.ValueOfString(r.String(l.Get(i).String())))
				} else if fd.Message() != nil {
					r.Proto(l.Get(i).Message())
				}
			}
		case fd.IsMap():
			// No result type has a map today; walk one anyway, so adding
			// one cannot open a leak.
			v.Map().Range(func(k protoreflect.MapKey, mv protoreflect.Value) bool {
				if fd.MapValue().Kind() == protoreflect.StringKind {
					v.Map().Set(k, protoreflect.ValueOfString(r.String(mv.String())))
				} else if fd.MapValue().Message() != nil {
					r.Proto(mv.Message())
				}
				return true
			})
		case fd.Kind() == protoreflect.StringKind:
			if out := r.String(v.String()); out != v.String() {
				m.Set(fd, protoreflect.ValueOfString(out))
			}
		case fd.Message() != nil:
			r.Proto(v.Message())
		}
		return true
	})
}
