package linear

// The GraphQL operations this provider sends, each a named constant, and
// the typed shapes of their variables and answers. Field names follow
// Linear's public schema (https://api.linear.app/graphql, introspectable).

// issueFields is what every issue answer carries. labels and comments are
// connections: an explicit first keeps Linear's complexity cost bounded
// (its default page is 50).
const issueFields = `
fragment IssueFields on Issue {
  id
  identifier
  number
  title
  description
  url
  createdAt
  state { type }
  team { key }
  creator { name displayName }
  labels(first: 50) { nodes { name } }
}`

// queryIssue reads one issue by identifier ("ENG-123") or by UUID: Linear's
// issue(id:) accepts both. It fetches the comments the renderer shows
// ($comments) and whether there are more; Linear gives no count, so
// queryCommentIDs counts the rest by id alone.
const queryIssue = `query Issue($id: String!, $comments: Int!) {
  issue(id: $id) {
    ...IssueFields
    comments(first: $comments) { nodes { body url createdAt user { name displayName } } pageInfo { hasNextPage endCursor } }
  }
}` + issueFields

// queryCommentIDs pages an issue's comments by id, to count them.
const queryCommentIDs = `query CommentIDs($id: String!, $after: String) {
  issue(id: $id) { comments(first: 250, after: $after) { nodes { id } pageInfo { hasNextPage endCursor } } }
}`

// countPageLimit bounds the id pages one count reads (2,500 comments past
// the shown ones); past it the count is a lower bound.
const countPageLimit = 10

type pageInfo struct {
	HasNextPage bool   `json:"hasNextPage"`
	EndCursor   string `json:"endCursor"`
}

// next is the cursor of the page after this one, "" when it is the last.
func (pi pageInfo) next() string {
	if !pi.HasNextPage {
		return ""
	}
	return pi.EndCursor
}

type commentIDsAnswer struct {
	Issue *struct {
		Comments struct {
			Nodes    []struct{ ID string } `json:"nodes"`
			PageInfo pageInfo              `json:"pageInfo"`
		} `json:"comments"`
	} `json:"issue"`
}

type issueVars struct {
	ID       string `json:"id"`
	Comments int    `json:"comments"`
}

type afterVars struct {
	ID    string  `json:"id"`
	After *string `json:"after"`
}

// queryIssueRef resolves an identifier to the UUID commentCreate needs.
const queryIssueRef = `query IssueRef($id: String!) {
  issue(id: $id) { id identifier number team { key } }
}`

// queryTeamByKey finds a team by key. Linear's team(id:) takes only the
// team's UUID, so the key goes through the teams filter.
const queryTeamByKey = `query TeamByKey($key: String!) {
  teams(filter: { key: { eq: $key } }, first: 1) { nodes { id key } }
}`

// queryLabels finds labels by name among the team's labels and the
// workspace-wide ones (labels without a team).
const queryLabels = `query Labels($filter: IssueLabelFilter!) {
  issueLabels(filter: $filter, first: 100) { nodes { id name team { id } } }
}`

// queryIssues lists a team's issues, the page after $after (none: the
// first). orderBy createdAt returns the newest first.
const queryIssues = `query Issues($filter: IssueFilter!, $first: Int!, $after: String) {
  issues(filter: $filter, first: $first, after: $after, orderBy: createdAt) { nodes { ...IssueFields } pageInfo { hasNextPage endCursor } }
}` + issueFields

// queryComments reads one page of an issue's comments, after $after
// (none: the first), with the issue's team (the gateway scoped the call
// by it).
const queryComments = `query Comments($id: String!, $first: Int!, $after: String) {
  issue(id: $id) {
    team { key }
    comments(first: $first, after: $after) { nodes { body url createdAt user { name displayName } } pageInfo { hasNextPage endCursor } }
  }
}`

type commentsVars struct {
	ID    string  `json:"id"`
	First int     `json:"first"`
	After *string `json:"after"`
}

type commentsAnswer struct {
	Issue *struct {
		Team struct {
			Key string `json:"key"`
		} `json:"team"`
		Comments struct {
			Nodes    []commentNode `json:"nodes"`
			PageInfo pageInfo      `json:"pageInfo"`
		} `json:"comments"`
	} `json:"issue"`
}

// mutationIssueCreate files an issue.
const mutationIssueCreate = `mutation IssueCreate($input: IssueCreateInput!) {
  issueCreate(input: $input) { success issue { ...IssueFields } }
}` + issueFields

// mutationCommentCreate posts a comment.
const mutationCommentCreate = `mutation CommentCreate($input: CommentCreateInput!) {
  commentCreate(input: $input) { success comment { id url } }
}`

// queryComment reads a comment by UUID: the replay probe after a
// commentCreate whose client-chosen id already exists.
const queryComment = `query Comment($id: String!) {
  comment(id: $id) { id url issue { id } }
}`

// Answers.

type user struct {
	Name        string `json:"name"`
	DisplayName string `json:"displayName"`
}

type issueNode struct {
	ID          string  `json:"id"`
	Identifier  string  `json:"identifier"`
	Number      float64 `json:"number"` // a GraphQL Float in Linear's schema
	Title       string  `json:"title"`
	Description *string `json:"description"`
	URL         string  `json:"url"`
	CreatedAt   string  `json:"createdAt"`
	State       struct {
		Type string `json:"type"`
	} `json:"state"`
	Team struct {
		Key string `json:"key"`
	} `json:"team"`
	Creator *user `json:"creator"`
	Labels  struct {
		Nodes []labelNode `json:"nodes"`
	} `json:"labels"`
	Comments struct {
		Nodes    []commentNode `json:"nodes"`
		PageInfo pageInfo      `json:"pageInfo"`
	} `json:"comments"`
}

type labelNode struct {
	Name string `json:"name"`
}

type commentNode struct {
	Body      string `json:"body"`
	URL       string `json:"url"`
	CreatedAt string `json:"createdAt"`
	User      *user  `json:"user"`
}

type issueAnswer struct {
	Issue *issueNode `json:"issue"`
}

type issueRefAnswer struct {
	Issue *struct {
		ID         string  `json:"id"`
		Identifier string  `json:"identifier"`
		Number     float64 `json:"number"`
		Team       struct {
			Key string `json:"key"`
		} `json:"team"`
	} `json:"issue"`
}

type teamsAnswer struct {
	Teams struct {
		Nodes []team `json:"nodes"`
	} `json:"teams"`
}

type labelsAnswer struct {
	IssueLabels struct {
		Nodes []struct {
			ID   string `json:"id"`
			Name string `json:"name"`
			Team *struct {
				ID string `json:"id"`
			} `json:"team"`
		} `json:"nodes"`
	} `json:"issueLabels"`
}

type issuesAnswer struct {
	Issues struct {
		Nodes    []issueNode `json:"nodes"`
		PageInfo pageInfo    `json:"pageInfo"`
	} `json:"issues"`
}

type issueCreateAnswer struct {
	IssueCreate struct {
		Success bool       `json:"success"`
		Issue   *issueNode `json:"issue"`
	} `json:"issueCreate"`
}

type commentCreateAnswer struct {
	CommentCreate struct {
		Success bool `json:"success"`
		Comment *struct {
			ID  string `json:"id"`
			URL string `json:"url"`
		} `json:"comment"`
	} `json:"commentCreate"`
}

type commentAnswer struct {
	Comment *struct {
		ID    string `json:"id"`
		URL   string `json:"url"`
		Issue *struct {
			ID string `json:"id"`
		} `json:"issue"`
	} `json:"comment"`
}

// Variables.

type idVars struct {
	ID string `json:"id"`
}

type keyVars struct {
	Key string `json:"key"`
}

type filterVars[F any] struct {
	Filter F    `json:"filter"`
	First  *int `json:"first,omitempty"`
	// After is the cursor of the page before, for a query that pages.
	After *string `json:"after,omitempty"`
}

type inputVars[I any] struct {
	Input I `json:"input"`
}

// issueCreateInput is Linear's IssueCreateInput, the fields we set.
type issueCreateInput struct {
	ID          string   `json:"id,omitempty"`
	TeamID      string   `json:"teamId"`
	Title       string   `json:"title"`
	Description string   `json:"description,omitempty"`
	LabelIDs    []string `json:"labelIds,omitempty"`
}

// commentCreateInput is Linear's CommentCreateInput, the fields we set.
type commentCreateInput struct {
	ID      string `json:"id,omitempty"`
	IssueID string `json:"issueId"`
	Body    string `json:"body"`
}

// Filters: Linear's IssueFilter and IssueLabelFilter, the parts we use.

type stringCmp struct {
	Eq  string   `json:"eq,omitempty"`
	In  []string `json:"in,omitempty"`
	Nin []string `json:"nin,omitempty"`
}

type idCmp struct {
	Eq string `json:"eq"`
}

// teamRef is TeamFilter (NullableTeamFilter for a label): a team by id
// or by key, or (Null, nullable only) no team at all.
type teamRef struct {
	ID   *idCmp     `json:"id,omitempty"`
	Key  *stringCmp `json:"key,omitempty"`
	Null *bool      `json:"null,omitempty"`
}

type issueFilter struct {
	Team   *teamRef       `json:"team,omitempty"`
	State  *stateFilter   `json:"state,omitempty"`
	Labels *labelsFilter  `json:"labels,omitempty"`
	And    []*issueFilter `json:"and,omitempty"`
}

type stateFilter struct {
	Type stringCmp `json:"type"`
}

// labelsFilter is IssueLabelCollectionFilter: some = at least one of the
// issue's labels matches.
type labelsFilter struct {
	Some labelFilter `json:"some"`
}

type labelFilter struct {
	Name *stringCmp     `json:"name,omitempty"`
	Team *teamRef       `json:"team,omitempty"`
	And  []*labelFilter `json:"and,omitempty"`
	Or   []*labelFilter `json:"or,omitempty"`
}
