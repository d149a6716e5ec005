package rollup

import (
	"context"
	"io"
	"log/slog"
	"sync"
	"testing"
	"time"
)

// countingStore counts the rollups of each workspace; it has nothing to
// poll, so every rollup it sees comes from a wake-up.
type countingStore struct {
	mu    sync.Mutex
	calls map[string]int
}

func (s *countingStore) StatsWorkspaces(context.Context) ([]string, error) { return nil, nil }

func (s *countingStore) RollupStats(_ context.Context, ws string) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls[ws]++
	return 0, nil
}

func (s *countingStore) count(ws string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.calls[ws]
}

// TestSteadyWakes wakes the worker every 10 ms, as a steady stream of
// submissions does, until it has rolled up three times: it rolls up
// every Gather instead of waiting for the stream to pause (which never
// comes; the test gives up after 5 s).
func TestSteadyWakes(t *testing.T) {
	store := &countingStore{calls: map[string]int{}}
	w, stop := Start(t.Context(), store, slog.New(slog.NewTextHandler(io.Discard, nil)))
	defer stop()
	end := time.Now().Add(5 * time.Second)
	for store.count("ws") < 3 && time.Now().Before(end) {
		w.Wake("ws")
		time.Sleep(10 * time.Millisecond)
	}
	stop()
	if n := store.count("ws"); n < 3 {
		t.Errorf("5 s of steady wake-ups made %d rollups, want at least 3 (one every %v)", n, Gather)
	}
	if n := store.count("other"); n != 0 {
		t.Errorf("a workspace never woken was rolled up %d times", n)
	}
}
