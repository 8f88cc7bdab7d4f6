package generator

import (
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	gengo "google.golang.org/protobuf/cmd/protoc-gen-go/internal_gengo"
	"google.golang.org/protobuf/compiler/protogen"
	"google.golang.org/protobuf/types/pluginpb"
)

// Compile what you emit: every golden case is generated again, with its
// messages (protoc-gen-go, in-process) and both generated packages, into a
// temporary directory inside this module, and `go vet` type-checks and
// vets the lot. The golden files pin what the output says; this pins that
// it builds, which a plugin exiting 0 does not prove.
func TestGoldenPackagesCompile(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles generated packages with the go command; not in -short")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command is needed to compile the generated packages: %v", err)
	}
	self, err := exec.Command(goTool, "list", "-f", "{{.ImportPath}}", ".").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	// A leading underscore keeps the directory out of ./... patterns, so a
	// concurrent `go vet ./...` never sees it half written.
	dir, err := os.MkdirTemp(".", "_compile")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	base := path.Join(strings.TrimSpace(string(self)), filepath.Base(dir))

	var pkgs, checks []string
	imports := map[string]string{}
	importAs := func(pkg string) string {
		if imports[pkg] == "" {
			imports[pkg] = fmt.Sprintf("p%d", len(imports))
		}
		return imports[pkg]
	}
	for name, src := range goldenCases(t) {
		var params []string
		for file := range src {
			params = append(params, "M"+file+"="+path.Join(base, name, path.Dir(file)))
		}
		slices.Sort(params)
		param := "paths=source_relative," + strings.Join(params, ",")
		files := append(generateWith(t, src, param, messages), generateWith(t, src, param, tables)...)
		for _, f := range files {
			out := filepath.Join(dir, name, filepath.FromSlash(f.GetName()))
			if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(out, []byte(f.GetContent()), 0o644); err != nil {
				t.Fatal(err)
			}
			if pkg := "./" + filepath.ToSlash(filepath.Dir(out)); !slices.Contains(pkgs, pkg) {
				pkgs = append(pkgs, pkg)
			}
		}
		checks = append(checks, schemaChecks(t, name, src, files, base, importAs)...)
	}
	check := filepath.Join(dir, "schemacheck", "main.go")
	if err := os.MkdirAll(filepath.Dir(check), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(check, []byte(schemaCheckProgram(imports, checks)), 0o644); err != nil {
		t.Fatal(err)
	}
	pkgs = append(pkgs, "./"+filepath.ToSlash(filepath.Dir(check)))
	slices.Sort(pkgs)
	cmd := exec.Command(goTool, append([]string{"vet"}, pkgs...)...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("the generated packages do not compile (or vet):\n%s", out)
	}
	t.Logf("compiled and vetted %d generated packages", len(pkgs))
	// The typed schema values say what the generator computed.
	if out, err := exec.Command(goTool, "run", "./"+filepath.ToSlash(filepath.Dir(check))).CombinedOutput(); err != nil {
		t.Fatalf("the emitted schema values differ from the generator's schemas:\n%s", out)
	}
	t.Logf("%d tools' emitted schema values marshal as the generator's schemas", len(checks))
}

// messages runs protoc-gen-go's generator, as buf would beside ours.
func messages(plugin *protogen.Plugin) error {
	plugin.SupportedFeatures = gengo.SupportedFeatures
	for _, f := range plugin.Files {
		if f.Generate {
			gengo.GenerateFile(plugin, f)
		}
	}
	return nil
}

func tables(plugin *protogen.Plugin) error { return Generate(plugin, Options{}) }

// generateWith runs one plugin on src with the given parameter and returns
// its files, failing on a refusal.
func generateWith(t *testing.T, src sources, param string, run func(*protogen.Plugin) error) []*pluginpb.CodeGeneratorResponse_File {
	t.Helper()
	plugin := newPlugin(t, src, param)
	if err := run(plugin); err != nil {
		t.Fatalf("generating: %v", err)
	}
	resp := plugin.Response()
	if resp.GetError() != "" {
		t.Fatalf("generating: %s", resp.GetError())
	}
	return resp.GetFile()
}
