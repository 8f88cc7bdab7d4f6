package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/descriptorpb"
	"google.golang.org/protobuf/types/pluginpb"

	"github.com/forgetools/forgetools/cmd/protoc-gen-forgetools/internal/generator"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	optionsv1 "github.com/forgetools/forgetools/gen/forgetools/options/v1"
)

func TestVersion(t *testing.T) {
	var out, errs bytes.Buffer
	if code := cli([]string{"--version"}, nil, &out, &errs); code != 0 {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	if want := "protoc-gen-forgetools " + generator.Version + "\n"; out.String() != want {
		t.Fatalf("--version printed %q, want %q", out.String(), want)
	}
	if code := cli([]string{"--help"}, nil, &out, &errs); code != 2 || !strings.Contains(errs.String(), "protoc plugin") {
		t.Fatalf("an unknown flag: exit %d, stderr %q", code, errs.String())
	}
}

// request asks for the given file with its dependencies, dependencies
// first, the way protoc sends them.
func request(param string, files ...protoreflect.FileDescriptor) *pluginpb.CodeGeneratorRequest {
	req := &pluginpb.CodeGeneratorRequest{Parameter: proto.String(param)}
	seen := map[string]bool{}
	var add func(fd protoreflect.FileDescriptor)
	add = func(fd protoreflect.FileDescriptor) {
		if seen[fd.Path()] {
			return
		}
		seen[fd.Path()] = true
		for i := range fd.Imports().Len() {
			add(fd.Imports().Get(i).FileDescriptor)
		}
		req.ProtoFile = append(req.ProtoFile, protodesc.ToFileDescriptorProto(fd))
	}
	for _, fd := range files {
		add(fd)
		req.FileToGenerate = append(req.FileToGenerate, fd.Path())
	}
	return req
}

func invoke(t *testing.T, req *pluginpb.CodeGeneratorRequest) *pluginpb.CodeGeneratorResponse {
	t.Helper()
	in, err := proto.Marshal(req)
	if err != nil {
		t.Fatal(err)
	}
	var out, errs bytes.Buffer
	if code := cli(nil, bytes.NewReader(in), &out, &errs); code != 0 {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	resp := &pluginpb.CodeGeneratorResponse{}
	if err := proto.Unmarshal(out.Bytes(), resp); err != nil {
		t.Fatal(err)
	}
	return resp
}

func TestGeneratesTheForgeTable(t *testing.T) {
	resp := invoke(t, request("module=github.com/forgetools/forgetools", gatewayv1.File_forgetools_gateway_v1_agent_gateway_proto))
	if resp.GetError() != "" {
		t.Fatal(resp.GetError())
	}
	want := map[string]string{
		"gen/forgetools/gateway/v1/gatewayv1tools/agent_gateway.tools.go":     "var ForgeTools = &runtime.Table{",
		"gen/forgetools/gateway/v1/gatewayv1handler/agent_gateway.handler.go": "var ForgeTable = &toolserver.Table{",
	}
	if len(resp.GetFile()) != len(want) {
		t.Fatalf("%d files, want %d", len(resp.GetFile()), len(want))
	}
	for _, f := range resp.GetFile() {
		decl, ok := want[f.GetName()]
		if !ok || !strings.Contains(f.GetContent(), decl) {
			t.Errorf("%s: unexpected, or without %q", f.GetName(), decl)
		}
	}
}

// The package suffixes are plugin options, as protoc-gen-connect-go's is.
func TestPackageSuffixes(t *testing.T) {
	resp := invoke(t, request("module=github.com/forgetools/forgetools,tools_package_suffix=agent,handler_package_suffix=server",
		gatewayv1.File_forgetools_gateway_v1_agent_gateway_proto))
	if resp.GetError() != "" {
		t.Fatal(resp.GetError())
	}
	var names []string
	for _, f := range resp.GetFile() {
		names = append(names, f.GetName())
	}
	if got := strings.Join(names, " "); got != "gen/forgetools/gateway/v1/gatewayv1agent/agent_gateway.tools.go gen/forgetools/gateway/v1/gatewayv1server/agent_gateway.handler.go" {
		t.Fatalf("files: %s", got)
	}
	resp = invoke(t, request("tools_package_suffix=Tools", gatewayv1.File_forgetools_gateway_v1_agent_gateway_proto))
	if !strings.Contains(resp.GetError(), `package suffix "Tools" must be lower-case letters and digits`) {
		t.Fatalf("a bad suffix: error %q", resp.GetError())
	}
}

// A refused table is reported in the response, as the plugin protocol asks:
// the plugin exits 0 and protoc or buf print the error and fail.
func TestRefusalGoesInTheResponse(t *testing.T) {
	oneofOpts := &descriptorpb.OneofOptions{}
	proto.SetExtension(oneofOpts, optionsv1.E_Toolset, &optionsv1.ToolsetOptions{Name: "bad"})
	file := &descriptorpb.FileDescriptorProto{
		Name:       proto.String("bad.proto"),
		Package:    proto.String("bad.v1"),
		Syntax:     proto.String("proto3"),
		Dependency: []string{"forgetools/options/v1/options.proto"},
		Options:    &descriptorpb.FileOptions{GoPackage: proto.String("example.com/bad;badv1")},
		MessageType: []*descriptorpb.DescriptorProto{
			{Name: proto.String("Empty")},
			{
				Name: proto.String("Dispatch"),
				Field: []*descriptorpb.FieldDescriptorProto{{
					Name: proto.String("bare"), Number: proto.Int32(1), OneofIndex: proto.Int32(0),
					Label: descriptorpb.FieldDescriptorProto_LABEL_OPTIONAL.Enum(),
					Type:  descriptorpb.FieldDescriptorProto_TYPE_MESSAGE.Enum(), TypeName: proto.String(".bad.v1.Empty"),
				}},
				OneofDecl: []*descriptorpb.OneofDescriptorProto{{Name: proto.String("call"), Options: oneofOpts}},
			},
		},
	}
	req := request("", optionsv1.File_forgetools_options_v1_options_proto)
	req.ProtoFile = append(req.ProtoFile, file)
	req.FileToGenerate = []string{"bad.proto"}
	resp := invoke(t, req)
	want := "bad.proto: no result message for Dispatch: add a service method taking it, or a result oneof with an arm marked (forgetools.options.v1.result).error\n" +
		"bad.proto: arm bare has no (forgetools.options.v1.tool) options"
	if resp.GetError() != want {
		t.Fatalf("error:\n%s\nwant:\n%s", resp.GetError(), want)
	}
	if len(resp.GetFile()) != 0 {
		t.Fatal("a refused table must generate nothing")
	}
}

func TestGarbageInputFails(t *testing.T) {
	var out, errs bytes.Buffer
	if code := cli(nil, strings.NewReader("not a request"), &out, &errs); code != 1 || !strings.Contains(errs.String(), "CodeGeneratorRequest") {
		t.Fatalf("exit %d, stderr %q", code, errs.String())
	}
}

// --export-protos writes what a team's buf module needs offline: our
// options proto as it is in proto/, and buf/validate/validate.proto as the
// protovalidate module this plugin compiles against describes it. A second
// run over the same directory writes nothing.
func TestExportProtos(t *testing.T) {
	dir := t.TempDir()
	var out, errs bytes.Buffer
	if code := cli([]string{"--export-protos", dir}, nil, &out, &errs); code != 0 {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	if got := strings.Count(out.String(), "wrote "); got != 2 {
		t.Errorf("first run wrote %d files:\n%s", got, out.String())
	}
	want, err := os.ReadFile("../../proto/forgetools/options/v1/options.proto")
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(dir, "forgetools/options/v1/options.proto"))
	if err != nil || !bytes.Equal(got, want) {
		t.Errorf("exported options.proto differs from proto/ (%v)", err)
	}
	validateProto, err := os.ReadFile(filepath.Join(dir, "buf/validate/validate.proto"))
	if err != nil || !bytes.Contains(validateProto, []byte("package buf.validate;")) || !bytes.Contains(validateProto, []byte("message StringRules")) {
		t.Errorf("exported validate.proto is not the buf.validate vocabulary (%v)", err)
	}
	out.Reset()
	if code := cli([]string{"--export-protos", dir}, nil, &out, &errs); code != 0 || out.Len() != 0 {
		t.Errorf("second run: exit %d, printed %q; want nothing written", code, out.String())
	}
}
