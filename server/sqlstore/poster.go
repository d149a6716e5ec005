package sqlstore

import (
	"context"

	"github.com/feedbackhq/feedback/server"
	"github.com/feedbackhq/feedback/shared/feedback"
)

const posterColumns = "workspace_id, id, location_id, form, review_id, survey_id, label, created_at, revoked_at"

// CreatePoster stores p (Status active) with a new id (unless set) and
// created_at. Returns feedback.ENotFound naming location_id, review_id or
// survey_id (as an invalid param) when the location or form does not
// exist in the workspace.
func (s *Store) CreatePoster(ctx context.Context, p *server.Poster) (err error) {
	defer wrap(&err, "CreatePoster(%s)", p.WorkspaceID)
	if !canonical(&p.WorkspaceID) {
		return notFound("workspace", p.WorkspaceID)
	}
	if err := canonicalNew(&p.ID); err != nil {
		return err
	}
	p.ID = s.newID(p.ID)
	p.Status, p.CreatedAt, p.RevokedAt = feedback.PosterActive, feedback.NewTime(s.now()), nil
	return s.db.InTx(ctx, func(tx Conn) error {
		if err := checkForm(ctx, tx, p.WorkspaceID, &p.LocationID, &p.FormRef); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `INSERT INTO posters (`+posterColumns+`) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
			p.WorkspaceID, p.ID, p.LocationID, p.Form, Null(p.ReviewID), Null(p.SurveyID), p.Label,
			p.CreatedAt.Time, nil)
		return createError(err, "workspace", p.WorkspaceID)
	})
}

// Poster returns a poster of the workspace. Returns feedback.ENotFound.
func (s *Store) Poster(ctx context.Context, workspaceID, id string) (_ *server.Poster, err error) {
	defer wrap(&err, "Poster(%s, %s)", workspaceID, id)
	if !canonical(&workspaceID, &id) {
		return nil, notFound("poster", id)
	}
	p, err := one(scanPoster(s.db.QueryRow(ctx, `SELECT `+posterColumns+` FROM posters
		WHERE workspace_id = $1 AND id = $2`, workspaceID, id)))
	return p, orNotFound(err, "poster", id)
}

// PosterByID returns a poster of any workspace. Returns feedback.ENotFound.
func (s *Store) PosterByID(ctx context.Context, id string) (_ *server.Poster, err error) {
	defer wrap(&err, "PosterByID(%s)", id)
	if !canonical(&id) {
		return nil, notFound("poster", id)
	}
	p, err := one(scanPoster(s.db.QueryRow(ctx, `SELECT `+posterColumns+` FROM posters WHERE id = $1`, id)))
	return p, orNotFound(err, "poster", id)
}

// Posters returns a page of a location's posters, newest first.
// Returns feedback.ENotFound if the location does not exist.
func (s *Store) Posters(ctx context.Context, workspaceID, locationID string, p feedback.ListParams) (_ []server.Poster, _ int, err error) {
	defer wrap(&err, "Posters(%s, %s)", workspaceID, locationID)
	if !canonical(&workspaceID, &locationID) {
		return nil, 0, notFound("location", locationID)
	}
	if _, err := findLocation(ctx, s.db, workspaceID, locationID); err != nil {
		return nil, 0, err
	}
	return list(ctx, s, workspaceID, listQuery{table: "posters", columns: posterColumns,
		where: " AND location_id = $4", args: []any{locationID}}, p, scanPoster)
}

// RevokePoster revokes a poster at the store's now; revoking twice keeps
// the first time. Returns feedback.ENotFound.
func (s *Store) RevokePoster(ctx context.Context, workspaceID, id string) (p *server.Poster, err error) {
	defer wrap(&err, "RevokePoster(%s, %s)", workspaceID, id)
	if !canonical(&workspaceID, &id) {
		return nil, notFound("poster", id)
	}
	err = s.db.InTx(ctx, func(tx Conn) error {
		p, err = one(scanPoster(tx.QueryRow(ctx, `UPDATE posters SET revoked_at = COALESCE(revoked_at, $3)
			WHERE workspace_id = $1 AND id = $2 RETURNING `+posterColumns, workspaceID, id, s.now())))
		return orNotFound(err, "poster", id)
	})
	return nilOnError(p, err)
}

func scanPoster(r Row) (server.Poster, error) {
	var p server.Poster
	err := r.Scan(&p.WorkspaceID, &p.ID, &p.LocationID, &p.Form, OptString{&p.ReviewID}, OptString{&p.SurveyID},
		&p.Label, at(&p.CreatedAt), atOpt(&p.RevokedAt))
	p.Status = feedback.PosterActive
	if p.RevokedAt != nil {
		p.Status = feedback.PosterRevoked
	}
	return p, err
}
