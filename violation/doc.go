// Package violation phrases protovalidate violations in the model's terms:
// "path: rule in plain words", with the path spelled by the caller's field
// names (the model's for a tool call, the proto's for a wire-level caller)
// and bounds and enum choices said the way the tool schemas say them. The
// runtime and the gateway share it so a refusal reads alike on both sides.
package violation
