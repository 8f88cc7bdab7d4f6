// Command protoc-gen-forgetools is a protoc (and buf) plugin: for every
// proto file with a dispatch oneof annotated with
// (forgetools.options.v1.toolset) it writes two packages under the
// protoc-gen-go output's: <pkg>tools/<file>.tools.go, the agent tools (a
// runtime.Table), and <pkg>handler/<file>.handler.go, the server side (the
// handler interfaces a provider implements and a toolserver.Table).
//
// It takes protogen's standard options (paths=source_relative, module=...,
// M...) and its own: tools_package_suffix (default "tools") and
// handler_package_suffix (default "handler"). A bad table is refused with
// one "file:line: message" per problem, which protoc and buf print before
// exiting non-zero.
//
// Run by hand, --export-protos DIR writes the protos a table imports from
// forgetools and protovalidate into DIR, for a local buf module when no
// schema registry is reachable.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"google.golang.org/protobuf/compiler/protogen"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/pluginpb"

	"github.com/forgetools/forgetools/cmd/protoc-gen-forgetools/internal/generator"
)

func main() {
	os.Exit(cli(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

const usage = `protoc-gen-forgetools %s: a protoc plugin that writes agent tools (<pkg>tools)
and their server side (<pkg>handler) from annotated protos. Run it through
buf generate or protoc. Besides:

  protoc-gen-forgetools --version
  protoc-gen-forgetools --export-protos DIR
      write forgetools/options/v1/options.proto and buf/validate/validate.proto
      into DIR, for a local buf module when no schema registry is reachable
`

func cli(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	switch {
	case len(args) == 1 && (args[0] == "--version" || args[0] == "-version"):
		fmt.Fprintln(stdout, "protoc-gen-forgetools", generator.Version)
		return 0
	case len(args) == 2 && args[0] == "--export-protos":
		wrote, err := exportProtos(args[1])
		if err != nil {
			fmt.Fprintln(stderr, "protoc-gen-forgetools:", err)
			return 1
		}
		for _, path := range wrote {
			fmt.Fprintln(stdout, "wrote", path)
		}
		return 0
	case len(args) > 0:
		fmt.Fprintf(stderr, usage, generator.Version)
		return 2
	}
	if err := run(stdin, stdout); err != nil {
		fmt.Fprintln(stderr, "protoc-gen-forgetools:", err)
		return 1
	}
	return 0
}

// run is one plugin invocation: a CodeGeneratorRequest in, a
// CodeGeneratorResponse out. A refused table is not a failure of the
// plugin: as the plugin protocol asks, it goes back in the response's
// error field, and the compiler reports it and fails.
func run(in io.Reader, out io.Writer) error {
	data, err := io.ReadAll(in)
	if err != nil {
		return err
	}
	req := &pluginpb.CodeGeneratorRequest{}
	if err := proto.Unmarshal(data, req); err != nil {
		return fmt.Errorf("reading the CodeGeneratorRequest: %w", err)
	}
	var flags flag.FlagSet // protogen handles the standard parameters
	var opts generator.Options
	flags.StringVar(&opts.ToolsSuffix, "tools_package_suffix", "tools", "suffix of the agent-side package name")
	flags.StringVar(&opts.HandlerSuffix, "handler_package_suffix", "handler", "suffix of the server-side package name")
	plugin, err := protogen.Options{ParamFunc: flags.Set}.New(req)
	if err != nil {
		return err
	}
	if err := generator.Generate(plugin, opts); err != nil {
		plugin.Error(err)
	}
	data, err = proto.Marshal(plugin.Response())
	if err != nil {
		return err
	}
	_, err = out.Write(data)
	return err
}
