package render

import (
	"strings"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// Ack renders a write acknowledgement: one line from template, where each
// {field} names a field of msg and is replaced by its value passed through
// that field's guard (attr, URL, slug or verdict, per its render option).
// Only the template's own text is free-form, and the template is authored in
// the proto, so a result value can never add a line or a quote of its own.
// A repeated field with an (render).ack_note that holds values adds the
// note and the values, guarded, at the end of the line.
//
// When replay is set and msg's url field is empty, replay is rendered
// instead: the gateway replayed a create an earlier attempt made, which is
// the dedup working, not a broken link.
func Ack(template, replay string, msg proto.Message) string {
	m := msg.ProtoReflect()
	if replay != "" {
		if fd := m.Descriptor().Fields().ByName("url"); fd != nil &&
			fd.Kind() == protoreflect.StringKind && !fd.IsList() && m.Get(fd).String() == "" {
			template = replay
		}
	}
	plan := planOf(m.Descriptor())
	var b strings.Builder
	b.Grow(len(template) + 128) // the values: a URL, a slug, a number
	for {
		open := strings.IndexByte(template, '{')
		if open < 0 {
			break
		}
		end := strings.IndexByte(template[open:], '}')
		if end < 0 {
			break
		}
		b.WriteString(template[:open])
		b.WriteString(placeholder(plan, m, template[open+1:open+end]))
		template = template[open+end+1:]
	}
	b.WriteString(template)
	notes(&b, plan, m)
	return b.String()
}

// notes appends "; <ack_note>: v1, v2" for each repeated scalar field with
// an (render).ack_note that holds values (what a write did not do, such as
// labels a forge dropped), each value through the field's guard.
func notes(b *strings.Builder, plan []field, m protoreflect.Message) {
	for _, f := range plan {
		if f.ackNote == "" || !f.fd.IsList() || f.fd.Message() != nil {
			continue
		}
		l := m.Get(f.fd).List()
		if l.Len() == 0 {
			continue
		}
		b.WriteString("; " + f.ackNote + ": ")
		for i := range l.Len() {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(f.guard(scalar(f.fd, l.Get(i))))
		}
	}
}

// placeholder is one {name}'s rendered value; a name that is not a singular
// scalar field of the result is Malformed (the generator refuses such a
// template, so this only guards a hand-built table).
func placeholder(plan []field, m protoreflect.Message, name string) string {
	for _, f := range plan {
		if string(f.fd.Name()) != name {
			continue
		}
		if f.fd.IsList() || f.fd.IsMap() || f.fd.Message() != nil {
			return Malformed
		}
		return f.guard(scalar(f.fd, m.Get(f.fd)))
	}
	return Malformed
}
