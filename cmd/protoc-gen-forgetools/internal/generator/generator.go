// Package generator is protoc-gen-forgetools: it reads the forgetools
// options and buf.validate rules of each dispatch oneof annotated with
// (forgetools.options.v1.toolset) and emits two Go packages next to the
// protoc-gen-go output, as protoc-gen-connect-go emits <pkg>connect:
//
//   - <pkg>tools, the agent side: a runtime.Table with one runtime.Tool per
//     arm (schema, strict decoder, envelope builder, result unwrap);
//   - <pkg>handler, the server side: a handler interface per capability,
//     an embeddable unimplemented handler, and a handler.Table whose arms
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
	type output struct {
		file     *protogen.File
		toolsets []*toolset
	}
	var outputs []output
	for _, f := range plugin.Files {
		if !f.Generate {
			continue
		}
		if ts := r.toolsets(f); len(ts) > 0 {
			outputs = append(outputs, output{f, ts})
		}
	}
	if err := r.problems.err(); err != nil {
		return err
	}
	for _, out := range outputs {
		tools := subPackage(out.file, opts.ToolsSuffix)
		if err := write(plugin, tools, out.file, ".tools.go", emitTools(plugin, out.file, tools, out.toolsets)); err != nil {
			return err
		}
		handlers := subPackage(out.file, opts.HandlerSuffix)
		if err := write(plugin, handlers, out.file, ".handler.go", emitHandler(plugin, out.file, handlers, out.toolsets)); err != nil {
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
