package local

import (
	"context"
	"database/sql"
	"errors"
	"strconv"
	"strings"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/gen/forgetools/gateway/v1/gatewayv1handler"
	"github.com/forgetools/forgetools/providers/internal/searchpage"
	"github.com/forgetools/forgetools/toolserver"
)

// Searches read the repositories the call covers (the one it names, else
// the gateway's list for the account's scope) and nothing else: the query
// is text matched literally, never a filter of the forge's own, so it
// cannot reach another repository. A repository that does not exist yet
// has nothing to find: unlike the other arms, a search does not create it.

// SearchCode finds the lines containing the query, ignoring case, in the
// text files of each repository at ref (the default branch when none),
// repository by repository in the list's order. A page holds
// searchpage.CodeSize matches; its cursor is the repository and the count
// of that repository's matches already shown.
func (f *Forge) SearchCode(ctx context.Context, c toolserver.Call, req *gatewayv1.SearchCodeRequest) (*forgev1.CodeMatchList, error) {
	const tool = "forge_search_code"
	repos, err := searchpage.Repos(tool, req.GetRepo(), c)
	if err != nil {
		return nil, err
	}
	cur, err := searchpage.Parse(tool, req.GetCursor(), len(repos), 0)
	if err != nil {
		return nil, err
	}
	out := &forgev1.CodeMatchList{}
	for i := cur.Repo; i < len(repos); i++ {
		skip := 0
		if i == cur.Repo {
			skip = cur.At
		}
		r, err := f.existing(ctx, repos[i])
		if err != nil || r == nil {
			if err != nil {
				return nil, err
			}
			continue
		}
		ref := req.GetRef()
		if ref == "" {
			ref = r.defaultBranch
		}
		h, err := r.git.Resolve(ref)
		if err != nil {
			// A ref the repository lacks: an error for the repository the
			// call named, nothing to find in one of the scope's.
			if req.GetRepo() != "" {
				return nil, gitError(err)
			}
			continue
		}
		room := searchpage.CodeSize - len(out.Matches)
		found, more, err := r.git.Grep(h, req.GetQuery(), skip, room)
		if err != nil {
			return nil, gitError(err)
		}
		for _, m := range found {
			out.Matches = append(out.Matches, &forgev1.CodeMatch{
				Forge: f.Ref(), Repo: r.name, Path: m.Path, Line: uint64(m.Line), Text: m.Text,
			})
		}
		if more {
			out.NextCursor = searchpage.Cursor{Repo: i, At: skip + len(found)}.Format()
			return out, nil
		}
		if len(out.Matches) == searchpage.CodeSize && i+1 < len(repos) {
			out.NextCursor = searchpage.Cursor{Repo: i + 1}.Format()
			return out, nil
		}
	}
	return out, nil
}

// existing opens a repository that exists, or returns nil.
func (f *Forge) existing(ctx context.Context, name string) (*repository, error) {
	if err := checkRepo(name); err != nil {
		return nil, err
	}
	found := false
	err := f.readOne(ctx, func(q querier) error {
		var id int64
		err := q.QueryRowContext(ctx, `SELECT id FROM local_repos WHERE name_key = $1`, repoKey(name)).Scan(&id)
		found = err == nil
		if errors.Is(err, sql.ErrNoRows) {
			return nil
		}
		return err
	})
	if err != nil || !found {
		return nil, err
	}
	return f.repository(ctx, name)
}

// SearchIssues finds the issues and pull requests whose title or body
// contains the query, ignoring case (ASCII case on SQLite, whose lower()
// folds only ASCII), most recently updated first. One statement covers
// every repository; the cursor is an offset into its order.
func (f *Forge) SearchIssues(ctx context.Context, c toolserver.Call, req *gatewayv1.SearchIssuesRequest) (*forgev1.SearchHitList, error) {
	const tool = "forge_search_issues"
	repos, err := searchpage.Repos(tool, req.GetRepo(), c)
	if err != nil {
		return nil, err
	}
	for _, r := range repos {
		if err := checkRepo(r); err != nil {
			return nil, err
		}
	}
	cur, err := searchpage.Parse(tool, req.GetCursor(), 1, 0)
	if err != nil {
		return nil, err
	}
	args := []any{likePattern(req.GetQuery())}
	query := `SELECT r.name, i.number, i.kind, i.state, i.title, i.updated_at FROM local_items i JOIN local_repos r ON r.id = i.repo_id
		WHERE (lower(i.title) LIKE $1 ESCAPE '\' OR lower(i.body) LIKE $1 ESCAPE '\') AND r.name_key IN (`
	for n, r := range repos {
		if n > 0 {
			query += ", "
		}
		args = append(args, repoKey(r))
		query += "$" + strconv.Itoa(len(args))
	}
	query += ")"
	switch req.GetState() {
	case gatewayv1.IssueStateFilter_ISSUE_STATE_FILTER_UNSPECIFIED, gatewayv1.IssueStateFilter_ISSUE_STATE_FILTER_OPEN:
		query += ` AND i.state = 'open'`
	case gatewayv1.IssueStateFilter_ISSUE_STATE_FILTER_CLOSED:
		query += ` AND i.state <> 'open'`
	case gatewayv1.IssueStateFilter_ISSUE_STATE_FILTER_ALL:
	default:
		return nil, toolserver.InvalidArgument("unknown issue state filter %d", req.GetState())
	}
	switch req.GetKind() {
	case gatewayv1.SubscriptionKind_SUBSCRIPTION_KIND_UNSPECIFIED:
	case gatewayv1.SubscriptionKind_SUBSCRIPTION_KIND_ISSUE:
		query += ` AND i.kind = 'issue'`
	case gatewayv1.SubscriptionKind_SUBSCRIPTION_KIND_PULL_REQUEST:
		query += ` AND i.kind = 'pull'`
	default:
		return nil, toolserver.InvalidArgument("unknown kind %d", req.GetKind())
	}
	// One row past the page says whether another follows.
	args = append(args, searchpage.HitSize+1, cur.At)
	query += ` ORDER BY i.updated_at DESC, r.name_key, i.number DESC LIMIT $` + strconv.Itoa(len(args)-1) + ` OFFSET $` + strconv.Itoa(len(args))

	out := &forgev1.SearchHitList{}
	err = f.readOne(ctx, func(q querier) error {
		rows, err := q.QueryContext(ctx, query, args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var repo, kind, state, title string
			var number, updated int64
			if err := rows.Scan(&repo, &number, &kind, &state, &title, &updated); err != nil {
				return err
			}
			if len(out.Hits) == searchpage.HitSize {
				out.NextCursor = searchpage.Cursor{At: cur.At + searchpage.HitSize}.Format()
				break
			}
			hit := &forgev1.SearchHit{Forge: f.Ref(), Repo: repo, Number: uint64(number), Kind: "issue", State: state,
				Title: title, Url: f.itemURL(kind, repo, number), UpdatedAt: stamp(updated)}
			if kind == kindPull {
				hit.Kind = "pull_request"
			}
			out.Hits = append(out.Hits, hit)
		}
		return rows.Err()
	})
	return out, err
}

// likePattern is a LIKE pattern matching text that contains query,
// lower-cased, with LIKE's own characters escaped: the query is text,
// never a pattern.
func likePattern(query string) string {
	r := strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)
	return "%" + r.Replace(strings.ToLower(query)) + "%"
}

var _ gatewayv1handler.ForgeSearchHandler = (*Forge)(nil)
