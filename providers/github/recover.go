package github

import (
	"context"
	"regexp"
	"strings"

	gh "github.com/google/go-github/v84/github"
	"github.com/google/uuid"

	"github.com/forgetools/forgetools/providers/kit"
	"github.com/forgetools/forgetools/toolserver"
)

// GitHub has no idempotency key, so a create whose gateway died with the
// POST in flight leaves the next attempt unable to tell whether GitHub
// filed it. The provider makes the answer findable: every keyed create
// carries a marker at the end of its body, an HTML comment GitHub does not
// render, naming the create; a resumed create (toolserver.Call.Resumed: an
// earlier attempt held the key when its gateway died) first looks among
// the credential's own most recent issues and pull requests for that
// marker, and returns what it finds instead of filing again. Reads strip
// the marker, so nobody sees it.
//
// The residual window: if GitHub is still processing the first POST when
// the lookup runs (the earlier attempt's lease, 30 s by default, has
// already expired by then), the lookup misses it and the artifact is filed
// twice.

// markerNamespace derives marker ids; changing it would make a resumed
// create after an upgrade miss the earlier attempt's artifact.
var markerNamespace = uuid.MustParse("6f1d3f8e-2b0a-4c1e-9d52-8a7c4e3b9f10")

// markerRE is a marker at the end of a body, with the blank line before it.
var markerRE = regexp.MustCompile(`(?:\r?\n)*<!-- forgetools-create: [0-9a-f-]{36} -->\s*$`)

// recoverPages bounds the lookup: the credential's 300 most recent issues
// and pull requests in the repository. A create resumed after a crash
// looks for something filed seconds or minutes ago.
const recoverPages = 3

// marker is the comment a keyed create ends its body with: the same for
// the same account and client_request_id, different for every other pair.
func marker(c toolserver.Call) string {
	id := uuid.NewSHA1(markerNamespace, []byte(c.Account+"\x00"+c.ClientRequestID))
	return "<!-- forgetools-create: " + id.String() + " -->"
}

// markBody is body with c's marker at its end; an unkeyed create is left
// as it is.
func markBody(c toolserver.Call, body string) string {
	if c.ClientRequestID == "" {
		return body
	}
	if body == "" {
		return marker(c)
	}
	return body + "\n\n" + marker(c)
}

// unmark is a body as people wrote it: without a create marker.
func unmark(body string) string { return markerRE.ReplaceAllString(body, "") }

// earlier finds the issue or pull request an earlier attempt of a resumed
// create filed: the credential's own, newest first, whose body ends with
// c's marker. It returns nil when there is none.
func (p *Provider) earlier(ctx context.Context, c toolserver.Call, repo repoName) (*gh.Issue, error) {
	if !c.Resumed || c.ClientRequestID == "" {
		return nil, nil
	}
	me, _, err := p.author.Users.Get(ctx, "")
	if err != nil {
		return nil, err
	}
	want := marker(c)
	opts := &gh.IssueListByRepoOptions{
		Creator: me.GetLogin(), State: "all", Sort: "created", Direction: "desc",
		ListOptions: gh.ListOptions{PerPage: maxPerPage},
	}
	var found *gh.Issue
	err = kit.Pages(recoverPages, func(next int) (kit.Page[*gh.Issue, int], error) {
		opts.ListOptions.Page = next
		page, resp, err := p.author.Issues.ListByRepo(ctx, repo.owner, repo.name, opts)
		return kit.Page[*gh.Issue, int]{Items: page, Next: nextPage(resp)}, err
	}, func(i *gh.Issue) bool {
		if strings.HasSuffix(strings.TrimSpace(i.GetBody()), want) {
			found = i
		}
		return found == nil
	})
	if err != nil || found == nil {
		return nil, err
	}
	p.log.InfoContext(ctx, "github: a resumed create found its earlier attempt's artifact",
		"host", p.host, "repo", repo.String(), "number", found.GetNumber())
	return found, nil
}
