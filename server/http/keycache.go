package http

import (
	"context"
	"sync"

	"github.com/feedbackhq/feedback/server"
	"github.com/feedbackhq/feedback/server/secret"
)

// keyCache keeps opened poster keys by workspace. The keys never change,
// so entries never go stale; the cache saves a query and a decryption on
// every visitor request.
type keyCache struct {
	mu   sync.RWMutex
	keys map[string][]byte
}

func newKeyCache() *keyCache { return &keyCache{keys: map[string][]byte{}} }

// PosterKeyAAD binds a sealed poster key to its workspace.
func PosterKeyAAD(workspaceID string) []byte { return []byte("poster-key:" + workspaceID) }

// posterKey returns the opened poster-signing key of a workspace.
func (s *Server) posterKey(ctx context.Context, workspaceID string) ([]byte, error) {
	s.posterKC.mu.RLock()
	k, ok := s.posterKC.keys[workspaceID]
	s.posterKC.mu.RUnlock()
	if ok {
		return k, nil
	}
	ws, err := s.store.Workspace(ctx, workspaceID)
	if err != nil {
		return nil, err
	}
	k, err = openPosterKey(s.keys, ws)
	if err != nil {
		return nil, err
	}
	s.posterKC.mu.Lock()
	s.posterKC.keys[workspaceID] = k
	s.posterKC.mu.Unlock()
	return k, nil
}

func openPosterKey(kr *secret.Keyring, ws *server.Workspace) ([]byte, error) {
	return kr.Open(ws.PosterKey, PosterKeyAAD(ws.ID))
}
