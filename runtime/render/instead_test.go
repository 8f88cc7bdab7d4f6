package render_test

import (
	"strings"
	"testing"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	"github.com/forgetools/forgetools/runtime/render"
)

// A comment list holds a page of comments or of reviews ((render).
// instead_of on both): the empty one beside a filled one says nothing,
// and a page of neither states both empty.
func TestInsteadOfLeavesTheOtherKindUnsaid(t *testing.T) {
	for _, c := range []struct {
		name string
		list *forgev1.CommentList
		want string
	}{
		{"comments", &forgev1.CommentList{Repo: "acme/app", Number: 2, Comments: []*forgev1.Comment{{Author: "ada", Body: "hi"}}},
			"# comment_list|repo: acme/app|number: 2|comments: 1|# comments[0]|author: ada"},
		{"reviews", &forgev1.CommentList{Repo: "acme/app", Number: 2, Reviews: []*forgev1.Review{{Author: "bob", Verdict: "approve"}}},
			"# comment_list|repo: acme/app|number: 2|reviews: 1|# reviews[0]|author: bob|verdict: approve"},
		{"neither", &forgev1.CommentList{Repo: "acme/app", Number: 2},
			"# comment_list|repo: acme/app|number: 2|comments: none|reviews: none"},
	} {
		if got := strings.Join(parse(t, render.Read(c.list)).outside, "|"); got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.name, got, c.want)
		}
	}
}
