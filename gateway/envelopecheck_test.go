package gateway

import (
	"errors"
	"strings"
	"testing"

	"buf.build/go/protovalidate"
	"google.golang.org/protobuf/reflect/protoreflect"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/internal/testkit"
	"github.com/forgetools/forgetools/violation"
)

// The split validation says exactly what validating the whole envelope
// says, for every arm: the same violations, phrased the same, in the same
// order, on requests that break the arm's rules, the envelope's or both.
func TestEnvelopeCheckAgreesWithWholeValidation(t *testing.T) {
	v, err := protovalidate.New()
	if err != nil {
		t.Fatal(err)
	}
	md := (&gatewayv1.ForgeCallRequest{}).ProtoReflect().Descriptor()
	c := envelopeCheckOf(md)
	if c.shell == nil || len(c.fields) != 3 {
		t.Fatalf("the forge envelope is validated whole (shell %v, %d fields): the split this test checks is not in use", c.shell, len(c.fields))
	}
	oneof := md.Oneofs().Get(0)
	envelopes := map[string]func(*gatewayv1.ForgeCallRequest){
		"valid envelope": func(*gatewayv1.ForgeCallRequest) {},
		"long call id and key, bad selector": func(r *gatewayv1.ForgeCallRequest) {
			r.CallId = strings.Repeat("c", 300)
			r.ClientRequestId = strings.Repeat("k", 600)
			r.Forge = &forgev1.ForgeRef{Provider: forgev1.ForgeProvider(99), Host: strings.Repeat("h", 300) + " /"}
		},
	}
	arms := map[string]func(protoreflect.Message){
		"empty":    func(protoreflect.Message) {},
		"too long": func(m protoreflect.Message) { fill(m, strings.Repeat("x", 70000), 1<<31-1, 3) },
		"blank":    func(m protoreflect.Message) { fill(m, " ", 0, 3) },
	}
	checked, failing := 0, 0
	for i := range oneof.Fields().Len() {
		arm := oneof.Fields().Get(i)
		for en, env := range envelopes {
			for an, fillArm := range arms {
				req := &gatewayv1.ForgeCallRequest{CallId: "call-1"}
				env(req)
				m := req.ProtoReflect().Mutable(arm).Message()
				fillArm(m)
				whole, split := phrased(t, md, v.Validate(req)), phrased(t, md, c.validate(v, req))
				if whole != split {
					t.Errorf("%s, %s %s:\nwhole: %s\nsplit: %s", arm.Name(), en, an, whole, split)
				}
				checked++
				if whole != "" {
					failing++
				}
			}
		}
	}
	// Most of these requests break some rule; a test whose requests all
	// passed would compare nothing.
	if failing < checked/2 {
		t.Fatalf("only %d of %d requests broke a rule", failing, checked)
	}
}

// phrased is a Validate result as the gateway words it, with each
// violation's rule id.
func phrased(t *testing.T, md protoreflect.MessageDescriptor, err error) string {
	t.Helper()
	if err == nil {
		return ""
	}
	var ve *protovalidate.ValidationError
	if !errors.As(err, &ve) {
		t.Fatalf("not a validation error: %v", err)
	}
	var ids []string
	for _, vi := range ve.Violations {
		ids = append(ids, vi.Proto.GetRuleId())
	}
	return strings.Join(violation.All(md, ve, violation.FieldNames), "; ") + " [" + strings.Join(ids, " ") + "]"
}

// fill sets every string field of m to s, every number to n, every list to
// one element, recursing depth levels into messages.
func fill(m protoreflect.Message, s string, n int64, depth int) {
	if depth == 0 {
		return
	}
	fields := m.Descriptor().Fields()
	for i := range fields.Len() {
		fd := fields.Get(i)
		if fd.IsMap() || (fd.ContainingOneof() != nil && m.WhichOneof(fd.ContainingOneof()) != nil) {
			continue
		}
		var v protoreflect.Value
		switch fd.Kind() {
		case protoreflect.StringKind:
			v = protoreflect.ValueOfString(s)
		case protoreflect.BytesKind:
			v = protoreflect.ValueOfBytes([]byte(s))
		case protoreflect.BoolKind:
			v = protoreflect.ValueOfBool(true)
		case protoreflect.EnumKind:
			v = protoreflect.ValueOfEnum(protoreflect.EnumNumber(n % 1000))
		case protoreflect.Int32Kind, protoreflect.Sint32Kind, protoreflect.Sfixed32Kind:
			v = protoreflect.ValueOfInt32(int32(n))
		case protoreflect.Int64Kind, protoreflect.Sint64Kind, protoreflect.Sfixed64Kind:
			v = protoreflect.ValueOfInt64(n)
		case protoreflect.Uint32Kind, protoreflect.Fixed32Kind:
			v = protoreflect.ValueOfUint32(uint32(n))
		case protoreflect.Uint64Kind, protoreflect.Fixed64Kind:
			v = protoreflect.ValueOfUint64(uint64(n))
		case protoreflect.MessageKind:
			if fd.IsList() {
				l := m.Mutable(fd).List()
				e := l.NewElement()
				fill(e.Message(), s, n, depth-1)
				l.Append(e)
			} else {
				fill(m.Mutable(fd).Message(), s, n, depth-1)
			}
			continue
		default:
			continue
		}
		if fd.IsList() {
			m.Mutable(fd).List().Append(v)
			continue
		}
		m.Set(fd, v)
	}
}

// A request naming no arm is validated whole: the oneof's required rule
// still speaks (the gateway refuses such a request before validating it).
func TestEnvelopeCheckWithoutArmValidatesWhole(t *testing.T) {
	v, err := protovalidate.New()
	if err != nil {
		t.Fatal(err)
	}
	req := &gatewayv1.ForgeCallRequest{CallId: "c"}
	c := envelopeCheckOf(req.ProtoReflect().Descriptor())
	got := phrased(t, req.ProtoReflect().Descriptor(), c.validate(v, req))
	if want := phrased(t, req.ProtoReflect().Descriptor(), v.Validate(req)); got != want || got == "" {
		t.Fatalf("split %q, whole %q", got, want)
	}
}

// BenchmarkEnvelopeCheck is the request validation alone, on a read and a
// create, both ways in the same run: whole (the baseline: protovalidate
// over the envelope, every unset arm checked for presence) and split (the
// arm and the envelope's other fields apart, as the gateway validates).
//
//	go test ./gateway -run X -bench EnvelopeCheck -benchmem
func BenchmarkEnvelopeCheck(b *testing.B) {
	v, err := protovalidate.New()
	if err != nil {
		b.Fatal(err)
	}
	reqs := map[string]*gatewayv1.ForgeCallRequest{
		"get_issue": {CallId: "call-1", Call: &gatewayv1.ForgeCallRequest_GetIssue{GetIssue: &gatewayv1.GetIssueRequest{Repo: "acme/web", IssueNumber: 1}}},
		"create_issue": {CallId: "call-2", ClientRequestId: "key-1", Forge: &forgev1.ForgeRef{Provider: forgev1.ForgeProvider_FORGE_PROVIDER_LOCAL},
			Call: &gatewayv1.ForgeCallRequest_CreateIssue{CreateIssue: &gatewayv1.CreateIssueRequest{Repo: "acme/web", Title: "Crash", Body: "Steps", Labels: []string{"bug"}}}},
	}
	for _, name := range []string{"get_issue", "create_issue"} {
		req := reqs[name]
		c := envelopeCheckOf(req.ProtoReflect().Descriptor())
		b.Run(name+"/whole", func(b *testing.B) {
			b.ReportAllocs()
			defer cpuPerOp(b)()
			for b.Loop() {
				if err := v.Validate(req); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(name+"/split", func(b *testing.B) {
			b.ReportAllocs()
			defer cpuPerOp(b)()
			for b.Loop() {
				if err := c.validate(v, req); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// cpuPerOp reports the process's CPU time per op (all threads: on a shared
// machine wall time measures the neighbours too) when the returned func
// runs.
func cpuPerOp(b *testing.B) func() {
	start := testkit.ProcessCPU()
	return func() {
		if b.N > 0 {
			b.ReportMetric(float64((testkit.ProcessCPU()-start).Nanoseconds()/int64(b.N)), "cpu-ns/op")
		}
	}
}
