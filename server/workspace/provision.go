package workspace

import (
	"context"
	"strings"

	"github.com/feedbackhq/feedback/server"
	"github.com/feedbackhq/feedback/server/secret"
	"github.com/feedbackhq/feedback/shared/feedback"
)

// Create stores a new workspace with a fresh poster-signing key sealed
// by keys. The command line and the tests provision through it.
func Create(ctx context.Context, store server.WorkspaceStore, keys *secret.Keyring, name, slug string) (*server.Workspace, error) {
	ws := &server.Workspace{}
	ws.ID, ws.Name, ws.Slug = feedback.NewID(), strings.TrimSpace(name), slug
	ws.PosterKey = keys.Seal(secret.NewPosterKey(), PosterKeyAAD(ws.ID))
	if err := store.CreateWorkspace(ctx, ws); err != nil {
		return nil, err
	}
	return ws, nil
}

// CreateToken stores a new API token for a workspace and returns its
// value, which exists nowhere else: only its hash is stored.
func CreateToken(ctx context.Context, store server.TokenStore, workspaceID, name string) (string, *server.Token, error) {
	value, hash := secret.NewToken(secret.APITokenPrefix)
	t := &server.Token{WorkspaceID: workspaceID, Name: name, Hash: hash,
		Prefix: secret.DisplayPrefix(secret.APITokenPrefix, value)}
	if err := store.CreateToken(ctx, t); err != nil {
		return "", nil, err
	}
	return value, t, nil
}

// PosterCode returns the signed code of a poster in a workspace.
func PosterCode(keys *secret.Keyring, ws *server.Workspace, posterID string) (string, error) {
	key, err := openPosterKey(keys, ws)
	if err != nil {
		return "", err
	}
	return secret.SignPoster(key, posterID), nil
}

// CreateFrom checks in (feedback.WorkspaceInput.Validate makes the slug
// from the name when none is given) and stores the workspace as Create
// does: the command line and the API create workspaces through it.
// Returns feedback.EValidation for a bad name or slug, feedback.EConflict
// if the slug is taken.
func CreateFrom(ctx context.Context, store server.WorkspaceStore, keys *secret.Keyring, in feedback.WorkspaceInput) (*server.Workspace, error) {
	if err := in.Validate(); err != nil {
		return nil, err
	}
	return Create(ctx, store, keys, in.Name, in.Slug)
}
