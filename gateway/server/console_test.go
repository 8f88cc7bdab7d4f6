package server

import (
	"io"
	"log/slog"
	"net/http"
	"strings"
	"testing"
)

func TestConsoleListensOnLoopbackByDefault(t *testing.T) {
	s := New(nil, Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	t.Cleanup(func() { s.Close() })
	addr, err := s.ListenConsole(":0", http.NotFoundHandler())
	if err != nil {
		t.Fatal(err)
	}
	if !IsLoopback(addr) {
		t.Fatalf("console on %s, want loopback", addr)
	}
}

func TestConsoleRefusesAnOpenAddressWithoutTLS(t *testing.T) {
	s := New(nil, Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	t.Cleanup(func() { s.Close() })
	_, err := s.ListenConsole("0.0.0.0:0", http.NotFoundHandler())
	if err == nil || !strings.Contains(err.Error(), "not a loopback address and there is no TLS") {
		t.Fatalf("err = %v", err)
	}
	if _, err := s.ListenConsole("127.0.0.1", http.NotFoundHandler()); err == nil {
		t.Fatal("an address without a port was accepted")
	}
}
