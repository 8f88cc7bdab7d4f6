package githubtest

import "fmt"

// Repository.issueOrPullRequest: the union GitHub answers for a number
// that may be either, so one query tells the kind and reads the page
// (the conversation of either, a pull request's reviews). An Issue models
// its number and its comments; a PullRequest is gqlPull's.

// gqlIssueOrPull resolves issueOrPullRequest(number:) in r: NOT_FOUND
// for no such number, or one transferred away (GitHub's GraphQL API does
// not follow a transfer).
func (s *Server) gqlIssueOrPull(r *repo) gqlField {
	return func(args map[string]any) (any, *gqlError) {
		n, _ := intArg(args, "number")
		it := itemN(r, n)
		if it == nil || it.Moved != nil {
			return nil, &gqlError{Type: "NOT_FOUND", Message: fmt.Sprintf("Could not resolve to an issue or pull request with the number of %d.", n)}
		}
		if it.Pull != nil {
			return s.gqlPull(r, it), nil
		}
		return s.gqlIssue(r, it), nil
	}
}

func (s *Server) gqlIssue(r *repo, it *item) *gqlObject {
	return &gqlObject{typename: "Issue", interfaces: []string{"Node", "Comment"}, fields: map[string]gqlField{
		"number":   constant(it.Number),
		"comments": s.gqlComments(r, it),
	}}
}

// gqlComments is an issue's or pull request's conversation, oldest first.
func (s *Server) gqlComments(r *repo, it *item) gqlField {
	return func(args map[string]any) (any, *gqlError) {
		items := make([]any, 0, len(it.Comments))
		for _, c := range it.Comments {
			items = append(items, s.gqlIssueComment(r, it, c))
		}
		return connection("IssueCommentConnection", items, args, nil)
	}
}
