package generator

import (
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/bufbuild/protocompile"
	"google.golang.org/protobuf/compiler/protogen"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/pluginpb"

	// Registered in protoregistry.GlobalFiles: the imports of every case
	// resolve from the descriptors compiled into these packages, so no proto
	// file is copied into testdata.
	_ "buf.build/gen/go/bufbuild/protovalidate/protocolbuffers/go/buf/validate"
	_ "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	_ "github.com/forgetools/forgetools/gen/forgetools/options/v1"
)

// A case compiles testdata/<case>/*.proto in-process, runs the generator
// as the plugin would run it, and compares every output file with
// testdata/<case>/<file name>.golden. UPDATE_GOLDEN=1 rewrites them. The
// cases are small and focused; the real tables' output under gen/ is
// checked by make check-generated, not duplicated here.

// sources maps import paths to where a case's proto files come from.
type sources map[string]source

type source struct {
	disk     string // path on disk, or
	text     string // the file itself
	generate bool   // in FileToGenerate
}

// goldenCases are the directories of testdata holding proto files, each
// file generated.
func goldenCases(t *testing.T) map[string]sources {
	t.Helper()
	cases := map[string]sources{}
	dirs, err := os.ReadDir("testdata")
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range dirs {
		protos, _ := filepath.Glob(filepath.Join("testdata", d.Name(), "*.proto"))
		if !d.IsDir() || len(protos) == 0 {
			continue
		}
		src := sources{}
		for _, p := range protos {
			src[filepath.Base(p)] = source{disk: p, generate: true}
		}
		cases[d.Name()] = src
	}
	// The probe table (every field kind and rule) lives with the tests
	// that run it; its output is pinned here too.
	cases["probe"] = sources{"forgetools/probe/v1/probe.proto": {disk: "../../../../tests/probe/proto/forgetools/probe/v1/probe.proto", generate: true}}
	return cases
}

func TestGolden(t *testing.T) {
	for name, src := range goldenCases(t) {
		t.Run(name, func(t *testing.T) {
			resp := generate(t, src)
			if resp.GetError() != "" {
				t.Fatalf("generator refused the table:\n%s", resp.GetError())
			}
			dir := filepath.Join("testdata", name)
			want := map[string]bool{}
			for _, f := range resp.GetFile() {
				golden := filepath.Join(dir, filepath.Base(f.GetName())+".golden")
				want[golden] = true
				checkGolden(t, golden, f.GetContent())
			}
			checkSimplified(t, resp.GetFile())
			stale, _ := filepath.Glob(filepath.Join(dir, "*.golden"))
			for _, g := range stale {
				if !want[g] {
					t.Errorf("%s: no generated file matches this golden file", g)
				}
			}
		})
	}
}

func checkGolden(t *testing.T, path, got string) {
	t.Helper()
	if os.Getenv("UPDATE_GOLDEN") == "1" {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (UPDATE_GOLDEN=1 writes it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from the generated output (UPDATE_GOLDEN=1 rewrites it):\n%s", path, diff(string(want), got))
	}
}

// checkSimplified runs gofmt -s -l on the generated files: what the
// generator writes is what gofmt -s would leave (no []T{T{...}}).
func checkSimplified(t *testing.T, files []*pluginpb.CodeGeneratorResponse_File) {
	t.Helper()
	gofmt, err := exec.LookPath(filepath.Join(runtime.GOROOT(), "bin", "gofmt"))
	if err != nil {
		if gofmt, err = exec.LookPath("gofmt"); err != nil {
			t.Fatalf("gofmt is needed to check the generated code: %v", err)
		}
	}
	dir := t.TempDir()
	var paths []string
	for i, f := range files {
		path := filepath.Join(dir, strconv.Itoa(i)+"_"+filepath.Base(f.GetName()))
		if err := os.WriteFile(path, []byte(f.GetContent()), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, path)
	}
	out, err := exec.Command(gofmt, append([]string{"-s", "-l"}, paths...)...).CombinedOutput()
	if err != nil || len(out) != 0 {
		t.Errorf("gofmt -s would change generated files (%v):\n%s", err, out)
	}
}

// diff shows the first differing lines, enough to see what changed.
func diff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(w) || i < len(g); i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			return "line " + strconv.Itoa(i+1) + ":\n  want: " + wl + "\n  got:  " + gl
		}
	}
	return "(same lines; different line endings?)"
}

// generate compiles src and runs the generator on it exactly as protoc or
// buf would.
func generate(t *testing.T, src sources) *pluginpb.CodeGeneratorResponse {
	t.Helper()
	plugin := newPlugin(t, src, "paths=source_relative")
	if err := Generate(plugin, Options{}); err != nil {
		plugin.Error(err)
	}
	return plugin.Response()
}

// newPlugin compiles src into a plugin run with the given parameter,
// through a serialized CodeGeneratorRequest, so the custom options are
// parsed the way the plugin parses them.
func newPlugin(t *testing.T, src sources, param string) *protogen.Plugin {
	t.Helper()
	req := request(t, src)
	req.Parameter = proto.String(param)
	data, err := proto.Marshal(req)
	if err != nil {
		t.Fatal(err)
	}
	req = &pluginpb.CodeGeneratorRequest{}
	if err := proto.Unmarshal(data, req); err != nil {
		t.Fatal(err)
	}
	plugin, err := protogen.Options{}.New(req)
	if err != nil {
		t.Fatal(err)
	}
	return plugin
}

func request(t *testing.T, src sources) *pluginpb.CodeGeneratorRequest {
	t.Helper()
	var toGenerate []string
	for path, s := range src {
		if s.generate {
			toGenerate = append(toGenerate, path)
		}
	}
	sort.Strings(toGenerate)
	compiler := protocompile.Compiler{
		Resolver: protocompile.CompositeResolver{
			&protocompile.SourceResolver{Accessor: func(path string) (io.ReadCloser, error) {
				s, ok := src[path]
				switch {
				case !ok:
					return nil, os.ErrNotExist
				case s.disk != "":
					return os.Open(s.disk)
				}
				return io.NopCloser(strings.NewReader(s.text)), nil
			}},
			protocompile.ResolverFunc(func(path string) (protocompile.SearchResult, error) {
				fd, err := protoregistry.GlobalFiles.FindFileByPath(path)
				if err != nil {
					return protocompile.SearchResult{}, err
				}
				return protocompile.SearchResult{Desc: fd}, nil
			}),
		},
		SourceInfoMode: protocompile.SourceInfoExtraOptionLocations, // as buf compiles: option fields have lines
	}
	files, err := compiler.Compile(context.Background(), toGenerate...)
	if err != nil {
		t.Fatalf("compiling %v: %v", toGenerate, err)
	}
	req := &pluginpb.CodeGeneratorRequest{FileToGenerate: toGenerate}
	seen := map[string]bool{}
	var add func(fd protoreflect.FileDescriptor)
	add = func(fd protoreflect.FileDescriptor) { // dependencies first, as protoc orders them
		if seen[fd.Path()] {
			return
		}
		seen[fd.Path()] = true
		for i := 0; i < fd.Imports().Len(); i++ {
			add(fd.Imports().Get(i).FileDescriptor)
		}
		req.ProtoFile = append(req.ProtoFile, protodesc.ToFileDescriptorProto(fd))
	}
	for _, fd := range files {
		add(fd)
	}
	return req
}
