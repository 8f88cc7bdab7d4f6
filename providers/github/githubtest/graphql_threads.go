package githubtest

import (
	"fmt"
	"slices"

	"github.com/forgetools/forgetools/internal/forgemodel"
)

// Review threads over GraphQL, and the mutations on them and on drafts.
//
// A thread is an inline comment of a review and the replies that follow
// it in the same review on the same line and side (a reply is a review
// comment with its own Author); its node id is PRRT_kwDO<first comment
// id>, and the first comment's Resolver says it is resolved. Query.node
// resolves a thread's id (any other id is NOT_FOUND, as GitHub answers for
// an id it cannot resolve). The mutations are
// addPullRequestReviewThreadReply (the reply joins the thread's review),
// resolveReviewThread, unresolveReviewThread and
// markPullRequestReadyForReview, each answering its payload as GitHub
// does, or NOT_FOUND for an id that is no such node. A thread is
// outdated once a push changes its line (outdated.go).

// thread is one review thread: its comments, the opening one first.
type thread struct{ comments []inline }

func (t *thread) first() inline { return t.comments[0] }

func (t *thread) id() string { return fmt.Sprintf("PRRT_kwDO%d", t.first().ID) }

// threads are a pull request's review threads, in the order opened.
func threads(p *pull) []*thread {
	var out []*thread
	for _, v := range p.Reviews {
		open := map[string]*thread{}
		for _, c := range v.Comments {
			line, side := c.Line()
			key := fmt.Sprintf("%s\x00%d\x00%s", c.Path, line, side)
			if t := open[key]; t != nil && c.Author != "" {
				t.comments = append(t.comments, inline{c, v})
				continue
			}
			t := &thread{comments: []inline{{c, v}}}
			open[key] = t
			out = append(out, t)
		}
	}
	return out
}

// threadByID finds the thread a node id names, with its repository and
// pull request.
func (s *Server) threadByID(id string) (*repo, *item, *thread) {
	var first int64
	if _, err := fmt.Sscanf(id, "PRRT_kwDO%d", &first); err != nil || fmt.Sprintf("PRRT_kwDO%d", first) != id {
		return nil, nil, nil
	}
	for _, r := range s.Repos {
		for _, it := range r.Items {
			if it.Pull == nil {
				continue
			}
			for _, t := range threads(it.Pull) {
				if t.first().ID == first {
					return r, it, t
				}
			}
		}
	}
	return nil, nil, nil
}

// pullByID finds the pull request a node id (PR_kwDO<id>) names.
func (s *Server) pullByID(id string) (*repo, *item) {
	for _, r := range s.Repos {
		for _, it := range r.Items {
			if it.Pull != nil && fmt.Sprintf("PR_kwDO%d", it.Pull.ID) == id {
				return r, it
			}
		}
	}
	return nil, nil
}

func noNode(id any) *gqlError {
	return &gqlError{Type: "NOT_FOUND", Message: fmt.Sprintf("Could not resolve to a node with the global id of '%v'", id)}
}

// gqlNode is Query.node: a review thread by its id.
func (s *Server) gqlNode(args map[string]any) (any, *gqlError) {
	id, _ := args["id"].(string)
	r, it, t := s.threadByID(id)
	if t == nil {
		return nil, noNode(id)
	}
	return s.gqlThread(r, it, t), nil
}

func (s *Server) gqlThread(r *repo, it *item, t *thread) *gqlObject {
	_, side := t.first().Line()
	at := placeOf(r, it, t.first())
	return &gqlObject{typename: "PullRequestReviewThread", interfaces: []string{"Node"}, fields: map[string]gqlField{
		"id":           constant(t.id()),
		"diffSide":     constant(side),
		"path":         constant(t.first().Path),
		"line":         constant(at.line),
		"originalLine": constant(at.original),
		"isResolved":   constant(t.first().Resolver != ""),
		"isOutdated":   constant(at.outdated),
		"pullRequest":  func(map[string]any) (any, *gqlError) { return s.gqlPull(r, it), nil },
		"comments": func(args map[string]any) (any, *gqlError) {
			items := make([]any, 0, len(t.comments))
			for _, c := range t.comments {
				items = append(items, s.gqlReviewComment(r, it, c))
			}
			return connection("PullRequestReviewCommentConnection", items, args, nil)
		},
	}}
}

// gqlMutationRoot is the Mutation object for a login.
func (s *Server) gqlMutationRoot(login string) *gqlObject {
	resolve := func(resolved bool) gqlField {
		return func(args map[string]any) (any, *gqlError) {
			in, _ := args["input"].(map[string]any)
			r, it, t := s.threadByID(fmt.Sprint(in["threadId"]))
			if t == nil {
				return nil, noNode(in["threadId"])
			}
			t.first().Resolver = ""
			if resolved {
				t.first().Resolver = login
			}
			it.Updated = s.Tick()
			return &gqlObject{typename: "ResolveReviewThreadPayload", fields: map[string]gqlField{
				"thread": constant(s.gqlThread(r, it, t)),
			}}, nil
		}
	}
	return &gqlObject{typename: "Mutation", fields: map[string]gqlField{
		"resolveReviewThread":   resolve(true),
		"unresolveReviewThread": resolve(false),
		"addPullRequestReviewThreadReply": func(args map[string]any) (any, *gqlError) {
			in, _ := args["input"].(map[string]any)
			r, it, t := s.threadByID(fmt.Sprint(in["pullRequestReviewThreadId"]))
			if t == nil {
				return nil, noNode(in["pullRequestReviewThreadId"])
			}
			body, _ := in["body"].(string)
			if body == "" {
				return nil, &gqlError{Type: "UNPROCESSABLE", Message: "Body can't be blank"}
			}
			open := t.first()
			rc := &forgemodel.ReviewComment{ID: s.ID(), Path: open.Path, NewLine: open.NewLine, OldLine: open.OldLine, Body: body, Author: login}
			s.User(login)
			last := t.comments[len(t.comments)-1].ReviewComment
			v := open.review
			at := slices.Index(v.Comments, last) + 1
			v.Comments = slices.Insert(v.Comments, at, rc)
			it.Updated = s.Tick()
			reply := inline{rc, v}
			s.emit(r, "pull_request_review_comment", s.payload("created", login, "comment", s.reviewCommentJSON(r, it, reply), "pull_request", s.pullJSON(r, it)))
			return &gqlObject{typename: "AddPullRequestReviewThreadReplyPayload", fields: map[string]gqlField{
				"comment": constant(s.gqlReviewComment(r, it, reply)),
			}}, nil
		},
		"markPullRequestReadyForReview": func(args map[string]any) (any, *gqlError) {
			in, _ := args["input"].(map[string]any)
			r, it := s.pullByID(fmt.Sprint(in["pullRequestId"]))
			if it == nil {
				return nil, noNode(in["pullRequestId"])
			}
			if it.Pull.Draft {
				it.Pull.Draft = false
				it.Updated = s.Tick()
				s.itemEvent(r, it, "ready_for_review", login)
			}
			return &gqlObject{typename: "MarkPullRequestReadyForReviewPayload", fields: map[string]gqlField{
				"pullRequest": constant(s.gqlPull(r, it)),
			}}, nil
		},
	}}
}
