package local

import (
	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	"github.com/forgetools/forgetools/internal/shown"
)

// How many items of each aggregate a read fetches: what the renderer shows
// (the results' (render).max_items), read from the same option, so a read
// of an issue with a thousand comments holds thirty.
var (
	shownIssueComments  = shown.Of(&forgev1.Issue{}, "comments")
	shownPullComments   = shown.Of(&forgev1.PullRequest{}, "comments")
	shownReviews        = shown.Of(&forgev1.PullRequest{}, "reviews")
	shownReviewComments = shown.Of(&forgev1.Review{}, "comments")
)
