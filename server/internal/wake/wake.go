// Package wake keeps the workspaces that a background worker was asked
// to look at since it last looked, and tells the worker there are some.
package wake

import "sync"

// Set is the workspaces woken since the last Take; make one with New.
type Set struct {
	c   chan struct{}
	mu  sync.Mutex
	ids map[string]bool
}

// New returns an empty set.
func New() *Set {
	return &Set{c: make(chan struct{}, 1), ids: map[string]bool{}}
}

// Add adds a workspace and signals C; it never blocks.
func (s *Set) Add(id string) {
	s.mu.Lock()
	s.ids[id] = true
	s.mu.Unlock()
	select {
	case s.c <- struct{}{}:
	default:
	}
}

// C receives once after one or more Adds.
func (s *Set) C() <-chan struct{} { return s.c }

// Take returns the workspaces added since the last Take and empties the
// set.
func (s *Set) Take() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	ids := make([]string, 0, len(s.ids))
	for id := range s.ids {
		ids = append(ids, id)
	}
	clear(s.ids)
	return ids
}
