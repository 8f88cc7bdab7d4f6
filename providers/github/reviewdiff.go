package github

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"

	gh "github.com/google/go-github/v84/github"

	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/providers/internal/rest"
	"github.com/forgetools/forgetools/providers/internal/unidiff"
	"github.com/forgetools/forgetools/toolserver"
)

// outsideDiff explains GitHub's refusal of a review whose inline comment
// names a line the pull request's diff does not show (422 "Line could not
// be resolved" or "Path could not be resolved", naming no comment): it
// reads the pull request's files and says which comment, and why, in one
// sentence the model can act on. It returns nil when err is not that
// refusal or no comment can be blamed, and the caller maps err as usual.
func (p *Provider) outsideDiff(ctx context.Context, c *gh.Client, repo repoName, n int, what string,
	comments []*gatewayv1.ReviewCommentInput, err error) *toolserver.Error {
	var resp *gh.ErrorResponse
	if len(comments) == 0 || !errors.As(err, &resp) || resp.Response == nil ||
		resp.Response.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(detail(resp), "could not be resolved") {
		return nil
	}
	files, ferr := collect(maxPerPage, func(o gh.ListOptions) ([]*gh.CommitFile, *gh.Response, error) {
		return c.PullRequests.ListFiles(ctx, repo.owner, repo.name, n, &o)
	})
	if ferr != nil {
		return nil
	}
	diffs := map[string]unidiff.Anchors{}
	var paths []string
	for _, f := range files {
		diffs[f.GetFilename()] = unidiff.AnchorsOf(f.GetPatch())
		paths = append(paths, f.GetFilename())
	}
	var blamed []string
	var first string
	for i, cm := range comments {
		side := "RIGHT"
		if cm.GetSide() == gatewayv1.Side_SIDE_LEFT {
			side = "LEFT"
		}
		which := fmt.Sprintf("comments[%d] (%s line %d, %s side)", i, cm.GetPath(), cm.GetLine(), side)
		d, changed := diffs[cm.GetPath()]
		var why string
		switch {
		case !changed:
			why = fmt.Sprintf("%s names a file the pull request does not change (it changes %s); GitHub accepts inline comments only on the diff",
				which, listOf(paths, 5))
		case cm.GetLine() > uint64(maxLine) || !d.Shows(side, int(cm.GetLine())):
			why = fmt.Sprintf("%s is outside the pull request's diff: GitHub accepts inline comments only on lines the diff shows, which for %s are lines %s on the RIGHT side and %s on the LEFT",
				which, cm.GetPath(), ranges(d.Right), ranges(d.Left))
		default:
			continue
		}
		if first == "" {
			first = why
		}
		blamed = append(blamed, fmt.Sprintf("comments[%d]", i))
	}
	if first == "" {
		return nil
	}
	if len(blamed) > 1 {
		first += fmt.Sprintf(" (%s are outside it too)", strings.Join(blamed[1:], ", "))
	}
	e := p.mapError(what, err)
	e.Message = rest.Clean(e.Message+": "+first+"; nothing was posted", p.redactor)
	return e
}

// maxLine is the largest line a diff can show (unidiff bounds hunks).
const maxLine = 1 << 30

// ranges spells a set of line numbers as "3, 10-13", at most eight runs.
func ranges(lines map[int]bool) string {
	var ns []int
	for n, ok := range lines {
		if ok {
			ns = append(ns, n)
		}
	}
	if len(ns) == 0 {
		return "none"
	}
	slices.Sort(ns)
	var runs []string
	for i := 0; i < len(ns); {
		j := i
		for j+1 < len(ns) && ns[j+1] == ns[j]+1 {
			j++
		}
		run := strconv.Itoa(ns[i])
		if j > i {
			run += "-" + strconv.Itoa(ns[j])
		}
		runs = append(runs, run)
		i = j + 1
	}
	return listOf(runs, 8)
}

// listOf joins at most max items with ", ", counting the rest.
func listOf(items []string, max int) string {
	if len(items) <= max {
		return strings.Join(items, ", ")
	}
	return strings.Join(items[:max], ", ") + fmt.Sprintf(" and %d more", len(items)-max)
}
