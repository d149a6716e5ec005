package sqlstore

import (
	"context"
	"errors"

	"github.com/feedbackhq/feedback/server"
	"github.com/feedbackhq/feedback/shared/feedback"
)

const workspaceColumns = "id, name, slug, poster_key, created_at"

// CreateWorkspace stores w with a new id (unless set) and created_at, and
// starts its event sequence. Returns feedback.EConflict if the slug or
// the id is taken.
func (s *Store) CreateWorkspace(ctx context.Context, w *server.Workspace) (err error) {
	defer wrap(&err, "CreateWorkspace(%s)", w.Slug)
	if err := canonicalNew(&w.ID); err != nil {
		return err
	}
	w.ID = s.newID(w.ID)
	w.CreatedAt = feedback.NewTime(s.now())
	return s.db.InTx(ctx, func(tx Conn) error {
		_, err := tx.Exec(ctx, `INSERT INTO workspaces (`+workspaceColumns+`) VALUES ($1, $2, $3, $4, $5)`,
			w.ID, w.Name, w.Slug, w.PosterKey, w.CreatedAt.Time)
		if errors.Is(err, ErrUnique) {
			return feedback.Errorf(feedback.EConflict, "The workspace slug %q is taken.", w.Slug)
		}
		return err
	})
}

// Workspace returns a workspace. Returns feedback.ENotFound.
func (s *Store) Workspace(ctx context.Context, id string) (_ *server.Workspace, err error) {
	defer wrap(&err, "Workspace(%s)", id)
	if !canonical(&id) {
		return nil, notFound("workspace", id)
	}
	w, err := one(scanWorkspace(s.db.QueryRow(ctx, `SELECT `+workspaceColumns+` FROM workspaces WHERE id = $1`, id)))
	return w, orNotFound(err, "workspace", id)
}

// WorkspaceBySlug returns a workspace. Returns feedback.ENotFound.
func (s *Store) WorkspaceBySlug(ctx context.Context, slug string) (_ *server.Workspace, err error) {
	defer wrap(&err, "WorkspaceBySlug(%s)", slug)
	w, err := one(scanWorkspace(s.db.QueryRow(ctx, `SELECT `+workspaceColumns+` FROM workspaces WHERE slug = $1`, slug)))
	if errors.Is(err, ErrNoRows) {
		return nil, feedback.Errorf(feedback.ENotFound, "No workspace with slug %q exists.", slug)
	}
	return w, err
}

// Workspaces returns every workspace, oldest first.
func (s *Store) Workspaces(ctx context.Context) (_ []server.Workspace, err error) {
	defer wrap(&err, "Workspaces")
	rows, err := s.db.Query(ctx, `SELECT `+workspaceColumns+` FROM workspaces ORDER BY created_at, id`)
	if err != nil {
		return nil, err
	}
	return collect(rows, scanWorkspace)
}

func scanWorkspace(r Row) (server.Workspace, error) {
	var w server.Workspace
	err := r.Scan(&w.ID, &w.Name, &w.Slug, &w.PosterKey, at(&w.CreatedAt))
	return w, err
}
