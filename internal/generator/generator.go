// Package generator is protoc-gen-forgetools: it reads the forgetools
// options and buf.validate rules of each dispatch oneof annotated with
// (forgetools.options.v1.toolset) and emits, next to the protoc-gen-go
// output, a runtime.Table with one runtime.Tool per arm.
//
// The pipeline is read (table.go, params.go: options -> checked model),
// derive (schema.go: fields and rules -> JSON Schema) and emit (emit*.go:
// model -> Go with jennifer). A bad table is refused with one
// "file:line: message" per problem.
package generator

import (
	"bytes"

	"google.golang.org/protobuf/compiler/protogen"
	"google.golang.org/protobuf/types/pluginpb"
)

// Version is the generator's version, printed by --version.
const Version = "0.1.0"

// Generate emits <name>.tools.go for every file to generate that holds an
// annotated dispatch oneof. It emits nothing when any table is refused.
func Generate(plugin *protogen.Plugin) error {
	plugin.SupportedFeatures = uint64(pluginpb.CodeGeneratorResponse_FEATURE_PROTO3_OPTIONAL)
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
		var b bytes.Buffer
		if err := emitFile(plugin, out.file, out.toolsets).Render(&b); err != nil {
			return err
		}
		g := plugin.NewGeneratedFile(out.file.GeneratedFilenamePrefix+".tools.go", out.file.GoImportPath)
		if _, err := g.Write(b.Bytes()); err != nil {
			return err
		}
	}
	return nil
}
