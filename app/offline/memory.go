package offline

import (
	"bytes"
	"context"
	"slices"
	"strings"
	"sync"
)

// Memory is a [Store] that keeps items in memory only: for tests, and as
// the last resort when the browser offers no persistent storage. The zero
// value is not usable; call [NewMemory].
type Memory struct {
	mu      sync.Mutex
	pending map[string]Item
	dead    map[string]Item
}

var _ Store = (*Memory)(nil)

// NewMemory returns an empty in-memory store.
func NewMemory() *Memory {
	return &Memory{pending: make(map[string]Item), dead: make(map[string]Item)}
}

// Put implements [Store].
func (m *Memory) Put(ctx context.Context, it Item) error { return m.put(m.pending, it) }

// Delete implements [Store].
func (m *Memory) Delete(ctx context.Context, id string) error { return m.delete(m.pending, id) }

// List implements [Store].
func (m *Memory) List(ctx context.Context) ([]Item, error) { return m.list(m.pending), nil }

// PutDead implements [Store].
func (m *Memory) PutDead(ctx context.Context, it Item) error { return m.put(m.dead, it) }

// ListDead implements [Store].
func (m *Memory) ListDead(ctx context.Context) ([]Item, error) { return m.list(m.dead), nil }

// DeleteDead implements [Store].
func (m *Memory) DeleteDead(ctx context.Context, id string) error { return m.delete(m.dead, id) }

// Has implements Store.
func (m *Memory) Has(ctx context.Context, id string) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	_, ok := m.pending[id]
	return ok, nil
}

func (m *Memory) put(to map[string]Item, it Item) error {
	it.Body = bytes.Clone(it.Body)
	m.mu.Lock()
	defer m.mu.Unlock()
	to[it.ID] = it
	return nil
}

func (m *Memory) delete(from map[string]Item, id string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(from, id)
	return nil
}

func (m *Memory) list(from map[string]Item) []Item {
	m.mu.Lock()
	items := make([]Item, 0, len(from))
	for _, it := range from {
		it.Body = bytes.Clone(it.Body)
		items = append(items, it)
	}
	m.mu.Unlock()
	SortItems(items)
	return items
}

// SortItems sorts items oldest first, by Added and then by ID, the order
// of [Store.List].
func SortItems(items []Item) {
	slices.SortFunc(items, func(a, b Item) int {
		if c := a.Added.Compare(b.Added); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
}
