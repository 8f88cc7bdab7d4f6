package gateway

import (
	"sync"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/forgetools/forgetools/gateway/attribution"
	"github.com/forgetools/forgetools/gateway/store"
	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	optionsv1 "github.com/forgetools/forgetools/gen/forgetools/options/v1"
)

// What the gateway does to a result, read from the options of the result's
// message types: fields marked (artifact) = FORGE get the forge that
// answered, RENDER_CLAIM fields get the owner header parsed out of their
// claim_from sibling, and the REPO, NUMBER and ID fields make ownership
// records and dedup replays. One walker serves every arm.

// resultPlan is one message type's part of that, read once per type.
type resultPlan struct {
	forge  []protoreflect.FieldDescriptor
	claims []claim
	repo   protoreflect.FieldDescriptor
	number protoreflect.FieldDescriptor
	id     protoreflect.FieldDescriptor
	url    protoreflect.FieldDescriptor   // the first field rendered as a URL
	nested []protoreflect.FieldDescriptor // message fields to walk into
}

// claim is an attribution field and the text field it is parsed from.
type claim struct{ attribution, text protoreflect.FieldDescriptor }

var (
	plans          sync.Map // protoreflect.MessageDescriptor -> *resultPlan
	attributionMsg = (&forgev1.Attribution{}).ProtoReflect().Descriptor()
	forgeRefMsg    = (&forgev1.ForgeRef{}).ProtoReflect().Descriptor()
)

func planOf(md protoreflect.MessageDescriptor) *resultPlan {
	if p, ok := plans.Load(md); ok {
		return p.(*resultPlan)
	}
	p := &resultPlan{}
	fields := md.Fields()
	for i := range fields.Len() {
		fd := fields.Get(i)
		switch proto.GetExtension(fd.Options(), optionsv1.E_Artifact).(optionsv1.ArtifactRole) {
		case optionsv1.ArtifactRole_ARTIFACT_ROLE_FORGE:
			if fd.Message() != nil && fd.Message().FullName() == forgeRefMsg.FullName() && !fd.IsList() {
				p.forge = append(p.forge, fd)
				continue
			}
		case optionsv1.ArtifactRole_ARTIFACT_ROLE_REPO:
			p.repo = fd
		case optionsv1.ArtifactRole_ARTIFACT_ROLE_NUMBER:
			p.number = fd
		case optionsv1.ArtifactRole_ARTIFACT_ROLE_ID:
			p.id = fd
		}
		ro, _ := proto.GetExtension(fd.Options(), optionsv1.E_Render).(*optionsv1.RenderOptions)
		if ro.GetAs() == optionsv1.Render_RENDER_URL && p.url == nil && fd.Kind() == protoreflect.StringKind && !fd.IsList() {
			p.url = fd
		}
		if ro.GetAs() == optionsv1.Render_RENDER_CLAIM && ro.GetClaimFrom() != "" {
			text := fields.ByName(protoreflect.Name(ro.GetClaimFrom()))
			if text != nil && text.Kind() == protoreflect.StringKind && !text.IsList() &&
				fd.Message() != nil && fd.Message().FullName() == attributionMsg.FullName() {
				p.claims = append(p.claims, claim{attribution: fd, text: text})
				continue
			}
		}
		if fd.Message() != nil && !fd.IsMap() {
			p.nested = append(p.nested, fd)
		}
	}
	actual, _ := plans.LoadOrStore(md, p)
	return actual.(*resultPlan)
}

// finish prepares a provider's answer for the caller, however deeply the
// marked fields are nested (a list's issues, an issue's comments).
func finish(m protoreflect.Message, ref *forgev1.ForgeRef) {
	p := planOf(m.Descriptor())
	for _, fd := range p.forge {
		m.Set(fd, protoreflect.ValueOfMessage(proto.Clone(ref).ProtoReflect()))
	}
	for _, c := range p.claims {
		a, rest := attribution.Parse(m.Get(c.text).String())
		if a == nil {
			// No header: the text stands as Parse returned it (whole,
			// so it is not set again), and an attribution the provider
			// filled in is dropped, as before: only a header claims.
			if m.Has(c.attribution) {
				m.Clear(c.attribution)
			}
			continue
		}
		m.Set(c.text, protoreflect.ValueOfString(rest))
		m.Set(c.attribution, protoreflect.ValueOfMessage(a.ProtoReflect()))
	}
	for _, fd := range p.nested {
		if !m.Has(fd) {
			continue
		}
		if fd.IsList() {
			l := m.Get(fd).List()
			for i := range l.Len() {
				finish(l.Get(i).Message(), ref)
			}
			continue
		}
		finish(m.Get(fd).Message(), ref)
	}
}

// artifactOf reads the number and id of the artifact a result describes.
func artifactOf(m protoreflect.Message) (number uint64, id string) {
	p := planOf(m.Descriptor())
	if p.number != nil {
		number = m.Get(p.number).Uint()
	}
	if p.id != nil {
		id = m.Get(p.id).String()
	}
	return number, id
}

// urlOf reads the web address a result gives (its field rendered as a URL).
func urlOf(m protoreflect.Message) string {
	if p := planOf(m.Descriptor()); p.url != nil {
		return m.Get(p.url).String()
	}
	return ""
}

// replayOf is the skeletal result of a create an earlier attempt made: the
// forge, repository and number, and no URL, title or body, which is how the
// tool tells it apart ("already created by an earlier attempt"). into is a
// new, empty message of the result arm's type.
func replayOf(into protoreflect.Message, a *store.Artifact) proto.Message {
	p := planOf(into.Descriptor())
	for _, fd := range p.forge {
		into.Set(fd, protoreflect.ValueOfMessage(a.Forge.Ref().ProtoReflect()))
	}
	if p.repo != nil {
		into.Set(p.repo, protoreflect.ValueOfString(a.Repo))
	}
	if p.number != nil {
		if p.number.Kind() == protoreflect.Uint32Kind {
			into.Set(p.number, protoreflect.ValueOfUint32(uint32(a.Number)))
		} else {
			into.Set(p.number, protoreflect.ValueOfUint64(a.Number))
		}
	}
	return into.Interface()
}
