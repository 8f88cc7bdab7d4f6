package forgefake

import (
	"bytes"
	"cmp"
	"encoding/json"
	"net/http"
)

// Answer is one response from a fake's state.
type Answer struct {
	Status int
	Header http.Header
	// Body is encoded as JSON (not HTML-escaped, as forges send it); nil
	// sends no body.
	Body any
	// Raw, when set, is sent as it is instead of Body (job logs), as
	// Type.
	Raw []byte
	// Type is Raw's Content-Type; "" = text/plain.
	Type string
}

// OK is a 200 with a JSON body.
func OK(v any) Answer { return Answer{Status: http.StatusOK, Body: v} }

// Created is a 201 with a JSON body.
func Created(v any) Answer { return Answer{Status: http.StatusCreated, Body: v} }

// Write sends a to w; a HEAD answer carries headers only.
func (a Answer) Write(w http.ResponseWriter, r *http.Request) {
	for k, vs := range a.Header {
		w.Header()[k] = vs
	}
	if a.Raw != nil {
		w.Header().Set("Content-Type", cmp.Or(a.Type, "text/plain; charset=utf-8"))
		w.WriteHeader(a.Status)
		w.Write(a.Raw)
		return
	}
	w.WriteHeader(a.Status)
	if a.Body == nil || r.Method == http.MethodHead || a.Status == http.StatusNoContent {
		return
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.Encode(a.Body)
}

// Decode reads a JSON request body into v, reporting whether it could.
func Decode(body []byte, v any) bool {
	return json.NewDecoder(bytes.NewReader(body)).Decode(v) == nil
}
