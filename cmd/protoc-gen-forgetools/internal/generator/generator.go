// Package generator is protoc-gen-forgetools: it reads the forgetools
// options and buf.validate rules of each dispatch oneof annotated with
// (forgetools.options.v1.toolset) and emits two Go packages next to the
// protoc-gen-go output, as protoc-gen-connect-go emits <pkg>connect:
//
//   - <pkg>tools, the agent side: a runtime.Table with one runtime.Tool per
//     arm (schema, strict decoder, envelope builder, result unwrap);
//   - <pkg>handler, the server side: a handler interface per capability,
//     an embeddable unimplemented handler, and a toolserver.Table whose arms
//     carry the gateway policy and the typed dispatch to a provider.
//
// The server side never imports the agent runtime.
//
// The pipeline is read (table.go, params.go, result.go: options -> checked
// model), derive (schema.go: fields and rules -> JSON Schema) and emit
// (emit*.go: model -> Go with jennifer). A bad table is refused with one
// "file:line: message" per problem.
package generator

import (
	"bytes"
	"fmt"
	"path"
	"regexp"

	"github.com/dave/jennifer/jen"
	"google.golang.org/protobuf/compiler/protogen"
	"google.golang.org/protobuf/types/pluginpb"
)

// Version is the generator's version, printed by --version.
const Version = "0.2.0"

// Options are the plugin's own parameters (besides protogen's standard
// ones such as paths= and module=).
type Options struct {
	// ToolsSuffix names the agent-side package: <go package name><suffix>,
	// in a directory of that name under the message package. Default
	// "tools".
	ToolsSuffix string
	// HandlerSuffix names the server-side package likewise. Default
	// "handler".
	HandlerSuffix string
}

var suffixShape = regexp.MustCompile(`^[a-z][a-z0-9]*$`)

func (o Options) withDefaults() (Options, error) {
	if o.ToolsSuffix == "" {
		o.ToolsSuffix = "tools"
	}
	if o.HandlerSuffix == "" {
		o.HandlerSuffix = "handler"
	}
	for _, s := range []string{o.ToolsSuffix, o.HandlerSuffix} {
		if !suffixShape.MatchString(s) {
			return o, fmt.Errorf("package suffix %q must be lower-case letters and digits", s)
		}
	}
	if o.ToolsSuffix == o.HandlerSuffix {
		return o, fmt.Errorf("tools_package_suffix and handler_package_suffix are both %q", o.ToolsSuffix)
	}
	return o, nil
}

// Generate emits the tools and handler packages for every file to
// generate that holds an annotated dispatch oneof. It emits nothing when
// any table is refused.
//
// The files of one Go package are emitted together: helpers several of
// their tools share (enum name tables, decoders and text walkers of nested
// messages) are declared once per package, in the package's first file,
// and every name the package declares is checked for collisions first.
// So all annotated files of a Go package must be generated in one run, as
// buf does by default (one run per directory).
func Generate(plugin *protogen.Plugin, opts Options) error {
	plugin.SupportedFeatures = uint64(pluginpb.CodeGeneratorResponse_FEATURE_PROTO3_OPTIONAL)
	opts, err := opts.withDefaults()
	if err != nil {
		return err
	}
	r, err := newReader(plugin)
	if err != nil {
		return err
	}
	var groups []*group
	byPath := map[protogen.GoImportPath]*group{}
	for _, f := range plugin.Files {
		if !f.Generate {
			continue
		}
		ts := r.toolsets(f)
		if len(ts) == 0 {
			continue
		}
		g := byPath[f.GoImportPath]
		if g == nil {
			g = &group{path: f.GoImportPath}
			byPath[f.GoImportPath] = g
			groups = append(groups, g)
		}
		g.files = append(g.files, fileTables{f, ts})
	}
	for _, g := range groups {
		r.checkGroup(g)
	}
	if err := r.problems.err(); err != nil {
		return err
	}
	for _, g := range groups {
		tools := subPackage(g.files[0].file, opts.ToolsSuffix)
		handlers := subPackage(g.files[0].file, opts.HandlerSuffix)
		if err := writeGroup(plugin, g, tools, ".tools.go", emitTools); err != nil {
			return err
		}
		if err := writeGroup(plugin, g, handlers, ".handler.go", emitHandler); err != nil {
			return err
		}
	}
	return nil
}

// group is the annotated files of one Go package, in the order the
// compiler gave them.
type group struct {
	path  protogen.GoImportPath
	files []fileTables
}

type fileTables struct {
	file     *protogen.File
	toolsets []*toolset
}

// writeGroup emits one side of a package: a file per proto file, the
// shared helpers in the first.
func writeGroup(plugin *protogen.Plugin, g *group, out pkg, ext string, emit func(*protogen.Plugin, *protogen.File, pkg, []*toolset, *helpers) *jen.File) error {
	shared := newHelpers()
	codes := make([]*jen.File, len(g.files))
	for i, ft := range g.files {
		codes[i] = emit(plugin, ft.file, out, ft.toolsets, shared)
	}
	shared.emit()
	for i, ft := range g.files {
		if err := write(plugin, out, ft.file, ext, codes[i]); err != nil {
			return err
		}
	}
	return nil
}

// pkg is a generated Go package: its import path and name.
type pkg struct {
	path protogen.GoImportPath
	name protogen.GoPackageName
}

// subPackage is the package <name><suffix> in the directory of that name
// under the message package, as protoc-gen-connect-go places <pkg>connect.
func subPackage(f *protogen.File, suffix string) pkg {
	name := protogen.GoPackageName(string(f.GoPackageName) + suffix)
	return pkg{path: protogen.GoImportPath(path.Join(string(f.GoImportPath), string(name))), name: name}
}

func write(plugin *protogen.Plugin, p pkg, f *protogen.File, ext string, code *jen.File) error {
	var b bytes.Buffer
	if err := code.Render(&b); err != nil {
		return err
	}
	dir, base := path.Split(f.GeneratedFilenamePrefix)
	g := plugin.NewGeneratedFile(path.Join(dir, string(p.name), base)+ext, p.path)
	_, err := g.Write(b.Bytes())
	return err
}
