package layering_test

import (
	"os/exec"
	"strings"
	"testing"
)

// The contract between a table's generated server side and the gateway
// (package toolserver) is neutral: it links no forge type, neither the forge
// table's messages (gen/forgetools/gateway/...) nor the canonical forge
// messages (gen/forgetools/forge/...), so another team's table builds on it
// without the forge vocabulary. The envelope's parts come from the options
// vocabulary (gen/forgetools/options/...).
func TestContractImportsNoForgeType(t *testing.T) {
	const mod = "github.com/forgetools/forgetools"
	out, err := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}", mod+"/toolserver").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	deps := strings.Fields(string(out))
	var sawContract, sawOptions bool
	for _, d := range deps {
		switch {
		case d == mod+"/toolserver":
			sawContract = true
		case strings.HasPrefix(d, mod+"/gen/forgetools/options/"):
			sawOptions = true
		case strings.HasPrefix(d, mod+"/gen/forgetools/gateway/"), strings.HasPrefix(d, mod+"/gen/forgetools/forge/"):
			t.Errorf("package toolserver depends on the forge type package %s", d)
		}
	}
	if !sawContract || !sawOptions {
		t.Fatalf("go list -deps %s/toolserver did not list the package and the options vocabulary (%d packages); is the pattern right?", mod, len(deps))
	}
}
