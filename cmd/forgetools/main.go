// Command forgetools serves forge tools to AI agents: the gateway, an MCP
// server, the tool list and one-off calls. Run 'forgetools --help'.
package main

import (
	"os"

	"github.com/forgetools/forgetools/internal/cli"
)

func main() {
	os.Exit(cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
