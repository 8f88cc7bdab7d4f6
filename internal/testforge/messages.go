package testforge

import (
	"fmt"
	"slices"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	"github.com/forgetools/forgetools/internal/forgemodel"
)

// The model's items in the gateway's own types, with GitHub's URLs.

func (f *Forge) url(repo, kind string, n int64) string {
	return fmt.Sprintf("https://%s/%s/%s/%d", f.ref.GetHost(), repo, kind, n)
}

func (f *Forge) issueMsg(repo string, it *forgemodel.Item) *forgev1.Issue {
	url := f.url(repo, "issues", it.Number)
	return &forgev1.Issue{
		Forge: f.ref, Repo: repo, Number: uint64(it.Number), State: it.State, Url: url,
		Labels: slices.Clone(it.Labels), Assignees: slices.Clone(it.Assignees), Author: it.Author,
		Title: it.Title, Body: it.Body, Comments: commentMsgs(url, it.Comments),
	}
}

func (f *Forge) pullMsg(repo string, it *forgemodel.Item) *forgev1.PullRequest {
	url := f.url(repo, "pull", it.Number)
	pr := &forgev1.PullRequest{
		Forge: f.ref, Repo: repo, Number: uint64(it.Number), State: it.State, Url: url,
		HeadRef: it.Pull.Head, BaseRef: it.Pull.Base, Draft: it.Pull.Draft, Author: it.Author,
		Title: it.Title, Body: it.Body, Comments: commentMsgs(url, it.Comments),
	}
	for _, v := range it.Pull.Reviews {
		r := &forgev1.Review{Author: v.Author, Verdict: v.State, Url: reviewURL(url, v), Body: v.Body}
		for _, c := range v.Comments {
			line, side := c.Line()
			r.Comments = append(r.Comments, &forgev1.ReviewComment{Path: c.Path, Line: uint64(line), Side: side, Author: v.Author, Body: c.Body})
		}
		pr.Reviews = append(pr.Reviews, r)
	}
	return pr
}

func commentMsgs(itemURL string, cs []*forgemodel.Comment) []*forgev1.Comment {
	var out []*forgev1.Comment
	for _, c := range cs {
		out = append(out, &forgev1.Comment{Author: c.Author, Url: commentURL(itemURL, c), Body: c.Body})
	}
	return out
}

func commentURL(itemURL string, c *forgemodel.Comment) string {
	return fmt.Sprintf("%s#issuecomment-%d", itemURL, c.ID)
}

func reviewURL(pullURL string, v *forgemodel.Review) string {
	return fmt.Sprintf("%s#pullrequestreview-%d", pullURL, v.ID)
}
