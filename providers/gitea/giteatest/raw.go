package giteatest

import (
	"net/http"
)

// raw is GET .../raw/{path}?ref=: the file's bytes at a branch (its
// files), or at any commit of the history, as Gitea reads a ref that is
// a sha (a pull request's merge_base is one no branch may point at).
func (s *Server) raw(c *call) answer {
	ref, path := fakeOr(c.Query.Get("ref"), c.r.DefaultBranch), c.Value("path")
	if b := c.r.BranchAt(ref); b != "" {
		if body, found := c.r.Files[b][path]; found {
			return answer{Status: http.StatusOK, Raw: []byte(body)}
		}
		return s.notFound()
	}
	if cm := c.r.CommitAt(ref); cm != nil {
		if o, found := cm.Tree[path]; found && o.Kind == "" {
			return answer{Status: http.StatusOK, Raw: o.Content}
		}
	}
	return s.notFound()
}
