package generator

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"buf.build/gen/go/bufbuild/protovalidate/protocolbuffers/go/buf/validate"
	"github.com/forgetools/forgetools/runtime/schema"
	"google.golang.org/protobuf/compiler/protogen"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/timestamppb"
)

// wellKnown is how a tool takes a google.protobuf message: the ones with a
// plain JSON form become that form; the others are refused.
type wellKnown int

const (
	wkNone      wellKnown = iota
	wkTimestamp           // an RFC 3339 string
	wkDuration            // a "1.5s" string
	wkWrapper             // a nullable scalar
)

// refusedWellKnown says why a google.protobuf message cannot be a tool
// parameter, and what to use instead.
var refusedWellKnown = map[protoreflect.FullName]string{
	"google.protobuf.Struct":    "has no fixed shape, and a tool parameter needs a schema the model can follow and the runtime can check; use a message, or a map<string, string>",
	"google.protobuf.Value":     "may be any JSON value, and a tool parameter needs a schema the model can follow and the runtime can check; use a scalar, a message or a oneof",
	"google.protobuf.ListValue": "is a list of any JSON values, and a tool parameter needs a schema the model can follow and the runtime can check; use a repeated field of one type",
	"google.protobuf.Any":       "may hold any message type, which no schema can describe; use a oneof of the messages it may hold",
	"google.protobuf.Empty":     "carries nothing; leave it out of the request",
	"google.protobuf.FieldMask": "is a list of field paths; use a repeated string with the paths the tool accepts",
}

// wrapped is the scalar kind each wrapper holds.
var wrapped = map[protoreflect.FullName]protoreflect.Kind{
	"google.protobuf.DoubleValue": protoreflect.DoubleKind,
	"google.protobuf.FloatValue":  protoreflect.FloatKind,
	"google.protobuf.Int64Value":  protoreflect.Int64Kind,
	"google.protobuf.UInt64Value": protoreflect.Uint64Kind,
	"google.protobuf.Int32Value":  protoreflect.Int32Kind,
	"google.protobuf.UInt32Value": protoreflect.Uint32Kind,
	"google.protobuf.BoolValue":   protoreflect.BoolKind,
	"google.protobuf.StringValue": protoreflect.StringKind,
	"google.protobuf.BytesValue":  protoreflect.BytesKind,
}

// wellKnown classifies a field of a google.protobuf message type, refusing
// (and returning wkNone for) the ones a tool cannot take.
func (o *objects) wellKnown(f *protogen.Field) wellKnown {
	name := f.Message.Desc.FullName()
	switch {
	case name == "google.protobuf.Timestamp":
		return wkTimestamp
	case name == "google.protobuf.Duration":
		return wkDuration
	case wrapped[name] != 0:
		if f.Desc.IsList() {
			o.problems.add(f.Desc, nil, "%s is a list of %s; a list item cannot be null, so use a repeated %s", f.Desc.FullName(), name, wrapped[name])
			return wkNone
		}
		return wkWrapper
	}
	why, ok := refusedWellKnown[name]
	if !ok {
		why = "has no tool form"
	}
	o.problems.add(f.Desc, nil, "%s is a %s, which %s", f.Desc.FullName(), name, why)
	return wkNone
}

// valueKind is the proto kind of one value of p as the rules see it: the
// wrapped scalar of a wrapper, else the field's own kind.
func (p *param) valueKind() protoreflect.Kind {
	if p.wkt == wkWrapper {
		return wrapped[p.field.Message.Desc.FullName()]
	}
	return p.field.Desc.Kind()
}

// durationPattern is the text of a google.protobuf.Duration as protojson
// writes it: seconds with up to nine fractional digits and an "s".
const durationPattern = `^-?[0-9]+(\.[0-9]{1,9})?s$`

// timestampRules states the timestamp rules (JSON Schema cannot compare
// times) and maps their examples.
func timestampRules(s *schema.Schema, path string, r *validate.TimestampRules) []string {
	var out []string
	at := func(t *timestamppb.Timestamp) string { return t.AsTime().UTC().Format(time.RFC3339Nano) }
	words := map[protoreflect.Name]string{"const": "must be", "lt": "must be before", "lte": "must be at or before", "gt": "must be after", "gte": "must be at or after"}
	eachSet(r.ProtoReflect(), func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		switch name := fd.Name(); name {
		case "lt_now":
			out = append(out, prefixed(path, "must be in the past"))
		case "gt_now":
			out = append(out, prefixed(path, "must be in the future"))
		case "within":
			out = append(out, prefixed(path, "must be within "+durationText(v.Message().Interface().(*durationpb.Duration))+" of now"))
		case "example":
			for i := range v.List().Len() {
				s.Examples = append(s.Examples, at(v.List().Get(i).Message().Interface().(*timestamppb.Timestamp)))
			}
		default:
			if w, ok := words[name]; ok {
				out = append(out, prefixed(path, w+" "+at(v.Message().Interface().(*timestamppb.Timestamp))))
			}
		}
		return true
	})
	return out
}

// durationRules states the duration rules (one duration has many
// spellings, "90s" and "90.0s", so even const is a sentence) and maps
// their examples.
func durationRules(s *schema.Schema, path string, r *validate.DurationRules) []string {
	var out []string
	text := func(v protoreflect.Value) string { return durationText(v.Message().Interface().(*durationpb.Duration)) }
	list := func(v protoreflect.Value) string {
		var parts []string
		for i := range v.List().Len() {
			parts = append(parts, durationText(v.List().Get(i).Message().Interface().(*durationpb.Duration)))
		}
		return strings.Join(parts, ", ")
	}
	lo, hi := r.ProtoReflect().WhichOneof(r.ProtoReflect().Descriptor().Oneofs().ByName("greater_than")), r.ProtoReflect().WhichOneof(r.ProtoReflect().Descriptor().Oneofs().ByName("less_than"))
	if lo != nil && hi != nil {
		l, h := r.ProtoReflect().Get(lo).Message().Interface().(*durationpb.Duration), r.ProtoReflect().Get(hi).Message().Interface().(*durationpb.Duration)
		if h.AsDuration() < l.AsDuration() {
			out = append(out, prefixed(path, "must be "+boundWords[hi.Name()]+" "+durationText(h)+" or "+boundWords[lo.Name()]+" "+durationText(l)))
			lo, hi = nil, nil
		}
	}
	eachSet(r.ProtoReflect(), func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		switch name := fd.Name(); name {
		case "in":
			out = append(out, prefixed(path, "must be one of "+list(v)))
		case "not_in":
			out = append(out, prefixed(path, "must not be "+list(v)))
		case "example":
			for i := range v.List().Len() {
				s.Examples = append(s.Examples, durationText(v.List().Get(i).Message().Interface().(*durationpb.Duration)))
			}
		default:
			if fd.ContainingOneof() != nil && fd != lo && fd != hi {
				return true // stated as an exclusive range above
			}
			if w, ok := boundWords[name]; ok {
				out = append(out, prefixed(path, "must be "+w+" "+text(v)))
			}
		}
		return true
	})
	return out
}

// durationText spells a duration as the model writes it: "1.5s".
func durationText(d *durationpb.Duration) string {
	secs, nanos := d.GetSeconds(), d.GetNanos()
	sign := ""
	if secs < 0 || nanos < 0 {
		sign, secs, nanos = "-", -secs, -nanos
	}
	text := strconv.FormatInt(secs, 10)
	if nanos != 0 {
		text += strings.TrimRight(fmt.Sprintf(".%09d", nanos), "0")
	}
	return sign + text + "s"
}
