package render

import (
	"strconv"
	"strings"
	"sync"
	"unicode"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/forgetools/forgetools/enumname"
	optionsv1 "github.com/forgetools/forgetools/gen/forgetools/options/v1"
	"github.com/forgetools/forgetools/internal/shown"
)

// field is how one field of a result message reaches the model, read once
// per message type from its (forgetools.options.v1.render) option.
type field struct {
	fd       protoreflect.FieldDescriptor
	as       optionsv1.Render
	label    string
	claimKey string // the key in a claim line: the label, else the name's first word
	maxItems int
	ackNote  string
	// maxChars is the fence budget from (render).max_chars; 0 = by depth.
	maxChars int
	// total is the sibling integer field counting this aggregate on the
	// forge ((render).total_of), when the result carries only its first
	// items; nil when the aggregate is always whole.
	total protoreflect.FieldDescriptor
	// instead is the sibling aggregate a result fills instead of this one
	// ((render).instead_of): while it has items, this one is not stated
	// empty.
	instead protoreflect.FieldDescriptor
}

// plans caches []field per message descriptor: options are read with
// proto.GetExtension, which allocates, and a result type's fields never
// change while the process runs.
var plans sync.Map // protoreflect.MessageDescriptor -> []field

func planOf(md protoreflect.MessageDescriptor) []field {
	if p, ok := plans.Load(md); ok {
		return p.([]field)
	}
	fds := md.Fields()
	p := make([]field, 0, fds.Len())
	for i := range fds.Len() {
		fd := fds.Get(i)
		f := field{fd: fd, label: string(fd.Name()), maxItems: shown.Items(fd)}
		if o, ok := proto.GetExtension(fd.Options(), optionsv1.E_Render).(*optionsv1.RenderOptions); ok && o != nil {
			f.as = o.GetAs()
			if o.GetLabel() != "" {
				f.label = o.GetLabel()
			}
			f.ackNote = o.GetAckNote()
			f.maxChars = int(o.GetMaxChars())
		}
		f.claimKey = f.label
		if f.label == string(fd.Name()) {
			f.claimKey, _, _ = strings.Cut(f.label, "_")
		}
		p = append(p, f)
	}
	for i := range fds.Len() {
		if of := shown.TotalOf(fds.Get(i)); of != "" && isCount(fds.Get(i)) {
			for j := range p {
				if string(p[j].fd.Name()) == of && p[j].fd.IsList() {
					p[j].total = fds.Get(i)
				}
			}
		}
	}
	for i := range p {
		if o, ok := proto.GetExtension(p[i].fd.Options(), optionsv1.E_Render).(*optionsv1.RenderOptions); ok && o.GetInsteadOf() != "" {
			if sib := fds.ByName(protoreflect.Name(o.GetInsteadOf())); sib != nil && sib.IsList() && sib.Message() != nil {
				p[i].instead = sib
			}
		}
	}
	plans.Store(md, p)
	return p
}

// isCount is a singular unsigned integer field, what (render).total_of
// may annotate.
func isCount(fd protoreflect.FieldDescriptor) bool {
	k := fd.Kind()
	return !fd.IsList() && (k == protoreflect.Uint32Kind || k == protoreflect.Uint64Kind)
}

// guard is the shape guard a scalar field passes through. Fenced and claim
// fields never reach here in a record; in an ack (one line, no fence) they
// and any unannotated scalar fall back to Attr, the tightest shape.
func (f field) guard(s string) string {
	switch f.as {
	case optionsv1.Render_RENDER_URL:
		return URL(s)
	case optionsv1.Render_RENDER_SLUG:
		return Slug(s)
	case optionsv1.Render_RENDER_VERDICT:
		return Verdict(s)
	case optionsv1.Render_RENDER_NAME:
		return Name(s)
	}
	return Attr(s)
}

// scalar formats a singular scalar value the way the model spells it: enums
// by their (forgetools.options.v1.value).name when they have one.
func scalar(fd protoreflect.FieldDescriptor, v protoreflect.Value) string {
	switch fd.Kind() {
	case protoreflect.StringKind:
		return v.String()
	case protoreflect.BoolKind:
		return strconv.FormatBool(v.Bool())
	case protoreflect.EnumKind:
		return enumname.Number(fd.Enum(), v.Enum())
	case protoreflect.Int32Kind, protoreflect.Sint32Kind, protoreflect.Sfixed32Kind,
		protoreflect.Int64Kind, protoreflect.Sint64Kind, protoreflect.Sfixed64Kind:
		return strconv.FormatInt(v.Int(), 10)
	case protoreflect.Uint32Kind, protoreflect.Fixed32Kind,
		protoreflect.Uint64Kind, protoreflect.Fixed64Kind:
		return strconv.FormatUint(v.Uint(), 10)
	case protoreflect.FloatKind, protoreflect.DoubleKind:
		return strconv.FormatFloat(v.Float(), 'g', -1, 64)
	}
	// Bytes and messages have no one-token spelling.
	return Malformed
}

// snake spells a message name the way records are headed: PullRequest ->
// pull_request, and an acronym stays one word: CIRunList -> ci_run_list.
func snake(name protoreflect.Name) string {
	rs := []rune(string(name))
	var b strings.Builder
	for i, r := range rs {
		if unicode.IsUpper(r) {
			// A word starts at an upper-case letter after a lower-case one,
			// or at the last capital of an acronym followed by lower case.
			lowerBefore := i > 0 && !unicode.IsUpper(rs[i-1])
			acronymEnd := i > 0 && i+1 < len(rs) && unicode.IsUpper(rs[i-1]) && unicode.IsLower(rs[i+1])
			if lowerBefore || acronymEnd {
				b.WriteByte('_')
			}
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}
