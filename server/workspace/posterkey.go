package workspace

import (
	"context"
	"sync"

	"github.com/feedbackhq/feedback/server"
	"github.com/feedbackhq/feedback/server/secret"
)

// PosterKeyAAD binds a sealed poster key to its workspace.
func PosterKeyAAD(workspaceID string) []byte { return []byte("poster-key:" + workspaceID) }

func openPosterKey(kr *secret.Keyring, ws *server.Workspace) ([]byte, error) {
	return kr.Open(ws.PosterKey, PosterKeyAAD(ws.ID))
}

// PosterKeys keeps opened poster keys by workspace. The keys never
// change, so entries never go stale; the cache saves a query and a
// decryption on every visitor request. It is safe for concurrent use.
type PosterKeys struct {
	store server.WorkspaceStore
	ring  *secret.Keyring

	mu   sync.RWMutex
	keys map[string][]byte
}

// NewPosterKeys returns an empty cache of the keys that ring seals in
// store.
func NewPosterKeys(store server.WorkspaceStore, ring *secret.Keyring) *PosterKeys {
	return &PosterKeys{store: store, ring: ring, keys: map[string][]byte{}}
}

// Key returns the opened poster-signing key of a workspace.
func (c *PosterKeys) Key(ctx context.Context, workspaceID string) ([]byte, error) {
	c.mu.RLock()
	k, ok := c.keys[workspaceID]
	c.mu.RUnlock()
	if ok {
		return k, nil
	}
	ws, err := c.store.Workspace(ctx, workspaceID)
	if err != nil {
		return nil, err
	}
	k, err = openPosterKey(c.ring, ws)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	c.keys[workspaceID] = k
	c.mu.Unlock()
	return k, nil
}
