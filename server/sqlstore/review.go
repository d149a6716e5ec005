package sqlstore

import (
	"context"

	"github.com/feedbackhq/feedback/shared/feedback"
)

const reviewColumns = "id, title, status, created_at, updated_at, status_changed_at"

// CreateReview stores r as a draft with a new id (unless set) and its
// times. Returns feedback.ENotFound if the workspace does not exist.
func (s *Store) CreateReview(ctx context.Context, workspaceID string, r *feedback.Review) (err error) {
	defer wrap(&err, "CreateReview(%s)", workspaceID)
	if !canonical(&workspaceID) {
		return notFound("workspace", workspaceID)
	}
	if err := canonicalNew(&r.ID); err != nil {
		return err
	}
	r.ID = s.newID(r.ID)
	r.Status = feedback.StatusDraft
	r.CreatedAt = feedback.NewTime(s.now())
	r.UpdatedAt, r.StatusChangedAt = r.CreatedAt, r.CreatedAt
	return s.db.InTx(ctx, func(tx Conn) error {
		_, err := tx.Exec(ctx, `INSERT INTO reviews (workspace_id, `+reviewColumns+`) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
			workspaceID, r.ID, r.Title, r.Status, r.CreatedAt.Time, r.UpdatedAt.Time, r.StatusChangedAt.Time)
		return createError(err, "workspace", workspaceID)
	})
}

// Review returns a review. Returns feedback.ENotFound.
func (s *Store) Review(ctx context.Context, workspaceID, id string) (_ *feedback.Review, err error) {
	defer wrap(&err, "Review(%s, %s)", workspaceID, id)
	if !canonical(&workspaceID, &id) {
		return nil, notFound("review", id)
	}
	return findReview(ctx, s.db, workspaceID, id, "")
}

// Reviews returns a page of reviews, newest first, and the total.
func (s *Store) Reviews(ctx context.Context, workspaceID string, p feedback.ListParams) (_ []feedback.Review, _ int, err error) {
	defer wrap(&err, "Reviews(%s)", workspaceID)
	if !canonical(&workspaceID) {
		return []feedback.Review{}, 0, nil
	}
	return list(ctx, s, workspaceID, listQuery{table: "reviews", columns: reviewColumns}, p, scanReview)
}

// UpdateReview applies the non-nil fields of in. A status change must
// follow the state machine (feedback.EInvalidTransition otherwise), sets
// status_changed_at and writes a review.status_changed event in the same
// transaction; setting the current status changes nothing. Returns
// feedback.ENotFound.
func (s *Store) UpdateReview(ctx context.Context, workspaceID, id string, in feedback.ReviewInput) (r *feedback.Review, err error) {
	defer wrap(&err, "UpdateReview(%s, %s)", workspaceID, id)
	if !canonical(&workspaceID, &id) {
		return nil, notFound("review", id)
	}
	err = s.db.InTx(ctx, func(tx Conn) error {
		if err := s.lockRecord(ctx, tx, id); err != nil {
			return err
		}
		r, err = findReview(ctx, tx, workspaceID, id, s.dialect.ForUpdate)
		if err != nil {
			return err
		}
		l := lifecycle{"review", &r.Title, &r.Status, &r.StatusChangedAt, &r.UpdatedAt}
		changed, prev, err := l.apply(in.Title, in.Status, s.now())
		if err != nil || !changed {
			return err
		}
		_, err = tx.Exec(ctx, `UPDATE reviews SET title = $3, status = $4, updated_at = $5, status_changed_at = $6
			WHERE workspace_id = $1 AND id = $2`,
			workspaceID, id, r.Title, r.Status, r.UpdatedAt.Time, r.StatusChangedAt.Time)
		if err != nil || prev == "" {
			return err
		}
		return s.appendEvent(ctx, tx, workspaceID, feedback.EventReviewStatusChanged,
			feedback.StatusChange{Review: *r, PreviousStatus: prev})
	})
	return nilOnError(r, err)
}

// findReview reads a review; lock is "" or the dialect's ForUpdate.
func findReview(ctx context.Context, c Conn, workspaceID, id, lock string) (*feedback.Review, error) {
	r, err := one(scanReview(c.QueryRow(ctx, `SELECT `+reviewColumns+` FROM reviews
		WHERE workspace_id = $1 AND id = $2`+lock, workspaceID, id)))
	return r, orNotFound(err, "review", id)
}

func scanReview(r Row) (feedback.Review, error) {
	var v feedback.Review
	err := r.Scan(&v.ID, &v.Title, &v.Status, at(&v.CreatedAt), at(&v.UpdatedAt), at(&v.StatusChangedAt))
	return v, err
}
