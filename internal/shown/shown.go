// Package shown says how much of a result the model is shown, read from
// the (forgetools.options.v1.render) options of the result's fields. The
// renderer (runtime/render) caps each aggregate by it, and the providers
// fetch no more than it: a forge read of an issue with a thousand comments
// asks for the thirty the model will see and the total, not every page.
// One reading of the option serves both sides, so they cannot drift.
package shown

import (
	"math"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	optionsv1 "github.com/forgetools/forgetools/gen/forgetools/options/v1"
)

// DefaultItems caps a repeated field whose (render).max_items is 0.
const DefaultItems = 20

// Items is how many items of the repeated field fd the renderer shows.
func Items(fd protoreflect.FieldDescriptor) int {
	if o, ok := proto.GetExtension(fd.Options(), optionsv1.E_Render).(*optionsv1.RenderOptions); ok && o.GetMaxItems() > 0 {
		return int(o.GetMaxItems())
	}
	return DefaultItems
}

// Of is Items for the field named field of m's message type; it panics
// when there is no such field, which is a programming error a test of the
// caller finds at once.
func Of(m proto.Message, field string) int {
	fd := m.ProtoReflect().Descriptor().Fields().ByName(protoreflect.Name(field))
	if fd == nil {
		panic("shown: " + string(m.ProtoReflect().Descriptor().FullName()) + " has no field " + field)
	}
	return Items(fd)
}

// TotalOf names the repeated sibling whose forge-side count the integer
// field fd holds ((render).total_of), or "".
func TotalOf(fd protoreflect.FieldDescriptor) string {
	o, _ := proto.GetExtension(fd.Options(), optionsv1.E_Render).(*optionsv1.RenderOptions)
	return o.GetTotalOf()
}

// Total is a (render).total_of field's value for an aggregate whose result
// carries kept items: the largest of counts (the forge's count, the items
// the forge sent) when it is more than kept, else 0 (the aggregate is
// whole). A forge's count below what it sent never hides what arrived.
func Total(kept int, counts ...int) uint32 {
	n := 0
	for _, c := range counts {
		n = max(n, c)
	}
	if n <= kept {
		return 0
	}
	return uint32(min(n, math.MaxUint32))
}

// The aggregates of the forge types' results the providers fetch, by the
// options of their fields.
var (
	IssueComments  = Of(&forgev1.Issue{}, "comments")
	PullReviews    = Of(&forgev1.PullRequest{}, "reviews")
	PullComments   = Of(&forgev1.PullRequest{}, "comments")
	ReviewComments = Of(&forgev1.Review{}, "comments")
	// A page of review threads, and what a thread shows of its comments.
	ReviewThreads  = Of(&forgev1.ReviewThreadList{}, "threads")
	ThreadComments = Of(&forgev1.ReviewThread{}, "comments")
)
