package shown

import (
	"testing"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
)

// The sizes are the options' (forge.proto), the default where none is set.
func TestSizesAreTheRenderOptions(t *testing.T) {
	if IssueComments != 30 || PullReviews != 30 || PullComments != 30 || ReviewComments != 20 {
		t.Errorf("sizes %d %d %d %d; want 30 30 30 20", IssueComments, PullReviews, PullComments, ReviewComments)
	}
	if n := Of(&forgev1.Issue{}, "labels"); n != DefaultItems {
		t.Errorf("labels (no max_items) = %d, want the default %d", n, DefaultItems)
	}
	if of := TotalOf((&forgev1.Issue{}).ProtoReflect().Descriptor().Fields().ByName("comments_total")); of != "comments" {
		t.Errorf("comments_total counts %q", of)
	}
	defer func() {
		if recover() == nil {
			t.Error("Of a field that does not exist did not panic")
		}
	}()
	Of(&forgev1.Issue{}, "nope")
}

func TestTotal(t *testing.T) {
	for _, c := range []struct {
		kept   int
		counts []int
		want   uint32
	}{
		{30, []int{1000, 30}, 1000}, // the forge's count
		{30, []int{3, 500}, 500},    // a stale count never hides what arrived
		{30, []int{30}, 0},          // whole
		{0, nil, 0},
	} {
		if got := Total(c.kept, c.counts...); got != c.want {
			t.Errorf("Total(%d, %v) = %d, want %d", c.kept, c.counts, got, c.want)
		}
	}
}
