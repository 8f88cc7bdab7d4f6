package generator

import (
	"fmt"
	"path"
	"strconv"
	"strings"
	"testing"

	"google.golang.org/protobuf/types/pluginpb"
)

// schemaChecks are, for one golden case, Go lines that compare each
// generated tool's InputSchema value, marshalled, with the schema value
// the generator computed, marshalled: the Go code the generator writes
// must rebuild the value it computed, byte for byte. importAs names
// the tools packages' imports in the check program.
func schemaChecks(t *testing.T, name string, src sources, files []*pluginpb.CodeGeneratorResponse_File, base string, importAs func(pkg string) string) []string {
	t.Helper()
	plugin := newPlugin(t, src, "paths=source_relative")
	r, err := newReader(plugin)
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, f := range plugin.Files {
		if !f.Generate {
			continue
		}
		stem := strings.TrimSuffix(path.Base(f.Desc.Path()), ".proto")
		var pkg string
		for _, g := range files {
			if path.Base(g.GetName()) == stem+".tools.go" {
				pkg = path.Join(base, name, path.Dir(g.GetName()))
			}
		}
		for _, ts := range r.toolsets(f) {
			if pkg == "" {
				t.Fatalf("%s: no tools file generated for %s", name, f.Desc.Path())
			}
			for _, tool := range ts.tools {
				want := tool.schema.String()
				v := importAs(pkg) + "." + toolVar(tool.name)
				lines = append(lines, fmt.Sprintf("\t{%q, %s.InputSchema().String(), %s},", name+": "+tool.name, v, strconv.Quote(want)))
			}
		}
	}
	return lines
}

// schemaCheckProgram is the main package that runs the checks.
func schemaCheckProgram(imports map[string]string, checks []string) string {
	var b strings.Builder
	b.WriteString("package main\n\nimport (\n\t\"fmt\"\n\t\"os\"\n")
	for pkg, as := range imports {
		fmt.Fprintf(&b, "\t%s %q\n", as, pkg)
	}
	b.WriteString(")\n\nfunc main() {\n\tbad := false\n\tfor _, c := range []struct{ tool, got, want string }{\n")
	b.WriteString(strings.Join(checks, "\n"))
	b.WriteString("\n\t} {\n\t\tif c.got != c.want {\n\t\t\tfmt.Printf(\"%s: the emitted value marshals to\\n%s\\nthe generator's schema to\\n%s\\n\", c.tool, c.got, c.want)\n\t\t\tbad = true\n\t\t}\n\t}\n\tif bad {\n\t\tos.Exit(1)\n\t}\n}\n")
	return b.String()
}
