// Package notes is the notes service's server side: notebooks in memory,
// serving the generated notes table (notesv1handler) behind a forgetools
// gateway, which checks every call against the table's rules and scopes
// it by notebook before it gets here.
package notes

import (
	"context"
	"fmt"
	"slices"
	"sync"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	optionsv1 "github.com/forgetools/forgetools/gen/forgetools/options/v1"
	"github.com/forgetools/forgetools/toolserver"

	notesv1 "example.com/notes/gen/notes/v1"
	"example.com/notes/gen/notes/v1/notesv1handler"
)

// Service holds the notebooks. It implements every capability of the notes
// table; embedding UnimplementedNotesHandler keeps it compiling when the
// table grows an arm it does not serve yet.
type Service struct {
	notesv1handler.UnimplementedNotesHandler
	ref   *forgev1.ForgeRef
	mu    sync.Mutex
	books map[string][]*notesv1.Note
	next  int
}

var _ notesv1handler.NotesHandler = (*Service)(nil)

// New returns an empty notes service, known to the gateway by host.
func New(host string) *Service {
	// The gateway routes calls by forge coordinate; a service of one's own
	// takes the local provider and its own host.
	return &Service{
		ref:   &forgev1.ForgeRef{Provider: forgev1.ForgeProvider_FORGE_PROVIDER_LOCAL, Host: host},
		books: map[string][]*notesv1.Note{},
	}
}

// Ref is the coordinate the gateway knows the service by.
func (s *Service) Ref() *forgev1.ForgeRef { return s.ref }

// AddNote appends a note to its notebook.
func (s *Service) AddNote(_ context.Context, _ toolserver.Call, req *notesv1.AddNoteRequest) (*notesv1.Note, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.next++
	n := &notesv1.Note{Id: fmt.Sprintf("n%d", s.next), Notebook: req.GetNotebook(), Text: req.GetText()}
	s.books[req.GetNotebook()] = append(s.books[req.GetNotebook()], n)
	return n, nil
}

// ListNotes returns a notebook's notes, newest first.
func (s *Service) ListNotes(_ context.Context, _ toolserver.Call, req *notesv1.ListNotesRequest) (*notesv1.NoteList, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	book, ok := s.books[req.GetNotebook()]
	if !ok {
		return nil, toolserver.Errorf(optionsv1.ErrorCode_ERROR_CODE_NOT_FOUND, "notebook %s has no notes", req.GetNotebook())
	}
	limit := 20
	if req.Limit != nil {
		limit = int(req.GetLimit())
	}
	notes := slices.Clone(book)
	slices.Reverse(notes)
	return &notesv1.NoteList{Notes: notes[:min(limit, len(notes))]}, nil
}
