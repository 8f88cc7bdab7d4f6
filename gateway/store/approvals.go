package store

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/base32"
	"errors"
	"fmt"
	"strings"
	"time"
)

// The approval queue: calls the gateway's policy parked for an operator.
// The store keeps each one's request, as it will run, and its decision;
// the gateway decides what parks and runs what was approved.

// Approval states. A pending approval past its expiry reads as
// ApprovalExpired.
const (
	ApprovalPending = "pending"
	ApprovalRunning = "running" // approved; the parked call is running (or died running)
	ApprovalDone    = "done"    // approved and ran; Result or Error holds the outcome
	ApprovalDenied  = "denied"
	ApprovalExpired = "expired"
)

var (
	// ErrApprovalDecided: the approval was already approved or denied.
	ErrApprovalDecided = errors.New("the approval was already decided")
	// ErrApprovalExpired: the approval expired before it was decided.
	ErrApprovalExpired = errors.New("the approval expired before it was decided")
)

// Approval is one parked call.
type Approval struct {
	ID      string
	Account string
	Session string
	Tool    string
	Forge   string // described, e.g. "local"
	Repo    string
	// RequestType is the full name of the request envelope's message type;
	// Request its protobuf encoding, exactly as it will run.
	RequestType string
	Request     []byte
	// Digest identifies the call for repeats within the account.
	Digest      string
	Risk        string
	Escalations []string
	Holds       []Hold
	// Preview is what the gateway could say at park time about what the
	// call will do (its arguments, as text).
	Preview string
	Created time.Time
	Expires time.Time
	State   string
	// The decision: who, why and when.
	Operator string
	Reason   string
	Decided  time.Time
	// The outcome once it ran: the result arm's message (protobuf
	// encoding) or an in-band error code and message.
	Result       []byte
	ErrorCode    int32
	ErrorMessage string
	Finished     time.Time
}

// Hold is one rule that parked a call and why.
type Hold struct {
	Rule   string `json:"rule"`
	Reason string `json:"reason"`
}

const approvalColumns = `id, account, session, tool, forge, repo, request_type, request, digest, risk,
	escalations, holds, preview, created_ms, expires_ms, state, operator, reason, decided_ms,
	result, error_code, error_message, finished_ms`

// Park stores a as pending for ttl, unless the account already has a pending,
// unexpired approval with a's digest: then it returns that one and
// created false. A pending approval of that digest past its expiry is
// marked expired first, so the call parks anew.
func (s *Store) Park(ctx context.Context, a Approval, ttl time.Duration) (got Approval, created bool, err error) {
	id, err := newApprovalID()
	if err != nil {
		return Approval{}, false, err
	}
	now := s.now()
	a.ID, a.State, a.Created, a.Expires = id, ApprovalPending, now, now.Add(ttl)
	esc, holds, err := encodeLists(a.Escalations, a.Holds)
	if err != nil {
		return Approval{}, false, err
	}
	err = s.inTx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, s.q(`UPDATE gateway_approvals SET state = 'expired'
			WHERE account = ? AND digest = ? AND state = 'pending' AND expires_ms <= ?`), a.Account, a.Digest, millis(now)); err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, s.q(`INSERT INTO gateway_approvals (id, account, session, tool, forge, repo,
			request_type, request, digest, risk, escalations, holds, preview, created_ms, expires_ms, state)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'pending')
			ON CONFLICT (account, digest) WHERE state = 'pending' DO NOTHING`),
			a.ID, a.Account, a.Session, a.Tool, a.Forge, a.Repo, a.RequestType, a.Request, a.Digest, a.Risk,
			esc, holds, a.Preview, millis(now), millis(a.Expires))
		if err != nil {
			return err
		}
		n, err := res.RowsAffected()
		if err != nil {
			return err
		}
		created = n == 1
		got, err = s.scanApproval(tx.QueryRowContext(ctx, s.q(`SELECT `+approvalColumns+`
			FROM gateway_approvals WHERE account = ? AND digest = ? AND state = 'pending'`), a.Account, a.Digest))
		return err
	})
	if err != nil {
		return Approval{}, false, fmt.Errorf("park: %w", err)
	}
	return got, created, nil
}

// PendingCount is how many of account's approvals wait for an operator
// and have not expired: what the gateway's pending_approvals limit counts.
func (s *Store) PendingCount(ctx context.Context, account string) (int, error) {
	var n int
	err := s.db.QueryRowContext(ctx, s.q(`SELECT count(*) FROM gateway_approvals
		WHERE account = ? AND state = 'pending' AND expires_ms > ?`), account, millis(s.now())).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("count pending approvals: %w", err)
	}
	return n, nil
}

// Now is the store's clock (Options.Now), which approvals expire by.
func (s *Store) Now() time.Time { return s.now() }

// LatestApproval returns the account's newest approval of digest, or
// ErrNotFound.
func (s *Store) LatestApproval(ctx context.Context, account, digest string) (Approval, error) {
	a, err := s.scanApproval(s.db.QueryRowContext(ctx, s.q(`SELECT `+approvalColumns+`
		FROM gateway_approvals WHERE account = ? AND digest = ? ORDER BY created_ms DESC, id DESC LIMIT 1`), account, digest))
	if errors.Is(err, sql.ErrNoRows) {
		return Approval{}, ErrNotFound
	}
	return a, err
}

// GetApproval returns one approval by id, or ErrNotFound.
func (s *Store) GetApproval(ctx context.Context, id string) (Approval, error) {
	a, err := s.scanApproval(s.db.QueryRowContext(ctx, s.q(`SELECT `+approvalColumns+`
		FROM gateway_approvals WHERE id = ?`), id))
	if errors.Is(err, sql.ErrNoRows) {
		return Approval{}, ErrNotFound
	}
	if err != nil {
		return Approval{}, fmt.Errorf("approval %s: %w", id, err)
	}
	return a, nil
}

// ApprovalFilter narrows ListApprovals; the zero value lists every
// approval, newest first, up to 100.
type ApprovalFilter struct {
	// State is one of the Approval states ("" any). ApprovalPending
	// lists only unexpired ones; ApprovalExpired the pending ones past
	// their expiry.
	State   string
	Account string // "" any
	Limit   int    // <= 0: 100
}

// ListApprovals lists approvals, newest first.
func (s *Store) ListApprovals(ctx context.Context, f ApprovalFilter) ([]Approval, error) {
	var where []string
	var args []any
	now := millis(s.now())
	switch f.State {
	case "":
	case ApprovalPending:
		where, args = append(where, "state = 'pending' AND expires_ms > ?"), append(args, now)
	case ApprovalExpired:
		where, args = append(where, "(state = 'expired' OR (state = 'pending' AND expires_ms <= ?))"), append(args, now)
	case ApprovalRunning, ApprovalDone, ApprovalDenied:
		where, args = append(where, "state = ?"), append(args, f.State)
	default:
		return nil, fmt.Errorf("list approvals: unknown state %q (pending, running, done, denied or expired)", f.State)
	}
	if f.Account != "" {
		where, args = append(where, "account = ?"), append(args, f.Account)
	}
	limit := f.Limit
	if limit <= 0 {
		limit = 100
	}
	q := `SELECT ` + approvalColumns + ` FROM gateway_approvals`
	if len(where) > 0 {
		q += ` WHERE ` + strings.Join(where, " AND ")
	}
	q += fmt.Sprintf(` ORDER BY created_ms DESC, id DESC LIMIT %d`, limit)
	rows, err := s.db.QueryContext(ctx, s.q(q), args...)
	if err != nil {
		return nil, fmt.Errorf("list approvals: %w", err)
	}
	defer rows.Close()
	var out []Approval
	for rows.Next() {
		a, err := s.scanApproval(rows)
		if err != nil {
			return nil, fmt.Errorf("list approvals: %w", err)
		}
		out = append(out, a)
	}
	return out, rows.Err()
}

// ClaimApproval approves a pending, unexpired approval for operator and
// moves it to running, in one conditional statement: of any number of
// concurrent claims, on any replica, exactly one succeeds, and only it
// may run the call. The others get ErrApprovalDecided (or
// ErrApprovalExpired, or ErrNotFound for an unknown id).
func (s *Store) ClaimApproval(ctx context.Context, id, operator, reason string) (Approval, error) {
	return s.decide(ctx, id, ApprovalRunning, operator, reason)
}

// DenyApproval denies a pending, unexpired approval; errors as
// ClaimApproval.
func (s *Store) DenyApproval(ctx context.Context, id, operator, reason string) (Approval, error) {
	return s.decide(ctx, id, ApprovalDenied, operator, reason)
}

func (s *Store) decide(ctx context.Context, id, state, operator, reason string) (Approval, error) {
	now := millis(s.now())
	res, err := s.db.ExecContext(ctx, s.q(`UPDATE gateway_approvals SET state = ?, operator = ?, reason = ?, decided_ms = ?
		WHERE id = ? AND state = 'pending' AND expires_ms > ?`), state, operator, reason, now, id, now)
	if err != nil {
		return Approval{}, fmt.Errorf("decide approval %s: %w", id, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return Approval{}, fmt.Errorf("decide approval %s: %w", id, err)
	}
	a, err := s.GetApproval(ctx, id)
	if err != nil || n == 1 {
		return a, err
	}
	if a.State == ApprovalPending || a.State == ApprovalExpired {
		return a, ErrApprovalExpired
	}
	return a, ErrApprovalDecided
}

// FinishApproval records the outcome of a running approval's call:
// result (the result arm's encoding) on success, else code and message.
func (s *Store) FinishApproval(ctx context.Context, id string, result []byte, code int32, message string) error {
	_, err := s.db.ExecContext(ctx, s.q(`UPDATE gateway_approvals SET state = 'done', result = ?, error_code = ?,
		error_message = ?, finished_ms = ? WHERE id = ? AND state = 'running'`), result, code, message, millis(s.now()), id)
	if err != nil {
		return fmt.Errorf("finish approval %s: %w", id, err)
	}
	return nil
}

func (s *Store) scanApproval(row interface{ Scan(...any) error }) (Approval, error) {
	var (
		a                                   Approval
		esc, holds                          string
		created, expires, decided, finished int64
	)
	err := row.Scan(&a.ID, &a.Account, &a.Session, &a.Tool, &a.Forge, &a.Repo, &a.RequestType, &a.Request, &a.Digest,
		&a.Risk, &esc, &holds, &a.Preview, &created, &expires, &a.State, &a.Operator, &a.Reason, &decided,
		&a.Result, &a.ErrorCode, &a.ErrorMessage, &finished)
	if err != nil {
		return Approval{}, err
	}
	if err := decodeLists(esc, holds, &a); err != nil {
		return Approval{}, err
	}
	a.Created, a.Expires = fromMillis(created), fromMillis(expires)
	if decided != 0 {
		a.Decided = fromMillis(decided)
	}
	if finished != 0 {
		a.Finished = fromMillis(finished)
	}
	if a.State == ApprovalPending && !s.now().Before(a.Expires) {
		a.State = ApprovalExpired
	}
	return a, nil
}

// approvalAlphabet is lower-case base32 without padding: an id a person
// can read out and type.
var approvalAlphabet = base32.NewEncoding("abcdefghijklmnopqrstuvwxyz234567").WithPadding(base32.NoPadding)

// newApprovalID is "ap-" and 16 random characters (80 bits).
func newApprovalID() (string, error) {
	var b [10]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	return "ap-" + approvalAlphabet.EncodeToString(b[:]), nil
}
