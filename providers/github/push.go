package github

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	gh "github.com/google/go-github/v84/github"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/toolserver"
)

// The arms that change the repository itself. Each is one GitHub write
// that either happens whole or not at all, and the failures an agent must
// act on (a stale sha, a moved head, a default branch it may not touch)
// come back as failed_precondition or permission_denied saying that
// nothing was written and what to do next.

// CreateBranch resolves from_ref (a branch, tag or commit; omitted = the
// default branch) to a commit and creates refs/heads/<branch> there.
func (p *Provider) CreateBranch(ctx context.Context, _ toolserver.Call, req *gatewayv1.CreateBranchRequest) (*forgev1.BranchRef, error) {
	repo, err := parseRepo(req.GetRepo())
	if err != nil {
		return nil, err
	}
	branch, err := branchName(req.GetBranch())
	if err != nil {
		return nil, err
	}
	// from_ref goes into a request path; checkRef keeps it inside the
	// repository (diff.go says why).
	if err := checkRef("from_ref", req.GetFromRef()); err != nil {
		return nil, err
	}
	what := fmt.Sprintf("create branch %s in %s", branch, repo)
	return call(ctx, p, what, func(ctx context.Context) (*forgev1.BranchRef, error) {
		from, err := p.refOrDefault(ctx, repo, req.GetFromRef())
		if err != nil {
			return nil, err
		}
		sha, _, err := p.author.Repositories.GetCommitSHA1(ctx, repo.owner, repo.name, from, "")
		if status, said := answered(err); status == 422 {
			// GitHub's answer for a ref that names no commit.
			return nil, toolserver.NotFound("%s: from_ref %q is not a branch, tag or commit of %s (GitHub: %s); nothing was created", what, from, repo, said)
		} else if err != nil {
			return nil, err
		}
		ref, _, err := p.author.Git.CreateRef(ctx, repo.owner, repo.name, gh.CreateRef{Ref: "refs/heads/" + branch, SHA: sha})
		if status, said := answered(err); status == 422 && strings.Contains(said, "already exists") {
			return nil, toolserver.AlreadyExists("%s: branch %s already exists in %s; nothing was created: pick another name, or read it and write to it", what, branch, repo)
		} else if err != nil {
			return nil, err
		}
		return &forgev1.BranchRef{
			Forge:  p.Ref(),
			Repo:   repo.String(),
			Branch: branch,
			Sha:    ref.GetObject().GetSHA(),
			Url:    p.webURL(repo, "tree/"+branch),
		}, nil
	})
}

// WriteFile creates or replaces one file as a commit on a branch through the
// contents API. GitHub itself refuses a replacement without the current blob
// sha (422) and one with a stale sha (409), atomically with the write; both
// come back as failed_precondition. A write to the repository's default
// branch is refused before anything is sent unless the call allows it.
func (p *Provider) WriteFile(ctx context.Context, c toolserver.Call, req *gatewayv1.WriteFileRequest) (*forgev1.FileCommit, error) {
	repo, path, err := parseRepoPath(req.GetRepo(), req.GetPath(), false)
	if err != nil {
		return nil, err
	}
	branch, err := branchName(req.GetBranch())
	if err != nil {
		return nil, err
	}
	expected, err := fullSHA("expected_sha", req.GetExpectedSha(), true)
	if err != nil {
		return nil, err
	}
	in := &gh.RepositoryContentFileOptions{
		Message: gh.Ptr(req.GetMessage()),
		Content: []byte(req.GetContent()),
		Branch:  gh.Ptr(branch),
	}
	if expected != "" {
		in.SHA = gh.Ptr(expected)
	}
	what := fmt.Sprintf("write %s to %s in %s", path, branch, repo)
	return call(ctx, p, what, func(ctx context.Context) (*forgev1.FileCommit, error) {
		if err := p.mayCommit(ctx, c, repo, branch, what); err != nil {
			return nil, err
		}
		// CreateFile and UpdateFile are the same PUT; the sha makes it an update.
		res, _, err := p.author.Repositories.CreateFile(ctx, repo.owner, repo.name, escapePath(path), in)
		switch status, said := answered(err); {
		case status == 409:
			return nil, toolserver.FailedPrecondition("%s: %s changed on %s since you read it (GitHub: %s); nothing was written: read it again with forge_read_file and decide",
				what, path, branch, said)
		case status == 422 && expected == "" && strings.Contains(said, `"sha"`):
			return nil, toolserver.FailedPrecondition("%s: %s already exists on %s and expected_sha was not given; nothing was written: read it with forge_read_file and pass its sha as expected_sha to replace it",
				what, path, branch)
		case err != nil:
			return nil, err
		}
		return &forgev1.FileCommit{
			Forge:     p.Ref(),
			Repo:      repo.String(),
			Branch:    branch,
			Path:      path,
			CommitSha: res.Commit.GetSHA(),
			BlobSha:   res.GetContent().GetSHA(),
			Url:       res.Commit.GetHTMLURL(),
		}, nil
	})
}

var mergeMethods = map[gatewayv1.MergeMethod]string{
	gatewayv1.MergeMethod_MERGE_METHOD_MERGE:  "merge",
	gatewayv1.MergeMethod_MERGE_METHOD_SQUASH: "squash",
	gatewayv1.MergeMethod_MERGE_METHOD_REBASE: "rebase",
}

// MergePullRequest merges a pull request only if its head is still
// expected_head_sha: GitHub checks the sha atomically with the merge and
// answers 409 when the head moved. 405 is GitHub saying it cannot merge
// (conflicts, failing required checks, a method the repository disallows,
// already merged), in its own words.
func (p *Provider) MergePullRequest(ctx context.Context, _ toolserver.Call, req *gatewayv1.MergePullRequestRequest) (*forgev1.MergeResult, error) {
	repo, n, err := parseNumbered(req.GetRepo(), req.GetPullNumber(), "pull request")
	if err != nil {
		return nil, err
	}
	head, err := fullSHA("expected_head_sha", req.GetExpectedHeadSha(), false)
	if err != nil {
		return nil, err
	}
	method := or(mergeMethods[req.GetMethod()], "merge")
	what := fmt.Sprintf("merge pull request %s#%d", repo, n)
	return call(ctx, p, what, func(ctx context.Context) (*forgev1.MergeResult, error) {
		res, _, err := p.author.PullRequests.Merge(ctx, repo.owner, repo.name, n, "", &gh.PullRequestOptions{SHA: head, MergeMethod: method})
		switch status, said := answered(err); {
		case status == 409:
			return nil, toolserver.FailedPrecondition("%s: its head moved since you reviewed %s (GitHub: %s); nothing was merged: read it again with forge_get_pull_request, review the new head and decide",
				what, head[:12], said)
		case status == 405:
			return nil, toolserver.FailedPrecondition("%s: GitHub cannot merge it: %s; nothing was merged", what, said)
		case err != nil:
			return nil, err
		}
		if !res.GetMerged() {
			return nil, toolserver.FailedPrecondition("%s: GitHub did not merge it: %s", what, res.GetMessage())
		}
		return &forgev1.MergeResult{
			Forge:  p.Ref(),
			Repo:   repo.String(),
			Number: uint64(n),
			Method: method,
			Sha:    res.GetSHA(),
			Url:    p.webURL(repo, fmt.Sprintf("pull/%d", n)),
		}, nil
	})
}

var shaPattern = regexp.MustCompile(`^([0-9a-f]{40}|[0-9a-f]{64})$`)

// fullSHA checks a sha the agent passes back: GitHub compares it with the
// whole object name, so an abbreviation would read as "moved" and is
// refused here as what it is.
func fullSHA(field, sha string, optional bool) (string, error) {
	sha = strings.ToLower(sha)
	if (sha == "" && optional) || shaPattern.MatchString(sha) {
		return sha, nil
	}
	return "", toolserver.InvalidArgument("%s %q is not a full sha: GitHub needs all 40 hex digits, as the read returned them", field, sha)
}

// branchName checks a branch name against git's rules for ref names (the
// ones an agent is likely to break), so GitHub's terse refusal becomes a
// sentence. A leading refs/heads/ is dropped.
func branchName(b string) (string, error) {
	name := strings.TrimPrefix(b, "refs/heads/")
	bad := func(why string) error {
		return toolserver.InvalidArgument("branch %q is not a valid branch name: %s", b, why)
	}
	switch {
	case name == "" || name == "@":
		return "", bad("it is empty")
	case strings.ContainsAny(name, " ~^:?*[\\"):
		return "", bad(`it contains a space or one of ~ ^ : ? * [ \`)
	case strings.ContainsFunc(name, func(r rune) bool { return r < 0x20 || r == 0x7f }):
		return "", bad("it contains a control character")
	case strings.Contains(name, "..") || strings.Contains(name, "@{") || strings.Contains(name, "//"):
		return "", bad(`it contains "..", "@{" or "//"`)
	case strings.HasPrefix(name, "-") || strings.HasPrefix(name, "/") || strings.HasSuffix(name, "/") ||
		strings.HasSuffix(name, ".") || strings.HasSuffix(name, ".lock") || strings.Contains(name, "/."):
		return "", bad(`it starts with "-" or "/", has a part starting with ".", or ends with "/", "." or ".lock"`)
	case strings.HasPrefix(name, "."):
		return "", bad(`it starts with "."`)
	}
	return name, nil
}

// webURL is a page of repo on GitHub's web host, for answers whose API
// response carries no link.
func (p *Provider) webURL(repo repoName, page string) string {
	return "https://" + p.host + "/" + repo.String() + "/" + page
}
