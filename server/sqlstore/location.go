package sqlstore

import (
	"context"

	"github.com/feedbackhq/feedback/shared/feedback"
)

const locationColumns = "id, name, description, created_at, updated_at"

// CreateLocation stores l with a new id (unless set) and its times.
// Returns feedback.ENotFound if the workspace does not exist.
func (s *Store) CreateLocation(ctx context.Context, workspaceID string, l *feedback.Location) (err error) {
	defer wrap(&err, "CreateLocation(%s)", workspaceID)
	if !canonical(&workspaceID) {
		return notFound("workspace", workspaceID)
	}
	if err := canonicalNew(&l.ID); err != nil {
		return err
	}
	l.ID = s.newID(l.ID)
	l.CreatedAt = feedback.NewTime(s.now())
	l.UpdatedAt = l.CreatedAt
	return s.db.InTx(ctx, func(tx Conn) error {
		_, err := tx.Exec(ctx, `INSERT INTO locations (workspace_id, `+locationColumns+`) VALUES ($1, $2, $3, $4, $5, $6)`,
			workspaceID, l.ID, l.Name, l.Description, l.CreatedAt.Time, l.UpdatedAt.Time)
		return createError(err, "workspace", workspaceID)
	})
}

// Location returns a location. Returns feedback.ENotFound.
func (s *Store) Location(ctx context.Context, workspaceID, id string) (_ *feedback.Location, err error) {
	defer wrap(&err, "Location(%s, %s)", workspaceID, id)
	if !canonical(&workspaceID, &id) {
		return nil, notFound("location", id)
	}
	return findLocation(ctx, s.db, workspaceID, id)
}

// Locations returns a page of locations, newest first, and the total.
func (s *Store) Locations(ctx context.Context, workspaceID string, p feedback.ListParams) (_ []feedback.Location, _ int, err error) {
	defer wrap(&err, "Locations(%s)", workspaceID)
	if !canonical(&workspaceID) {
		return []feedback.Location{}, 0, nil
	}
	return list(ctx, s, workspaceID, listQuery{table: "locations", columns: locationColumns,
		where: " AND deleted_at IS NULL"}, p, scanLocation)
}

// UpdateLocation applies the non-nil fields of in. Returns feedback.ENotFound.
func (s *Store) UpdateLocation(ctx context.Context, workspaceID, id string, in feedback.LocationInput) (l *feedback.Location, err error) {
	defer wrap(&err, "UpdateLocation(%s, %s)", workspaceID, id)
	if !canonical(&workspaceID, &id) {
		return nil, notFound("location", id)
	}
	err = s.db.InTx(ctx, func(tx Conn) error {
		l, err = one(scanLocation(tx.QueryRow(ctx, `UPDATE locations
			SET name = COALESCE($3, name), description = COALESCE($4, description), updated_at = $5
			WHERE workspace_id = $1 AND id = $2 AND deleted_at IS NULL
			RETURNING `+locationColumns, workspaceID, id, in.Name, in.Description, s.now())))
		return orNotFound(err, "location", id)
	})
	return nilOnError(l, err)
}

// DeleteLocation hides a location and revokes its posters and kiosks in
// one transaction; its kiosks marked online go offline, with a
// kiosk.offline event each. Returns feedback.ENotFound.
func (s *Store) DeleteLocation(ctx context.Context, workspaceID, id string) (err error) {
	defer wrap(&err, "DeleteLocation(%s, %s)", workspaceID, id)
	if !canonical(&workspaceID, &id) {
		return notFound("location", id)
	}
	now := s.now()
	return s.db.InTx(ctx, func(tx Conn) error {
		if err := s.lockKiosksAt(ctx, tx, workspaceID, id); err != nil {
			return err
		}
		n, err := tx.Exec(ctx, `UPDATE locations SET deleted_at = $3, updated_at = $3
			WHERE workspace_id = $1 AND id = $2 AND deleted_at IS NULL`, workspaceID, id, now)
		if err != nil {
			return err
		}
		if n == 0 {
			return notFound("location", id)
		}
		if _, err := s.markOffline(ctx, tx, "workspace_id = $1 AND location_id = $2", workspaceID, id); err != nil {
			return err
		}
		for _, table := range []string{"posters", "kiosks"} {
			_, err := tx.Exec(ctx, `UPDATE `+table+` SET revoked_at = $3
				WHERE workspace_id = $1 AND location_id = $2 AND revoked_at IS NULL`, workspaceID, id, now)
			if err != nil {
				return err
			}
		}
		return nil
	})
}

// findLocation reads a location that is not deleted.
func findLocation(ctx context.Context, c Conn, workspaceID, id string) (*feedback.Location, error) {
	l, err := one(scanLocation(c.QueryRow(ctx, `SELECT `+locationColumns+` FROM locations
		WHERE workspace_id = $1 AND id = $2 AND deleted_at IS NULL`, workspaceID, id)))
	return l, orNotFound(err, "location", id)
}

func scanLocation(r Row) (feedback.Location, error) {
	var l feedback.Location
	err := r.Scan(&l.ID, &l.Name, &l.Description, at(&l.CreatedAt), at(&l.UpdatedAt))
	return l, err
}
