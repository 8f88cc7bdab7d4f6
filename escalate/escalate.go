// Package escalate finds the force-push and history-rewrite patterns in a
// call's text that raise its risk to high. The agent runtime shows them to
// its Approver and the gateway computes the same list from the validated
// request before its policy decides, so both sides agree on what a call
// is. It imports only protobuf: the server tier must not import the agent
// runtime.
package escalate

import (
	"fmt"
	"regexp"
	"strings"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// A write's risk comes from the table, but its text can make it worse: a
// commit message that says "git push --force", a branch named "-f" or
// "+main". Such a call is escalated to RiskHigh, with the finding, before
// the Approver sees it, whatever tool carries it (a comment telling a
// person to force-push is as worth a human's look as a commit message).
// The patterns name command forms and refs, not topics, so text that
// merely mentions rebasing or history is not escalated.

// rewrite is one pattern and what it means, for the escalation reason.
type rewrite struct {
	means string
	re    *regexp.Regexp
}

// rewriteInText are the force-push and history-rewrite patterns looked for
// in every string of a call. A command's verb and flag must be on one line
// ("git push -u origin main --force"); anything but a newline may sit
// between them.
var rewriteInText = []rewrite{
	{"a force push", regexp.MustCompile(`(?i)\bpush\b[^\n]*?[ \t](?:--force(?:-with-lease|-if-includes)?(?:=\S*)?|-[a-z]*f[a-z]*)(?:\s|$)`)},
	{"a force push", regexp.MustCompile(`(?i)\bforce[- ]?push`)},
	{"a force push (a +refspec)", regexp.MustCompile(`(?i)\bpush\b[^\n]*?[ \t]\+[^\s+]`)},
	{"a mirror push", regexp.MustCompile(`(?i)\bpush\b[^\n]*?[ \t]--mirror\b`)},
	{"deleting a remote branch", regexp.MustCompile(`(?i)\bpush\b[^\n]*?[ \t](?:--delete|-d)(?:\s|$)|\bpush[ \t]+\S+[ \t]+:\S`)},
	{"a hard reset", regexp.MustCompile(`(?i)\breset\b[^\n]*?[ \t]--hard\b`)},
	{"a history rewrite", regexp.MustCompile(`(?i)\bfilter-(?:branch|repo)\b`)},
	{"a history rewrite (rebase)", regexp.MustCompile(`(?i)\brebase\b[^\n]*?[ \t](?:-i|--interactive|--onto|--root)(?:\s|$)`)},
	{"a history rewrite (amend)", regexp.MustCompile(`(?i)\bcommit\b[^\n]*?[ \t]--amend\b`)},
	{"a history rewrite", regexp.MustCompile(`(?i)\brewrit\w*\s+(?:the\s+|git\s+)?history\b|\bhistory\s+rewrit`)},
	{"a forced branch delete", regexp.MustCompile(`\bbranch[ \t]+(?:-D|-f|--force)(?:\s|$)`)},
	{"deleting a ref", regexp.MustCompile(`(?i)\bupdate-ref[ \t]+-d\b`)},
	{"destroying unreachable history", regexp.MustCompile(`(?i)\breflog[ \t]+expire\b|\bgc\b[^\n]*?--prune=now\b`)},
}

// rewriteInRef are the patterns of a single-token value (a branch or ref
// name has no whitespace) that git would not read as a plain ref.
var rewriteInRef = []rewrite{
	{"a ref git would read as an option", regexp.MustCompile(`^-`)},
	{"a force refspec", regexp.MustCompile(`^\+`)},
}

// MaxExcerpt bounds the quoted match in a reason, in runes.
const MaxExcerpt = 60

// Find lists every force-push or history-rewrite pattern in the
// strings of req, each as `param: "excerpt" (meaning)`, params named as the
// model wrote them (renamed names from the table's ParamNames).
func Find(req proto.Message, names map[string]string) []string {
	if req == nil {
		return nil
	}
	var out []string
	walkStrings(req.ProtoReflect(), "", names, func(param, v string) {
		if !strings.ContainsAny(v, " \t\r\n") {
			for _, r := range rewriteInRef {
				if r.re.MatchString(v) {
					out = append(out, fmt.Sprintf("%s: %q (%s)", param, excerpt(v), r.means))
					return
				}
			}
		}
		for _, r := range rewriteInText {
			if m := r.re.FindString(v); m != "" {
				out = append(out, fmt.Sprintf("%s: %q (%s)", param, excerpt(m), r.means))
				return // one reason per value is enough to escalate and to say why
			}
		}
	})
	return out
}

// walkStrings calls fn with every string value set in m, at any depth, and
// its parameter path ("comments[2].body"), in field order (Range's order is
// undefined, and the reasons should read the same every time).
func walkStrings(m protoreflect.Message, prefix string, names map[string]string, fn func(param, v string)) {
	fields := m.Descriptor().Fields()
	for i := range fields.Len() {
		fd := fields.Get(i)
		if !m.Has(fd) {
			continue
		}
		v := m.Get(fd)
		name := string(fd.Name())
		if n, ok := names[string(fd.FullName())]; ok {
			name = n
		}
		path := prefix + name
		switch {
		case fd.IsList():
			l := v.List()
			for i := range l.Len() {
				at := fmt.Sprintf("%s[%d]", path, i)
				switch fd.Kind() {
				case protoreflect.StringKind:
					fn(at, l.Get(i).String())
				case protoreflect.MessageKind:
					walkStrings(l.Get(i).Message(), at+".", names, fn)
				}
			}
		case fd.IsMap():
			// No request has a map today; a map's strings are not walked.
		case fd.Kind() == protoreflect.StringKind:
			fn(path, v.String())
		case fd.Kind() == protoreflect.MessageKind:
			walkStrings(v.Message(), path+".", names, fn)
		}
	}
}

func excerpt(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > MaxExcerpt {
		s = string(r[:MaxExcerpt]) + "…"
	}
	return s
}
