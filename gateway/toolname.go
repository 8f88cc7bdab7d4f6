package gateway

import (
	"google.golang.org/protobuf/proto"

	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	optionsv1 "github.com/forgetools/forgetools/gen/forgetools/options/v1"
)

// toolName is a request's arm as the model names it ("forge_create_issue"),
// read from the arm's (forgetools.options.v1.tool) option, so logs and
// audit records speak the model's vocabulary; the arm name when the arm
// carries no tool option, "unset" when no arm is set.
func toolName(req *gatewayv1.ForgeCallRequest) string {
	fd := armField(req)
	if fd == nil {
		return "unset"
	}
	if o, ok := proto.GetExtension(fd.Options(), optionsv1.E_Tool).(*optionsv1.ToolOptions); ok && o.GetName() != "" {
		return o.GetName()
	}
	return string(fd.Name())
}
