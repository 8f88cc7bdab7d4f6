package notify

import (
	"errors"
	"time"
)

// The shapes a forge's poll and webhook reader report in. The interfaces
// they satisfy belong to the subscriptions tier (poll.Source,
// webhook.Source), which names these types under its own names.

// PollTarget is the artifact to poll.
type PollTarget struct {
	Repo   string
	Kind   Kind // KindIssue or KindPullRequest
	Number uint64
	// Since is when the watch began.
	Since time.Time
}

// PollResult is what a poll found.
type PollResult struct {
	Changes []Change
	// State is what the next poll gets as prev.
	State []byte
}

// Errors a webhook source's Authenticate returns for a delivery to refuse.
var (
	ErrUnsigned     = errors.New("the delivery carries no signature")
	ErrBadSignature = errors.New("the delivery's signature does not match the secret")
)

// Delivery is what one webhook delivery reports.
type Delivery struct {
	// Repo is the repository it came from; "" when it names none.
	Repo string
	// Reports are the changes to issues and pull requests in Repo.
	Reports []Report
}

// Report is the changes to one issue or pull request.
type Report struct {
	Kind    Kind // KindIssue or KindPullRequest
	Number  uint64
	Changes []Change
}
