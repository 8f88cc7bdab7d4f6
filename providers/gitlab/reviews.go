package gitlab

import (
	"context"
	"fmt"
	"strconv"

	gl "gitlab.com/gitlab-org/api/client-go"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/toolserver"
)

// NoRequestChanges is what GitLab cannot express, as the provider notes
// say it: GitLab's REST API records approvals and discussions, not a
// blocking "changes requested" verdict.
const NoRequestChanges = "GitLab records no request_changes verdict: the summary and inline comments are posted as discussions, and the review is acknowledged as a comment"

// SubmitReview is, on GitLab, an approval plus discussions, all under the
// reviewer credential when one is configured:
//
//   - approve approves the merge request at the head the agent read (the
//     approval is refused if the head moved);
//   - every verdict then posts the summary as a note, and each inline
//     comment as a discussion anchored at its line of the diff, with the
//     base, start and head shas of the merge request's diff refs.
//
// GitLab has no blocking "changes requested" state in its REST API, so
// request_changes is posted as comments and acknowledged as one: the ack
// never claims a verdict GitLab did not record. When a step fails after an
// earlier one was recorded, the error says what was.
func (p *Provider) SubmitReview(ctx context.Context, _ toolserver.Call, req *gatewayv1.SubmitReviewRequest) (*forgev1.ReviewRef, error) {
	repo, n, err := target(req.GetRepo(), req.GetPullNumber(), "merge request")
	if err != nil {
		return nil, err
	}
	lines := make([]int64, len(req.GetComments()))
	for i, c := range req.GetComments() {
		if lines[i], err = iid(c.GetLine(), fmt.Sprintf("comments[%d]: line", i)); err != nil {
			return nil, err
		}
	}
	c := p.reviewer
	return call(ctx, p, fmt.Sprintf("review merge request %s!%d", repo, n), func(ro gl.RequestOptionFunc) (*forgev1.ReviewRef, error) {
		mr, resp, err := c.MergeRequests.GetMergeRequest(repo.String(), n, nil, ro)
		if err != nil {
			return nil, fail(resp, err)
		}
		verdict, done := "comment", ""
		if req.GetVerdict() == gatewayv1.Verdict_VERDICT_APPROVE {
			if _, resp, err := c.MergeRequestApprovals.ApproveMergeRequest(repo.String(), n,
				&gl.ApproveMergeRequestOptions{SHA: ptr(mr.SHA)}, ro); err != nil {
				return nil, fail(resp, err)
			}
			verdict, done = "approve", "the approval"
		}
		out := &forgev1.ReviewRef{Forge: p.Ref(), Repo: repo.String(), Number: uint64(n), Verdict: verdict, Url: mr.WebURL}
		if req.GetBody() != "" {
			note, resp, err := c.Notes.CreateMergeRequestNote(repo.String(), n, &gl.CreateMergeRequestNoteOptions{Body: ptr(req.GetBody())}, ro)
			if err != nil {
				return nil, partial(p.mapError("post the review summary", fail(resp, err)), done)
			}
			out.ReviewId = strconv.FormatInt(note.ID, 10)
			out.Url = mr.WebURL + "#note_" + out.ReviewId
			done = join(done, "the summary")
		}
		refs := mr.DiffRefs
		for i, rc := range req.GetComments() {
			pos := &gl.PositionOptions{
				BaseSHA: ptr(refs.BaseSha), StartSHA: ptr(refs.StartSha), HeadSHA: ptr(refs.HeadSha),
				PositionType: ptr("text"), NewPath: ptr(rc.GetPath()), OldPath: ptr(rc.GetPath()),
			}
			if rc.GetSide() == gatewayv1.Side_SIDE_LEFT {
				pos.OldLine = ptr(lines[i])
			} else {
				pos.NewLine = ptr(lines[i])
			}
			d, resp, err := c.Discussions.CreateMergeRequestDiscussion(repo.String(), n,
				&gl.CreateMergeRequestDiscussionOptions{Body: ptr(rc.GetBody()), Position: pos}, ro)
			if err != nil {
				return nil, partial(p.mapError(fmt.Sprintf("post inline comment %d (%s:%d)", i, rc.GetPath(), lines[i]), fail(resp, err)),
					join(done, fmt.Sprintf("%d of %d inline comments", i, len(req.GetComments()))))
			}
			if out.ReviewId == "" && len(d.Notes) > 0 {
				out.ReviewId = strconv.FormatInt(d.Notes[0].ID, 10)
				out.Url = mr.WebURL + "#note_" + out.ReviewId
			}
		}
		if out.ReviewId == "" {
			// A bare approval: GitLab gives it no id of its own.
			out.ReviewId = "approval-" + strconv.FormatInt(mr.IID, 10)
		}
		return out, nil
	})
}

// partial says what GitLab had recorded before a step failed.
func partial(e *toolserver.Error, done string) error {
	if done != "" {
		e.Message += "; GitLab had already recorded " + done
	}
	return e
}

func join(a, b string) string {
	if a == "" {
		return b
	}
	return a + " and " + b
}
