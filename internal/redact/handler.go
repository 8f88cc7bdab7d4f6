package redact

import (
	"context"
	"fmt"
	"log/slog"
)

// Handler is an slog.Handler that redacts every log line before next sees
// it: the message and every attribute value, however nested, including
// errors and other values logged as text. It is the last line of defence:
// code that logs something it got from a forge needs no care of its own.
type Handler struct {
	next slog.Handler
	r    *Redactor
}

// NewHandler wraps next; with an empty r it returns next itself.
func NewHandler(next slog.Handler, r *Redactor) slog.Handler {
	if r.Empty() {
		return next
	}
	return &Handler{next: next, r: r}
}

func (h *Handler) Enabled(ctx context.Context, l slog.Level) bool { return h.next.Enabled(ctx, l) }

func (h *Handler) Handle(ctx context.Context, rec slog.Record) error {
	out := slog.NewRecord(rec.Time, rec.Level, h.r.String(rec.Message), rec.PC)
	rec.Attrs(func(a slog.Attr) bool {
		out.AddAttrs(h.attr(a))
		return true
	})
	return h.next.Handle(ctx, out)
}

func (h *Handler) WithAttrs(attrs []slog.Attr) slog.Handler {
	clean := make([]slog.Attr, len(attrs))
	for i, a := range attrs {
		clean[i] = h.attr(a)
	}
	return &Handler{next: h.next.WithAttrs(clean), r: h.r}
}

func (h *Handler) WithGroup(name string) slog.Handler {
	return &Handler{next: h.next.WithGroup(name), r: h.r}
}

// attr is a with every text in its value redacted. Numbers, booleans,
// times and durations cannot hold a credential and pass as they are.
func (h *Handler) attr(a slog.Attr) slog.Attr {
	v := a.Value.Resolve()
	switch v.Kind() {
	case slog.KindString:
		return slog.String(a.Key, h.r.String(v.String()))
	case slog.KindGroup:
		group := v.Group()
		clean := make([]any, len(group))
		for i, g := range group {
			clean[i] = h.attr(g)
		}
		return slog.Group(a.Key, clean...)
	case slog.KindAny:
		return slog.String(a.Key, h.r.String(fmt.Sprint(v.Any())))
	}
	return slog.Attr{Key: a.Key, Value: v}
}
