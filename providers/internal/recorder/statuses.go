package recorder

import (
	"maps"
	"net/http"
)

// A recorder also tallies the status codes its fake answered with, so a
// test can count what a call cost the forge by kind (full answers, 304s):
// the fake's ServeHTTP writes through Writer.

// Writer is w, counting the status it answers with (200 when the
// handler writes a body without one). An answer never written (a held
// one) is not counted.
func (r *Recorder[R]) Writer(w http.ResponseWriter) http.ResponseWriter {
	return &statusWriter{ResponseWriter: w, count: r.count}
}

// Statuses is how many answers of each status were sent so far.
func (r *Recorder[R]) Statuses() map[int]int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return maps.Clone(r.statuses)
}

func (r *Recorder[R]) count(status int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.statuses == nil {
		r.statuses = map[int]int{}
	}
	r.statuses[status]++
}

type statusWriter struct {
	http.ResponseWriter
	count   func(int)
	written bool
}

func (w *statusWriter) WriteHeader(status int) {
	if !w.written && status >= 200 {
		w.written = true
		w.count(status)
	}
	w.ResponseWriter.WriteHeader(status)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if !w.written {
		w.WriteHeader(http.StatusOK)
	}
	return w.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the underlying writer.
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
