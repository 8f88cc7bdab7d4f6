package generator

import (
	"github.com/dave/jennifer/jen"
	"google.golang.org/protobuf/compiler/protogen"
	"google.golang.org/protobuf/reflect/protoreflect"

	optionsv1 "github.com/forgetools/forgetools/gen/forgetools/options/v1"
)

// textSide is one side's view of the text fields of a request: the agent
// side hands every agent_text field to the TextPolicy, addressed by
// parameter path; the server side hands the fields with an attribution
// policy to the gateway, addressed by proto field path. Both walk requests
// the same way, so one emitter writes both walkers.
type textSide struct {
	support string // package of the Text type
	typ     string // the type's name there: Text (or RepoPath, GitRef)
	prefix  string // the walkers' names start with it: texts (or paths, refs)
	// armField is the toolserver.Arm field holding the tool's walker, for
	// the sides whose fields the gateway checks (Paths, Refs); "" for the
	// text sides, wired by hand.
	armField string
	pathKey  string // the Text field holding the path
	want     func(p *param) bool
	name     func(p *param) string
	extra    func(p *param) []jen.Code // further fields of each Text
}

var agentTexts = &textSide{
	support: runtimePkg,
	typ:     "Text",
	prefix:  "texts",
	pathKey: "Param",
	want:    func(p *param) bool { return p.agentText && !p.hidden },
	name:    func(p *param) string { return p.name },
}

var serverTexts = &textSide{
	support: toolserverPkg,
	typ:     "Text",
	prefix:  "texts",
	pathKey: "Path",
	want:    func(p *param) bool { return p.attribution != optionsv1.Attribution_ATTRIBUTION_UNSPECIFIED },
	name:    func(p *param) string { return string(p.field.Desc.Name()) },
	extra: func(p *param) []jen.Code {
		mode := "Stamp"
		if p.attribution == optionsv1.Attribution_ATTRIBUTION_STRIP {
			mode = "Strip"
		}
		return []jen.Code{field("Attribution", jen.Qual(toolserverPkg, mode))}
	},
}

// serverPaths hands the gateway the fields marked (param).repo_path, so
// it checks every repository path with git's rules whatever the arm.
var serverPaths = &textSide{
	support:  toolserverPkg,
	typ:      "RepoPath",
	prefix:   "paths",
	pathKey:  "Path",
	armField: "Paths",
	want:     func(p *param) bool { return p.repoPath },
	name:     func(p *param) string { return string(p.field.Desc.Name()) },
}

// serverRefs hands the gateway the fields marked (param).git_ref, so it
// checks every branch, tag and commit name with git's rules whatever the
// arm.
var serverRefs = &textSide{
	support:  toolserverPkg,
	typ:      "GitRef",
	prefix:   "refs",
	pathKey:  "Path",
	armField: "Refs",
	want:     func(p *param) bool { return p.gitRef },
	name:     func(p *param) string { return string(p.field.Desc.Name()) },
}

// checkedSides are the sides whose fields the gateway checks before any
// provider runs, each wired into the arm as its armField.
var checkedSides = []*textSide{serverPaths, serverRefs}

// funcName names side's walker of a tool's request.
func (side *textSide) funcName(tool string) string {
	return side.prefix + camel(tool)
}

// messageFunc names side's walker of a nested message.
func (side *textSide) messageFunc(local protogen.GoImportPath, id protogen.GoIdent, pkg protogen.GoPackageName) string {
	return side.prefix + upperFirst(qualified(local, id, pkg))
}

// hasText reports whether obj holds text the side wants, directly or in a
// nested message (a map's values included).
func hasText(obj *object, side *textSide) bool {
	for _, p := range obj.params {
		if side.want(p) || nestedText(p, side) != nil {
			return true
		}
	}
	return false
}

// nestedText is the object under p (its message, or its map's values)
// when that holds text the side wants.
func nestedText(p *param, side *textSide) *object {
	switch {
	case p.obj != nil && hasText(p.obj, side):
		return p.obj
	case p.val != nil && p.val.obj != nil && hasText(p.val.obj, side):
		return p.val.obj
	}
	return nil
}

func (side *textSide) text(p *param, path, value jen.Code) jen.Code {
	return jen.Qual(side.support, side.typ).Add(side.fields(p, path, value))
}

// fields is the braced field list of a Text, bare as an element of a
// []Text literal (where gofmt -s elides the type).
func (side *textSide) fields(p *param, path, value jen.Code) *jen.Statement {
	items := []jen.Code{field(side.pathKey, path), field("Value", value)}
	if side.extra != nil {
		items = append(items, side.extra(p)...)
	}
	return jen.Values(items...)
}

// texts emits a tool's text walker for side: the wanted fields of its
// request.
func (e *emitter) texts(t *tool, side *textSide) {
	body := []jen.Code{jen.Id("req").Op(":=").Id("m").Assert(jen.Op("*").Add(e.ident(t.obj.msg.GoIdent)))}
	if plain := plainTexts(t.obj, side); plain != nil {
		// Only top-level strings: the list is a constant shape.
		items := make([]jen.Code, len(plain))
		for i, p := range plain {
			items[i] = side.fields(p, jen.Lit(side.name(p)), jen.Op("&").Id("req").Dot(p.field.GoName))
		}
		body = append(body, jen.Return(jen.Index().Qual(side.support, side.typ).Add(lines(items...))))
	} else {
		body = append(body, jen.Var().Id("texts").Index().Qual(side.support, side.typ))
		body = append(body, e.walk(t.obj, jen.Id("req"), "", side)...)
		body = append(body, jen.Return(jen.Id("texts")))
	}
	what := "the agent-authored text"
	switch side {
	case serverTexts:
		what = "the text the gateway stamps or strips"
	case serverPaths:
		what = "the repository paths the gateway checks"
	case serverRefs:
		what = "the git refs the gateway checks"
	}
	e.doc(side.funcName(t.name) + " returns " + what + " of a " + t.name + " request.")
	e.f.Func().Id(side.funcName(t.name)).Params(jen.Id("m").Qual(protoPkg, "Message")).Index().Qual(side.support, side.typ).Block(body...)
}

// plainTexts returns the wanted fields of obj when all of them are plain
// singular strings of obj itself; nil otherwise.
func plainTexts(obj *object, side *textSide) []*param {
	var out []*param
	for _, p := range obj.params {
		switch {
		case nestedText(p, side) != nil:
			return nil
		case !side.want(p):
		case p.field.Desc.IsList() || p.field.Desc.HasPresence() || p.wkt != wkNone:
			return nil
		default:
			out = append(out, p)
		}
	}
	return out
}

// messageWalkers emits the walkers of the nested messages the tools'
// walkers queued (walkers may queue more).
func (e *emitter) messageWalkers(side *textSide) {
	for i := 0; i < len(e.h.walkers[side]); i++ {
		obj := e.h.walkers[side][i]
		name := e.messageFunc(obj, side.messageFunc)
		body := append(e.walk(obj, jen.Id("m"), "prefix", side), jen.Return(jen.Id("texts")))
		noun := "text"
		switch side {
		case serverPaths:
			noun = "repository path"
		case serverRefs:
			noun = "git ref"
		}
		e.doc(name + " appends the " + noun + " fields of a " + string(obj.msg.Desc.Name()) + ", their paths prefixed.")
		e.f.Func().Id(name).Params(
			jen.Id("texts").Index().Qual(side.support, side.typ), jen.Id("prefix").String(), jen.Id("m").Op("*").Add(e.ident(obj.msg.GoIdent)),
		).Index().Qual(side.support, side.typ).Block(body...)
	}
}

// walk appends the wanted fields of obj (reached through recv) to texts.
// prefix names the string variable holding the path prefix; "" at the top
// level, where the paths are constants.
func (e *emitter) walk(obj *object, recv *jen.Statement, prefix string, side *textSide) []jen.Code {
	path := func(name string) jen.Code {
		if prefix == "" {
			return jen.Lit(name)
		}
		return jen.Id(prefix).Op("+").Lit(name)
	}
	indexed := func(format, index string) jen.Code {
		if prefix == "" {
			return jen.Qual("fmt", "Sprintf").Call(jen.Lit(format), jen.Id(index))
		}
		return jen.Qual("fmt", "Sprintf").Call(jen.Lit("%s"+format), jen.Id(prefix), jen.Id(index))
	}
	appendText := func(p *param, path, value jen.Code) jen.Code {
		return jen.Id("texts").Op("=").Append(jen.Id("texts"), side.text(p, path, value))
	}
	var out []jen.Code
	for _, p := range obj.params {
		fieldOf := recv.Clone().Dot(p.field.GoName)
		var guard jen.Code // a oneof member is reached through its wrapper
		if p.oneof != nil {
			fieldOf = jen.Id("v").Dot(p.field.GoName)
			guard = jen.List(jen.Id("v"), jen.Id("ok")).Op(":=").Add(recv.Clone().Dot(p.oneof.GoName)).Assert(jen.Op("*").Add(e.ident(p.field.GoIdent))).Op(";").Id("ok")
		}
		name := side.name(p)
		var code jen.Code
		nested := nestedText(p, side)
		switch {
		case nested != nil:
			e.queueWalker(nested, side)
			walker := jen.Id(e.messageFunc(nested, side.messageFunc))
			switch {
			case p.field.Desc.IsMap():
				key := "[%v]."
				if p.key.field.Desc.Kind() == protoreflect.StringKind {
					key = "[%q]."
				}
				code = jen.For(jen.List(jen.Id("_"), jen.Id("k")).Op(":=").Range().Qual("slices", "Sorted").Call(jen.Qual("maps", "Keys").Call(fieldOf))).Block(
					jen.Id("texts").Op("=").Add(walker).Call(jen.Id("texts"), indexed(name+key, "k"), fieldOf.Clone().Index(jen.Id("k"))))
			case p.field.Desc.IsList():
				code = jen.For(jen.List(jen.Id("i"), jen.Id("item")).Op(":=").Range().Add(fieldOf)).Block(
					jen.Id("texts").Op("=").Add(walker).Call(jen.Id("texts"), indexed(name+"[%d].", "i"), jen.Id("item")))
			default:
				code = jen.If(fieldOf.Clone().Op("!=").Nil()).Block(
					jen.Id("texts").Op("=").Add(walker).Call(jen.Id("texts"), path(name+"."), fieldOf))
			}
		case !side.want(p):
			continue
		case p.field.Desc.IsList():
			code = jen.For(jen.Id("i").Op(":=").Range().Add(fieldOf)).Block(
				appendText(p, indexed(name+"[%d]", "i"), jen.Op("&").Add(fieldOf.Clone()).Index(jen.Id("i"))))
		case p.wkt == wkWrapper:
			code = jen.If(fieldOf.Clone().Op("!=").Nil()).Block(appendText(p, path(name), jen.Op("&").Add(fieldOf.Clone()).Dot("Value")))
		case isOptionalScalar(p.field):
			code = jen.If(fieldOf.Clone().Op("!=").Nil()).Block(appendText(p, path(name), fieldOf))
		default:
			code = appendText(p, path(name), jen.Op("&").Add(fieldOf))
		}
		if guard != nil {
			code = jen.If(guard).Block(code)
		}
		out = append(out, code)
	}
	return out
}

func (e *emitter) queueWalker(obj *object, side *textSide) {
	key := side.support + " " + side.prefix + " " + string(obj.msg.Desc.FullName())
	if !e.h.queued[key] {
		e.h.queued[key] = true
		e.h.walkers[side] = append(e.h.walkers[side], obj)
	}
}
