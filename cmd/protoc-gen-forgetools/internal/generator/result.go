package generator

import (
	"fmt"
	"strings"

	"google.golang.org/protobuf/compiler/protogen"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	optionsv1 "github.com/forgetools/forgetools/gen/forgetools/options/v1"
)

// The result side of a toolset: which message and oneof a dispatch
// returns, its error arm, and whether each tool's expected arm and ack
// templates fit it.

// resultOf finds the result message (the output of the method that takes
// the dispatch message, else the one message of the file with an error arm),
// its result oneof, and the procedure.
func (r *reader) resultOf(ts *toolset) {
	var result *protogen.Message
	for _, s := range ts.file.Services {
		for _, m := range s.Methods {
			if m.Input.Desc.FullName() != ts.dispatch.Desc.FullName() {
				continue
			}
			if ts.procedure != "" {
				r.problems.add(m.Desc, nil, "%s is a second method taking %s (first: %s)", m.Desc.FullName(), ts.dispatch.Desc.Name(), ts.procedure)
				continue
			}
			ts.procedure = fmt.Sprintf("/%s/%s", s.Desc.FullName(), m.Desc.Name())
			result = m.Output
		}
	}
	if result == nil {
		var candidates []*protogen.Message
		for _, m := range r.messages {
			if m.Desc.ParentFile() == ts.file.Desc && errorOneof(m) != nil {
				candidates = append(candidates, m)
			}
		}
		if len(candidates) == 1 {
			result = candidates[0]
		}
	}
	if result == nil {
		r.problems.add(ts.oneof.Desc, nil, "no result message for %s: add a service method taking it, or a result oneof with an arm marked (forgetools.options.v1.result).error", ts.dispatch.Desc.Name())
		return
	}
	ts.resultCallID = resultCallID(result)
	ts.result = errorOneof(result)
	if ts.result == nil {
		var real []*protogen.Oneof
		for _, o := range result.Oneofs {
			if !o.Desc.IsSynthetic() {
				real = append(real, o)
			}
		}
		if len(real) != 1 {
			r.problems.add(result.Desc, nil, "result message %s needs exactly one oneof (or one with an arm marked (forgetools.options.v1.result).error)", result.Desc.FullName())
			return
		}
		ts.result = real[0]
	}
	for _, arm := range ts.result.Fields {
		if !isErrorArm(arm) {
			continue
		}
		if ts.errorArm != nil {
			r.problems.add(arm.Desc, nil, "%s is a second error arm (first: %s)", arm.Desc.Name(), ts.errorArm.Desc.Name())
			continue
		}
		r.checkErrorArm(arm)
		ts.errorArm = arm
	}
	r.checkResultMessages(ts)
	if ts.errorArm == nil {
		r.problems.add(ts.result.Desc, nil, "result oneof %s has no error arm: the gateway answers failures in-band, so mark one arm (forgetools.options.v1.result).error", ts.result.Desc.FullName())
	}
}

// resultCallID is the result message's string field with the envelope role
// CALL_ID, which the server side echoes the request's call id into; nil
// when it has none.
func resultCallID(m *protogen.Message) *protogen.Field {
	for _, f := range m.Fields {
		env, _ := proto.GetExtension(f.Desc.Options(), optionsv1.E_Envelope).(*optionsv1.EnvelopeOptions)
		if env.GetRole() == optionsv1.EnvelopeRole_ENVELOPE_ROLE_CALL_ID && f.Desc.Kind() == protoreflect.StringKind && !f.Desc.IsList() {
			return f
		}
	}
	return nil
}

func errorOneof(m *protogen.Message) *protogen.Oneof {
	for _, o := range m.Oneofs {
		for _, f := range o.Fields {
			if isErrorArm(f) {
				return o
			}
		}
	}
	return nil
}

func isErrorArm(f *protogen.Field) bool {
	opts, _ := proto.GetExtension(f.Desc.Options(), optionsv1.E_Result).(*optionsv1.ResultOptions)
	return opts.GetError()
}

// checkErrorArm requires the shape runtime.CallError is filled from: code
// (enum or string), message (string), retry_after_ms (optional integer).
func (r *reader) checkErrorArm(arm *protogen.Field) {
	if arm.Message == nil {
		r.problems.add(arm.Desc, nil, "error arm %s must be a message with code, message and retry_after_ms", arm.Desc.Name())
		return
	}
	fields := arm.Message.Desc.Fields()
	code, msg, retry := fields.ByName("code"), fields.ByName("message"), fields.ByName("retry_after_ms")
	switch {
	case code == nil || code.IsList() || (code.Kind() != protoreflect.EnumKind && code.Kind() != protoreflect.StringKind):
		r.problems.add(arm.Desc, nil, "error arm %s: %s needs a code field (enum or string)", arm.Desc.Name(), arm.Message.Desc.FullName())
	case msg == nil || msg.IsList() || msg.Kind() != protoreflect.StringKind:
		r.problems.add(arm.Desc, nil, "error arm %s: %s needs a string message field", arm.Desc.Name(), arm.Message.Desc.FullName())
	case retry != nil && (retry.IsList() || (retry.Kind() != protoreflect.Uint64Kind && retry.Kind() != protoreflect.Uint32Kind)):
		r.problems.add(arm.Desc, nil, "error arm %s: retry_after_ms must be an unsigned integer", arm.Desc.Name())
	}
	for _, f := range arm.Message.Fields {
		if f.Desc.Name() == "code" && f.Enum != nil {
			r.objects.checkEnum(f.Enum) // the server side names codes by model name
		}
	}
}

// checkResult resolves the expected result arm and checks the ack
// templates against its message.
func (r *reader) checkResult(ts *toolset, t *tool) {
	opts := t.opts
	if ts.result == nil {
		return // already refused
	}
	for _, arm := range ts.result.Fields {
		if string(arm.Desc.Name()) == opts.GetResult() {
			t.resultArm = arm
		}
	}
	switch {
	case opts.GetResult() == "":
		r.problems.add(t.arm.Desc, toolPath("result"), "%s: missing result (the %s arm it expects)", t.name, ts.result.Desc.FullName())
		return
	case t.resultArm == nil:
		r.problems.add(t.arm.Desc, toolPath("result"), "%s: result arm %q does not exist in %s", t.name, opts.GetResult(), ts.result.Desc.FullName())
		return
	case t.resultArm == ts.errorArm:
		r.problems.add(t.arm.Desc, toolPath("result"), "%s: result arm %q is the error arm", t.name, opts.GetResult())
		return
	case t.resultArm.Message == nil:
		r.problems.add(t.arm.Desc, toolPath("result"), "%s: result arm %q must be a message", t.name, opts.GetResult())
		return
	}
	msg := t.resultArm.Message.Desc
	if opts.GetOwnsResult() || opts.GetIdempotencyKey() {
		r.checkArtifact(t, msg)
	}
	if opts.GetReplayAck() != "" {
		if opts.GetAck() == "" {
			r.problems.add(t.arm.Desc, toolPath("replay_ack"), "%s: replay_ack without an ack", t.name)
		}
		if url := msg.Fields().ByName("url"); url == nil || url.Kind() != protoreflect.StringKind {
			r.problems.add(t.arm.Desc, toolPath("replay_ack"), "%s: replay_ack needs a string url field in %s (an empty url marks the replay)", t.name, msg.FullName())
		}
	}
	for _, ack := range []struct {
		name protoreflect.Name
		text string
	}{{"ack", opts.GetAck()}, {"replay_ack", opts.GetReplayAck()}} {
		rest := placeholder.ReplaceAllString(ack.text, "")
		if strings.ContainsAny(rest, "{}") {
			r.problems.add(t.arm.Desc, toolPath(ack.name), "%s: %s %q has an unbalanced brace", t.name, ack.name, ack.text)
		}
		for _, m := range placeholder.FindAllStringSubmatch(ack.text, -1) {
			f := msg.Fields().ByName(protoreflect.Name(m[1]))
			switch {
			case f == nil:
				r.problems.add(t.arm.Desc, toolPath(ack.name), "%s: %s placeholder {%s} names no field of %s", t.name, ack.name, m[1], msg.FullName())
			case f.IsList() || f.IsMap() || f.Message() != nil:
				r.problems.add(t.arm.Desc, toolPath(ack.name), "%s: %s placeholder {%s} must name a scalar field of %s", t.name, ack.name, m[1], msg.FullName())
			}
		}
	}
}

// checkArtifact requires the artifact roles the gateway builds ownership
// records and dedup replays from: a repository and a number (their shapes
// are checked with every result message, in checkResultMessage).
func (r *reader) checkArtifact(t *tool, msg protoreflect.MessageDescriptor) {
	at := toolPath("owns_result")
	if !t.opts.GetOwnsResult() {
		at = toolPath("idempotency_key")
	}
	roles := map[optionsv1.ArtifactRole]bool{}
	fields := msg.Fields()
	for i := range fields.Len() {
		roles[artifactRole(fields.Get(i))] = true
	}
	for _, need := range []optionsv1.ArtifactRole{optionsv1.ArtifactRole_ARTIFACT_ROLE_REPO, optionsv1.ArtifactRole_ARTIFACT_ROLE_NUMBER} {
		if !roles[need] {
			r.problems.add(t.arm.Desc, at, "%s: the gateway records its result as an artifact, but %s has no field marked (forgetools.options.v1.artifact) = %s", t.name, msg.FullName(), need)
		}
	}
}

func artifactRole(f protoreflect.FieldDescriptor) optionsv1.ArtifactRole {
	role, _ := proto.GetExtension(f.Options(), optionsv1.E_Artifact).(optionsv1.ArtifactRole)
	return role
}

// checkResultMessages checks, once per message type reachable from the
// result arms, the options the gateway acts on: artifact roles on fields of
// the right shape (each at most once per message), and claims parsed from
// a sibling string into a forgetools.forge.v1.Attribution.
func (r *reader) checkResultMessages(ts *toolset) {
	var walk func(md protoreflect.MessageDescriptor)
	walk = func(md protoreflect.MessageDescriptor) {
		if r.resultChecked[md.FullName()] {
			return
		}
		r.resultChecked[md.FullName()] = true
		seen := map[optionsv1.ArtifactRole]bool{}
		fields := md.Fields()
		for i := range fields.Len() {
			f := fields.Get(i)
			if role := artifactRole(f); role != optionsv1.ArtifactRole_ARTIFACT_ROLE_UNSPECIFIED {
				if seen[role] {
					r.problems.add(f, nil, "%s is a second %s field of %s", f.Name(), role, md.FullName())
				}
				seen[role] = true
				if !artifactShape(role, f) {
					r.problems.add(f, nil, "%s field %s must be %s", role, f.FullName(), artifactShapes[role])
				}
			}
			r.checkClaim(md, f)
			if f.Message() != nil && !f.IsMap() {
				walk(f.Message())
			}
		}
	}
	for _, arm := range ts.result.Fields {
		if arm.Message != nil && arm != ts.errorArm {
			walk(arm.Message.Desc)
		}
	}
}

func (r *reader) checkClaim(md protoreflect.MessageDescriptor, f protoreflect.FieldDescriptor) {
	ro, _ := proto.GetExtension(f.Options(), optionsv1.E_Render).(*optionsv1.RenderOptions)
	from := ro.GetClaimFrom()
	if from == "" {
		return
	}
	text := md.Fields().ByName(protoreflect.Name(from))
	switch {
	case ro.GetAs() != optionsv1.Render_RENDER_CLAIM:
		r.problems.add(f, nil, "claim_from is set on %s, which is not rendered as RENDER_CLAIM", f.FullName())
	case f.IsList() || f.Message() == nil || f.Message().FullName() != attributionName:
		r.problems.add(f, nil, "claim field %s must be a singular %s", f.FullName(), attributionName)
	case text == nil || text.Kind() != protoreflect.StringKind || text.IsList():
		r.problems.add(f, nil, "claim_from %q of %s must name a singular string field of %s", from, f.FullName(), md.FullName())
	}
}

// attributionName is the claim type the gateway parses owner headers into.
const attributionName protoreflect.FullName = "forgetools.forge.v1.Attribution"

var artifactShapes = map[optionsv1.ArtifactRole]string{
	optionsv1.ArtifactRole_ARTIFACT_ROLE_FORGE:      "a singular forgetools.forge.v1.ForgeRef",
	optionsv1.ArtifactRole_ARTIFACT_ROLE_REPO:       "a singular string",
	optionsv1.ArtifactRole_ARTIFACT_ROLE_NUMBER:     "a singular uint64 or uint32",
	optionsv1.ArtifactRole_ARTIFACT_ROLE_ID:         "a singular string",
	optionsv1.ArtifactRole_ARTIFACT_ROLE_AUTHOR:     "a singular string",
	optionsv1.ArtifactRole_ARTIFACT_ROLE_VISIBILITY: "a singular string",
}

func artifactShape(role optionsv1.ArtifactRole, f protoreflect.FieldDescriptor) bool {
	if f.IsList() || f.IsMap() {
		return false
	}
	switch role {
	case optionsv1.ArtifactRole_ARTIFACT_ROLE_FORGE:
		return f.Message() != nil && f.Message().FullName() == forgeRefName
	case optionsv1.ArtifactRole_ARTIFACT_ROLE_NUMBER:
		return f.Kind() == protoreflect.Uint64Kind || f.Kind() == protoreflect.Uint32Kind
	}
	return f.Kind() == protoreflect.StringKind
}

// forgeRefName is the forge coordinate type the gateway resolves forges
// by; a selector of another type is carried to the agent side only.
const forgeRefName protoreflect.FullName = "forgetools.forge.v1.ForgeRef"
