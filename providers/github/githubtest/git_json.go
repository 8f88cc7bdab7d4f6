package githubtest

import (
	"encoding/base64"
	"fmt"
	"strings"

	"github.com/forgetools/forgetools/internal/forgemodel"
)

// The JSON shapes of the contents, commits, refs and merge endpoints, named
// and typed as in the documented examples under testdata/ (content_*.json,
// file_committed.json, ref_created.json, merged.json).

// maxJSONContent is the largest file the contents API returns in its JSON
// form; a larger one comes with encoding "none" and no content.
const maxJSONContent = 1 << 20

type contentLinksJSON struct {
	Self string  `json:"self"`
	Git  *string `json:"git"`
	HTML *string `json:"html"`
}

type contentJSON struct {
	Type            string           `json:"type"`
	Encoding        string           `json:"encoding,omitempty"`
	Target          string           `json:"target,omitempty"`
	SubmoduleGitURL string           `json:"submodule_git_url,omitempty"`
	Size            int              `json:"size"`
	Name            string           `json:"name"`
	Path            string           `json:"path"`
	Content         *string          `json:"content,omitempty"`
	SHA             string           `json:"sha"`
	URL             string           `json:"url"`
	GitURL          *string          `json:"git_url"`
	HTMLURL         *string          `json:"html_url"`
	DownloadURL     *string          `json:"download_url"`
	Links           contentLinksJSON `json:"_links"`
}

type commitAuthorJSON struct {
	Date  string `json:"date"`
	Name  string `json:"name"`
	Email string `json:"email"`
}

type commitRefJSON struct {
	URL     string `json:"url"`
	HTMLURL string `json:"html_url,omitempty"`
	SHA     string `json:"sha"`
}

type verificationJSON struct {
	Verified   bool    `json:"verified"`
	Reason     string  `json:"reason"`
	Signature  *string `json:"signature"`
	Payload    *string `json:"payload"`
	VerifiedAt *string `json:"verified_at"`
}

type gitCommitJSON struct {
	SHA          string           `json:"sha"`
	NodeID       string           `json:"node_id"`
	URL          string           `json:"url"`
	HTMLURL      string           `json:"html_url"`
	Author       commitAuthorJSON `json:"author"`
	Committer    commitAuthorJSON `json:"committer"`
	Message      string           `json:"message"`
	Tree         commitRefJSON    `json:"tree"`
	Parents      []commitRefJSON  `json:"parents"`
	Verification verificationJSON `json:"verification"`
}

type fileCommitJSON struct {
	Content contentJSON   `json:"content"`
	Commit  gitCommitJSON `json:"commit"`
}

type refObjectJSON struct {
	Type string `json:"type"`
	SHA  string `json:"sha"`
	URL  string `json:"url"`
}

type refJSON struct {
	Ref    string        `json:"ref"`
	NodeID string        `json:"node_id"`
	URL    string        `json:"url"`
	Object refObjectJSON `json:"object"`
}

type mergeJSON struct {
	SHA     string `json:"sha"`
	Merged  bool   `json:"merged"`
	Message string `json:"message"`
}

// contentJSON is one path at ref: a file's JSON form carries its content
// (base64, wrapped at 60 columns as GitHub does) when full; a listing's
// entries and large files do not. A submodule in a listing is a "file", as
// GitHub lists it.
func (s *Server) contentJSON(r *repo, ref string, e entry, full bool) contentJSON {
	full = full && e.Object != nil
	out := contentJSON{
		Type: "dir", Name: e.Name, Path: e.Path, SHA: e.SHA,
		URL: s.api("/repos/%s/contents/%s?ref=%s", r.Path, e.Path, ref),
	}
	gitURL := s.api("/repos/%s/git/trees/%s", r.Path, e.SHA)
	html := s.web("/%s/tree/%s/%s", r.Path, ref, e.Path)
	if f := e.Object; f != nil {
		out.Type, out.Size = f.Type(), len(f.Content)
		switch f.Kind {
		case "submodule":
			gitURL = s.api("/repos/%s/git/trees/%s", r.Path, e.SHA)
			if full {
				out.SubmoduleGitURL = f.Target
			} else {
				out.Type = "file"
			}
		case "symlink":
			if full {
				out.Target = f.Target
			}
			fallthrough
		default:
			gitURL = s.api("/repos/%s/git/blobs/%s", r.Path, e.SHA)
			html = s.web("/%s/blob/%s/%s", r.Path, ref, e.Path)
			out.DownloadURL = nullable(fmt.Sprintf("https://raw.githubusercontent.com/%s/%s/%s", r.Path, ref, e.Path))
		}
		if full && f.Kind == "" {
			out.Encoding, out.Content = "base64", nullable(wrap60(base64.StdEncoding.EncodeToString(f.Content)))
			if len(f.Content) > maxJSONContent {
				out.Encoding, out.Content = "none", new(string)
			}
		}
	}
	out.GitURL, out.HTMLURL = &gitURL, &html
	out.Links = contentLinksJSON{Self: out.URL, Git: out.GitURL, HTML: out.HTMLURL}
	return out
}

func wrap60(s string) string {
	var b strings.Builder
	for len(s) > 60 {
		b.WriteString(s[:60] + "\n")
		s = s[60:]
	}
	if s != "" {
		b.WriteString(s + "\n")
	}
	return b.String()
}

func (s *Server) gitCommitJSON(r *repo, c *commit) gitCommitJSON {
	who := commitAuthorJSON{Date: stamp(c.When), Name: c.Author, Email: c.Author + "@users.noreply.github.com"}
	out := gitCommitJSON{
		SHA: c.SHA, NodeID: "C_kwDO" + c.SHA[:12], URL: s.api("/repos/%s/git/commits/%s", r.Path, c.SHA),
		HTMLURL: s.web("/%s/commit/%s", r.Path, c.SHA), Author: who, Committer: who, Message: c.Message,
		Tree:         commitRefJSON{URL: s.api("/repos/%s/git/trees/%s", r.Path, forgemodel.TreeSHA(c.Tree)), SHA: forgemodel.TreeSHA(c.Tree)},
		Parents:      []commitRefJSON{},
		Verification: verificationJSON{Reason: "unsigned"},
	}
	for _, p := range c.Parents {
		out.Parents = append(out.Parents, commitRefJSON{
			URL: s.api("/repos/%s/git/commits/%s", r.Path, p), HTMLURL: s.web("/%s/commit/%s", r.Path, p), SHA: p,
		})
	}
	return out
}

func (s *Server) refJSON(r *repo, ref, sha string) refJSON {
	return refJSON{
		Ref: ref, NodeID: "REF_kwDO" + sha[:10], URL: s.api("/repos/%s/git/%s", r.Path, ref),
		Object: refObjectJSON{Type: "commit", SHA: sha, URL: s.api("/repos/%s/git/commits/%s", r.Path, sha)},
	}
}
