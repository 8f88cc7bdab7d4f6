package gateway

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/forgetools/forgetools/gateway/store"
	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	"github.com/forgetools/forgetools/toolserver"
)

// The information-flow rules, per session, with their state in the store:
//
//   - Private to public: once a session has read from a repository its
//     forge reports private or internal (or cannot say: asked when a
//     write needs it, unless known when the read was made), a write that
//     publishes (approval write or push, and an action class that is not a
//     read's, so not a subscription) to a repository the forge reports
//     public (or cannot say) waits for an operator. A write back into a
//     repository the session read is no flow out of it, so it is never
//     held for that read.
//   - Untrusted content: once a session has read text (a RENDER_FENCED
//     field) written by an author outside the account's trusted authors,
//     its pushes (approval push: branches, file writes, merges) wait for an
//     operator, whatever the policy allows.
//
// A read is recorded before its result is returned: when the store cannot
// record it, the read fails rather than leave the session untainted.

// FlowRules configure an account's information-flow rules. The zero value
// turns both rules on and trusts the account's own handles.
type FlowRules struct {
	// AllowPrivateToPublic turns the private-to-public rule off.
	AllowPrivateToPublic bool
	// AllowUntrustedContent turns the untrusted-content rule off.
	AllowUntrustedContent bool
	// TrustedAuthors are the authors whose text does not taint a session:
	// forge logins (matched ignoring case), "org:NAME" for the members of
	// an organisation, and "collaborators:write" for the logins with write
	// permission on the repository the text is in, as the forge says
	// (toolserver.AuthorVouch; a forge that cannot say trusts no one by
	// them). Nil means the account's own handles: its name (the author the
	// local forge records), agent handle and owner handle; a list replaces
	// them, so list them too if they are the account's logins. An empty,
	// non-nil list trusts nobody.
	TrustedAuthors []string
}

// validLogin is a forge login as the flow rules name it in messages:
// GitHub's and GitLab's characters, and a bot's "[bot]" suffix.
func validLogin(s string) bool {
	return s != "" && len(s) <= 100 && allIn(s, "-_.[]")
}

// flowState is the Service's part of the rules: each table's facts and
// the visibility cache.
type flowState struct {
	tables     map[*toolserver.Table]*flowTable
	visibility visibilityCache
	trust      trustCache
	// recorded remembers reads already in the store, so a session reading
	// the same thing again costs no write.
	recorded sync.Map // store.FlowRead (Read zero) -> struct{}
	size     int64
	sizeMu   sync.Mutex
}

// maxRecorded bounds flowState.recorded; past it, it starts over (the
// store ignores a read it already has).
const maxRecorded = 100000

func newFlowState(tables []*toolserver.Table) *flowState {
	fs := &flowState{tables: map[*toolserver.Table]*flowTable{}}
	fs.visibility.now = time.Now
	fs.trust.now = time.Now
	for _, t := range tables {
		fs.tables[t] = newFlowTable(t)
	}
	return fs
}

// flowHolds returns the information-flow rules that hold o, a call that
// has passed every check. Reads are never held; a write is checked against
// what its session has read.
func (s *Service) flowHolds(ctx context.Context, o *operation) ([]hold, error) {
	level := o.arm.Approval
	rules := o.acct.Flow
	private := !rules.AllowPrivateToPublic && (level == toolserver.ApprovalWrite || level == toolserver.ApprovalPush) &&
		!s.flow.tables[o.table].reads[o.arm]
	untrusted := !rules.AllowUntrustedContent && level == toolserver.ApprovalPush
	if private {
		// A target the cache knows is private or internal takes no hold
		// (privateHold asks the same cache first), whatever was read.
		if v, ok := s.flow.visibility.get(keyOf(o.ref, o.repo)); ok && v != visibilityPublic && v != visibilityUnknown {
			private = false
		}
	}
	if !private && !untrusted {
		return nil, nil
	}
	// The store is the truth (another replica may have recorded this
	// session's reads), so it is asked every time, but first for one row
	// that could matter: an untrusted read, or a read of somewhere other
	// than the target. No such row means neither rule below could hold.
	maybe, err := s.store.FlowReadsAnyOf(ctx, o.acct.Name, o.id.Session, untrusted, private, store.ForgeOf(o.ref), o.repo)
	if err != nil || !maybe {
		return nil, err
	}
	reads, err := s.store.FlowReads(ctx, o.acct.Name, o.id.Session)
	if err != nil || len(reads) == 0 {
		return nil, err
	}
	var holds []hold
	if untrusted {
		if h, ok := untrustedHold(reads); ok {
			holds = append(holds, h)
		}
	}
	if private {
		if h, ok := s.privateHold(ctx, o, reads); ok {
			holds = append(holds, h)
		}
	}
	return holds, nil
}

// maxLookups bounds the visibility reads one check can cause.
const maxLookups = 20

// maxNamed bounds how many reads a hold's reason names.
const maxNamed = 5

func untrustedHold(reads []store.FlowRead) (hold, bool) {
	var named []string
	n := 0
	for _, r := range reads {
		if !r.Untrusted {
			continue
		}
		if n++; n <= maxNamed {
			named = append(named, fmt.Sprintf("%s %s %s by %s", r.Tool, r.Repo, r.Artifact, r.Author))
		}
	}
	if n == 0 {
		return hold{}, false
	}
	return hold{rule: "flow: untrusted content", reason: fmt.Sprintf(
		"this session read text by authors outside the account's trusted authors (%s%s), so its pushes need an operator",
		strings.Join(named, "; "), more(n))}, true
}

// privateHold holds a write to a public (or unknown) repository after the
// session read a private, internal (or unknown) one other than it.
func (s *Service) privateHold(ctx context.Context, o *operation, reads []store.FlowRead) (hold, bool) {
	target := keyOf(o.ref, o.repo)
	var candidates []store.FlowRead
	for _, r := range reads {
		if !r.Untrusted && keyOf(r.Forge.Ref(), r.Repo) != target {
			candidates = append(candidates, r)
		}
	}
	if len(candidates) == 0 {
		return hold{}, false
	}
	tv := s.visibility(ctx, o, o.ref, o.repo)
	if tv != visibilityPublic && tv != visibilityUnknown {
		return hold{}, false
	}
	var named []string
	n := 0
	lookups := 0
	for _, r := range candidates {
		v := normalVisibility(r.Visibility)
		if r.Visibility == "" {
			// Only the account's own repositories are asked about, and at
			// most maxLookups per check: rows naming others (from a
			// hostile forge's result) cost no forge calls; they stay
			// unknown.
			if lookups++; lookups <= maxLookups && o.sc.allowsRepo(r.Forge.Ref(), r.Repo) {
				v = s.visibility(ctx, o, r.Forge.Ref(), r.Repo)
			}
		}
		if v == visibilityPublic {
			continue
		}
		if n++; n <= maxNamed {
			named = append(named, fmt.Sprintf("%s %s (%s, read with %s)", describe(r.Forge.Ref()), r.Repo, v, r.Tool))
		}
	}
	if n == 0 {
		return hold{}, false
	}
	return hold{rule: "flow: private to public", reason: fmt.Sprintf(
		"this session read %s%s and this call writes to %s %s (%s)",
		strings.Join(named, "; "), more(n), describe(o.ref), o.repo, tv)}, true
}

func more(n int) string {
	if n <= maxNamed {
		return ""
	}
	return fmt.Sprintf("; and %d more", n-maxNamed)
}

// recordReads writes down what a successful read showed the session: the
// repository it read from, and each text in the result by an untrusted
// author. It runs before the result is returned; its failure fails the
// call, so no read goes unrecorded.
func (s *Service) recordReads(ctx context.Context, o *operation, out proto.Message) error {
	if o.arm.Approval != toolserver.ApprovalRead {
		return nil
	}
	rules := o.acct.Flow
	if rules.AllowPrivateToPublic && rules.AllowUntrustedContent {
		return nil
	}
	at := place{ref: o.ref, repo: o.repo}
	if at.ref == nil {
		at.ref = &forgev1.ForgeRef{}
	}
	// Room for a typical read's places and texts (an issue and its
	// comments), so the walk does not regrow its slices on every call.
	var placeBuf [4]place
	var textBuf [8]authoredText
	places, texts := readsOf(out.ProtoReflect(), at, "", placeBuf[:0], textBuf[:0])
	if o.repo != "" && o.ref != nil {
		s.noteVisibility(out.ProtoReflect(), o.ref, o.repo)
		places = append(places, at)
	}
	var reads []store.FlowRead
	read := func(pl place) store.FlowRead {
		return store.FlowRead{Account: o.acct.Name, Session: o.id.Session, Forge: store.ForgeOf(pl.ref), Repo: pl.repo, Tool: o.tool}
	}
	if !rules.AllowPrivateToPublic {
		seen := map[visibilityKey]bool{}
		for _, pl := range places {
			k := keyOf(pl.ref, pl.repo)
			if seen[k] || pl.ref.GetProvider() == 0 || !validRepo(pl.repo) {
				continue
			}
			seen[k] = true
			// A read makes no forge call of its own: the visibility is
			// recorded when already known (a forge_get_repo result, an
			// earlier check), else asked for when a write needs it.
			v, _ := s.flow.visibility.get(k)
			if v != visibilityPublic {
				r := read(pl)
				r.Visibility = v
				reads = append(reads, r)
			}
		}
	}
	if !rules.AllowUntrustedContent {
		authors := authorTrust{s: s, o: o}
		for _, t := range texts {
			if authors.trusted(ctx, t.place.ref, t.place.repo, t.author) {
				continue
			}
			r := read(t.place)
			if !validRepo(r.Repo) {
				r.Repo = ""
			}
			r.Untrusted, r.Artifact, r.Author = true, t.artifact, loginText(t.author)
			reads = append(reads, r)
		}
	}
	reads = s.unrecorded(reads)
	if len(reads) == 0 {
		return nil
	}
	if err := s.store.RecordFlowReads(ctx, reads); err != nil {
		return err
	}
	s.markRecorded(reads)
	return nil
}

// loginText is an author as messages name it: the login, or a marker for
// one no forge would issue (a hostile forge's text never reaches a
// message).
func loginText(l string) string {
	switch {
	case l == "":
		return "(no author)"
	case !validLogin(l):
		return "(malformed author)"
	}
	return l
}

func (s *Service) unrecorded(reads []store.FlowRead) []store.FlowRead {
	out := reads[:0]
	for _, r := range reads {
		if _, ok := s.flow.recorded.Load(r); !ok {
			out = append(out, r)
		}
	}
	return out
}

func (s *Service) markRecorded(reads []store.FlowRead) {
	f := s.flow
	f.sizeMu.Lock()
	defer f.sizeMu.Unlock()
	if f.size+int64(len(reads)) > maxRecorded {
		f.recorded.Clear()
		f.size = 0
	}
	for _, r := range reads {
		if _, loaded := f.recorded.LoadOrStore(r, struct{}{}); !loaded {
			f.size++
		}
	}
}
