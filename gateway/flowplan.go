package gateway

import (
	"strconv"
	"strings"
	"sync"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/forgetools/forgetools/gateway/store"
	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	optionsv1 "github.com/forgetools/forgetools/gen/forgetools/options/v1"
	"github.com/forgetools/forgetools/toolserver"
)

// What the information-flow rules read from the table, from options alone:
// each arm's approval level (its (tool).approval), the read arm that
// reports a repository's visibility (its result has a field marked
// (artifact) = VISIBILITY and its request nothing but the repository), and
// in result messages the fields marked (artifact) = AUTHOR beside text
// rendered RENDER_FENCED. No arm is named here.

// flowTable is one table's flow facts.
type flowTable struct {
	// reads marks the writes whose action class is a read ("repo:read":
	// a subscription changes gateway state, not the forge): they publish
	// nothing, so the private-to-public rule leaves them alone.
	reads map[*toolserver.Arm]bool
	// visibility is the arm that reads a repository's visibility, nil when
	// the table has none; visibilityRepo is its request's repository field.
	visibility     *toolserver.Arm
	visibilityReq  protoreflect.MessageType
	visibilityRepo protoreflect.FieldDescriptor
}

func newFlowTable(t *toolserver.Table) *flowTable {
	ft := &flowTable{reads: map[*toolserver.Arm]bool{}}
	env := t.NewRequest().ProtoReflect()
	fields := env.Descriptor().Fields()
	for _, a := range t.Arms {
		fd := fields.ByName(protoreflect.Name(a.Name))
		if fd == nil || fd.Message() == nil {
			continue
		}
		to, _ := proto.GetExtension(fd.Options(), optionsv1.E_Tool).(*optionsv1.ToolOptions)
		ft.reads[a] = strings.HasSuffix(to.GetActionClass(), ":read")
		if ft.visibility == nil && a.Approval == toolserver.ApprovalRead && a.Scope == toolserver.ScopeRepository {
			if repo := onlyRepoField(fd.Message()); repo != nil && resultHasVisibility(t, a) {
				ft.visibility, ft.visibilityRepo = a, repo
				ft.visibilityReq = env.Get(fd).Message().Type()
			}
		}
	}
	return ft
}

// onlyRepoField is a request's repository scope field when it is the
// request's only field, so a request with just the repository is complete.
func onlyRepoField(md protoreflect.MessageDescriptor) protoreflect.FieldDescriptor {
	if md.Fields().Len() != 1 {
		return nil
	}
	fd := md.Fields().Get(0)
	po, _ := proto.GetExtension(fd.Options(), optionsv1.E_Param).(*optionsv1.ParamOptions)
	if po.GetScope() != optionsv1.Scope_SCOPE_REPOSITORY || fd.Kind() != protoreflect.StringKind {
		return nil
	}
	return fd
}

// resultHasVisibility reports whether the arm's result message carries a
// visibility field.
func resultHasVisibility(t *toolserver.Table, a *toolserver.Arm) bool {
	res := t.NewResult().ProtoReflect().Descriptor().Fields().ByName(protoreflect.Name(a.Result))
	return res != nil && res.Message() != nil && flowPlanOf(res.Message()).visibility != nil
}

// flowPlan is one result message type's flow fields, read once per type.
type flowPlan struct {
	author     protoreflect.FieldDescriptor
	visibility protoreflect.FieldDescriptor
	number     protoreflect.FieldDescriptor
	repo       protoreflect.FieldDescriptor   // (artifact) = REPO
	forge      protoreflect.FieldDescriptor   // the singular ForgeRef beside it
	fenced     []protoreflect.FieldDescriptor // text someone wrote
	nested     []protoreflect.FieldDescriptor
	name       string // the type's name as artifacts are named ("pull request")
}

var flowPlans sync.Map // protoreflect.MessageDescriptor -> *flowPlan

func flowPlanOf(md protoreflect.MessageDescriptor) *flowPlan {
	if p, ok := flowPlans.Load(md); ok {
		return p.(*flowPlan)
	}
	p := &flowPlan{name: snake(string(md.Name()))}
	fields := md.Fields()
	for i := range fields.Len() {
		fd := fields.Get(i)
		single := !fd.IsList() && !fd.IsMap() && fd.Kind() == protoreflect.StringKind
		switch proto.GetExtension(fd.Options(), optionsv1.E_Artifact).(optionsv1.ArtifactRole) {
		case optionsv1.ArtifactRole_ARTIFACT_ROLE_AUTHOR:
			if single {
				p.author = fd
			}
		case optionsv1.ArtifactRole_ARTIFACT_ROLE_VISIBILITY:
			if single {
				p.visibility = fd
			}
		case optionsv1.ArtifactRole_ARTIFACT_ROLE_NUMBER:
			p.number = fd
		case optionsv1.ArtifactRole_ARTIFACT_ROLE_REPO:
			if single {
				p.repo = fd
			}
		}
		if fd.Message() != nil && fd.Message().FullName() == forgeRefMsg.FullName() && !fd.IsList() && p.forge == nil {
			p.forge = fd
			continue
		}
		ro, _ := proto.GetExtension(fd.Options(), optionsv1.E_Render).(*optionsv1.RenderOptions)
		if ro.GetAs() == optionsv1.Render_RENDER_FENCED && fd.Kind() == protoreflect.StringKind && !fd.IsMap() {
			p.fenced = append(p.fenced, fd)
		}
		if fd.Message() != nil && !fd.IsMap() {
			p.nested = append(p.nested, fd)
		}
	}
	actual, _ := flowPlans.LoadOrStore(md, p)
	return actual.(*flowPlan)
}

// place is a repository on a forge.
type place struct {
	ref  *forgev1.ForgeRef
	repo string
}

// authoredText is one piece of text a result carried, who wrote it and
// where.
type authoredText struct {
	place
	artifact string // "issue #3", "comment on issue #3"
	author   string
}

// readsOf walks a result however deeply nested (a list's issues, an
// issue's comments, an event list's events): the repositories it names
// (a message's (artifact) = REPO field, on the forge of its ForgeRef
// field, else where the call went) and the texts in it with their
// authors. A message counts as text when it has an author field and some
// non-empty RENDER_FENCED text; its artifact is named after the message
// type and the nearest number.
func readsOf(m protoreflect.Message, at place, within string, places []place, texts []authoredText) ([]place, []authoredText) {
	p := flowPlanOf(m.Descriptor())
	if p.repo != nil && m.Get(p.repo).String() != "" {
		at.repo = m.Get(p.repo).String()
		if p.forge != nil && m.Has(p.forge) {
			at.ref = m.Get(p.forge).Message().Interface().(*forgev1.ForgeRef)
		}
		places = append(places, at)
	}
	name := p.name
	if p.number != nil && m.Get(p.number).Uint() != 0 {
		name += " #" + strconv.FormatUint(m.Get(p.number).Uint(), 10)
	} else if within != "" {
		name += " on " + within
	}
	if p.author != nil && hasText(m, p.fenced) && !gatewayWritten(m) {
		texts = append(texts, authoredText{place: at, artifact: name, author: m.Get(p.author).String()})
	}
	for _, fd := range p.nested {
		if !m.Has(fd) {
			continue
		}
		if fd.IsList() {
			l := m.Get(fd).List()
			for i := range l.Len() {
				places, texts = readsOf(l.Get(i).Message(), at, name, places, texts)
			}
			continue
		}
		places, texts = readsOf(m.Get(fd).Message(), at, name, places, texts)
	}
	return places, texts
}

// gatewayWritten reports whether m is an event of an account's approval
// stream: its text is the gateway's line about an operator's decision,
// which no forge author wrote, so reading it taints nothing. The kind is
// the stored subscription's, set when the event is read, never a
// source's payload.
func gatewayWritten(m protoreflect.Message) bool {
	ev, ok := m.Interface().(*forgev1.Event)
	return ok && ev.GetKind() == string(store.KindApproval)
}

// hasText reports whether any of the fenced fields of m holds text.
func hasText(m protoreflect.Message, fenced []protoreflect.FieldDescriptor) bool {
	for _, fd := range fenced {
		if fd.IsList() {
			if m.Get(fd).List().Len() > 0 {
				return true
			}
		} else if strings.TrimSpace(m.Get(fd).String()) != "" {
			return true
		}
	}
	return false
}

// snake spells a message name the way the tools do: PullRequest ->
// "pull request".
func snake(s string) string {
	var b strings.Builder
	for i, r := range s {
		if 'A' <= r && r <= 'Z' {
			if i > 0 {
				b.WriteByte(' ')
			}
			r += 'a' - 'A'
		}
		b.WriteRune(r)
	}
	return b.String()
}
