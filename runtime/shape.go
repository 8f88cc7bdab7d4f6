package runtime

import (
	"fmt"
	"slices"
)

// Shape is how a toolset offers a table's tools to the model.
type Shape int

const (
	// ShapeFlat offers one tool per arm: forge_get_issue,
	// forge_create_issue, ...
	ShapeFlat Shape = iota
	// ShapeGrouped offers one tool per group of the table, which takes an
	// action parameter (forge_issue {"action": "get", ...}), and the arms
	// in no group as they are. Fewer tools, fewer bytes on every turn; a
	// call runs through the action's own decoder, validator, approval and
	// renderer, so it does exactly what the flat call does.
	ShapeGrouped
)

// Shapes are the spellings ParseShape takes, in Shape order.
var Shapes = []string{"flat", "grouped"}

func (s Shape) String() string {
	if int(s) >= 0 && int(s) < len(Shapes) {
		return Shapes[s]
	}
	return fmt.Sprintf("Shape(%d)", int(s))
}

// ParseShape reads a shape's spelling: "flat" or "grouped".
func ParseShape(s string) (Shape, error) {
	if i := slices.Index(Shapes, s); i >= 0 {
		return Shape(i), nil
	}
	return 0, fmt.Errorf("shape %q: want flat or grouped", s)
}

// WithShape offers the tools in shape s (ShapeFlat when not given).
func WithShape(s Shape) Option { return func(c *config) { c.shape = s } }

// WithAliases lists each tool's earlier names (Tool.Aliases) as tools of
// their own in Tools, so a client that still names a tool the old way sees
// it. A call under an alias runs without this option too; it only changes
// what is listed, and only in the flat shape (the grouped shape lists no
// flat tool to give an old name to).
func WithAliases() Option { return func(c *config) { c.aliases = true } }
