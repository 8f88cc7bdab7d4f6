package generator

import (
	"google.golang.org/protobuf/compiler/protogen"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	optionsv1 "github.com/forgetools/forgetools/gen/forgetools/options/v1"
)

// Every top-level Go name a generated package declares comes from a model
// name (a toolset, a tool, a capability) or a proto name (a nested message,
// an enum). Two different things must never get the same name, whichever
// files of the package they come from: checkGroup declares every name of a
// package's two sides before anything is emitted, and refuses a collision
// at the line of the thing that came second.

// namespace is the top-level names of one generated Go package.
type namespace struct {
	r        *reader
	owner    map[string]string // Go name -> what declared it
	reported map[[2]string]bool
}

// namespace starts a package's names; reported is shared by the two
// sides of a package, so a collision is reported once.
func (r *reader) namespace(reported map[[2]string]bool) *namespace {
	return &namespace{r: r, owner: map[string]string{}, reported: reported}
}

// declare records that what (a key naming one thing, e.g. "tool
// forge_get_issue") declares name; the same thing may declare a name twice
// (a helper shared by several tools).
func (ns *namespace) declare(name, what string, d protoreflect.Descriptor, at []int32) {
	first, ok := ns.owner[name]
	switch {
	case !ok:
		ns.owner[name] = what
	case first != what && !ns.reported[[2]string{what, first}]:
		ns.reported[[2]string{what, first}] = true // one line per pair of things
		ns.r.problems.add(d, at, "the generated Go name %s of %s is also the name of %s in the same package; rename one of them", name, what, first)
	}
}

// checkGroup declares the names of both sides of a package and refuses a
// package whose annotated files are not all generated in this run (their
// shared helpers would be declared twice, or not at all).
func (r *reader) checkGroup(g *group) {
	first := g.files[0]
	for _, f := range r.plugin.Files {
		if f.Generate || f.GoImportPath != g.path {
			continue
		}
		if ts := r.toolsetsOf(f); len(ts) > 0 {
			r.problems.add(first.toolsets[0].oneof.Desc, optionPath(oneofProto, optionsv1.E_Toolset, "name"), "%s has a toolset in the same Go package (%s) but is not generated in this run; generate all the files of a Go package together, as buf does by default", f.Desc.Path(), string(g.path))
		}
	}
	reported := map[[2]string]bool{}
	tools, handlers := r.namespace(reported), r.namespace(reported)
	local := first.file.GoImportPath
	pkgs := map[protogen.GoImportPath]protogen.GoPackageName{}
	for _, f := range r.plugin.Files {
		pkgs[f.GoImportPath] = f.GoPackageName
	}
	for _, ft := range g.files {
		for _, ts := range ft.toolsets {
			at := optionPath(oneofProto, optionsv1.E_Toolset, "name")
			tsWhat := "toolset " + quoted(ts.name) + " (" + ft.file.Desc.Path() + ")"
			what := tsWhat
			for _, name := range []string{tableVar(ts.name), unwrapFunc(ts.name), selectorDecodeFunc(ts.name), selectorFunc(ts.name), noTextsFunc(ts.name)} {
				tools.declare(name, what, ts.oneof.Desc, at)
			}
			for _, name := range []string{handlerIface(ts.name), unimplementedType(ts.name), serverTableVar(ts.name), splitFunc(ts.name), errorFunc(ts.name)} {
				handlers.declare(name, what, ts.oneof.Desc, at)
			}
			if code := errorCodeEnum(ts); code != nil {
				handlers.declare(enumNamesVar(local, code.GoIdent, pkgs[code.GoIdent.GoImportPath]), "enum "+string(code.Desc.FullName()), ts.errorArm.Desc, nil)
			}
			for _, t := range ts.tools {
				what := "tool " + quoted(t.name) + " of toolset " + quoted(ts.name)
				at := toolPath("name")
				for _, name := range []string{toolVar(t.name), decodeFunc(t.name), buildFunc(t.name), textsFunc(t.name)} {
					tools.declare(name, what, t.arm.Desc, at)
				}
				for _, name := range []string{armVar(t.name), serveFunc(t.name), scopeFunc(t.name), textsFunc(t.name), serverPaths.funcName(t.name), serverRefs.funcName(t.name)} {
					handlers.declare(name, what, t.arm.Desc, at)
				}
				if toolsetNameShape.MatchString(t.capability) { // else refused already
					handlers.declare(capabilityIface(ts.name, t.capability), "capability "+quoted(t.capability), t.arm.Desc, toolPath("capability"))
				}
				if t.resultArm != nil {
					handlers.declare(wrapFunc(ts.name, string(t.resultArm.Desc.Name())), tsWhat, t.arm.Desc, toolPath("result"))
				}
				eachParam(t.obj, map[*object]bool{}, func(p *param) {
					if p.field.Enum != nil {
						name := enumNamesVar(local, p.field.Enum.GoIdent, pkgs[p.field.Enum.GoIdent.GoImportPath])
						what := "enum " + string(p.field.Enum.Desc.FullName())
						tools.declare(name, what, p.field.Desc, nil)
						handlers.declare(name, what, p.field.Desc, nil)
					}
					if p.obj == nil {
						return
					}
					id := p.obj.msg.GoIdent
					what := "message " + string(p.obj.msg.Desc.FullName())
					tools.declare(messageDecodeFunc(local, id, pkgs[id.GoImportPath]), what, p.field.Desc, nil)
					name := messageTextsFunc(local, id, pkgs[id.GoImportPath])
					tools.declare(name, what, p.field.Desc, nil)
					handlers.declare(name, what, p.field.Desc, nil)
					for _, side := range checkedSides {
						handlers.declare(side.messageFunc(local, id, pkgs[id.GoImportPath]), what, p.field.Desc, nil)
					}
				})
			}
		}
	}
}

// toolsetsOf reports the annotated oneofs of a file without reading them
// (for files of the same package that this run does not generate).
func (r *reader) toolsetsOf(f *protogen.File) []*protogen.Oneof {
	var out []*protogen.Oneof
	var walk func([]*protogen.Message)
	walk = func(msgs []*protogen.Message) {
		for _, m := range msgs {
			for _, o := range m.Oneofs {
				if proto.HasExtension(o.Desc.Options(), optionsv1.E_Toolset) {
					out = append(out, o)
				}
			}
			walk(m.Messages)
		}
	}
	walk(f.Messages)
	return out
}

// errorCodeEnum is the enum of the error arm's code when the server side
// converts the contract's codes to it by model name; nil otherwise.
func errorCodeEnum(ts *toolset) *protogen.Enum {
	if ts.errorArm == nil || ts.errorArm.Message == nil || ts.errorArm.Message.Desc.FullName() == callErrorName {
		return nil
	}
	for _, f := range ts.errorArm.Message.Fields {
		if f.Desc.Name() == "code" && f.Enum != nil {
			return f.Enum
		}
	}
	return nil
}
