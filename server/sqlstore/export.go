package sqlstore

import (
	"context"
	"slices"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// exportBatch is how many rows one statement of an export reads.
const exportBatch = 1000

// EachHygiene calls fn with every hygiene submission that
// HygieneSubmissions lists for p's filters and cursor (every page), in
// the list's order, a batch at a time (see [each]).
func (s *Store) EachHygiene(ctx context.Context, workspaceID string, p feedback.ListParams,
	fn func([]feedback.HygieneSubmission) error) (err error) {
	defer wrap(&err, "EachHygiene(%s)", workspaceID)
	if !canonical(&workspaceID) || (p.LocationID != "" && !canonical(&p.LocationID)) {
		return nil
	}
	return each(ctx, s, workspaceID, s.hygieneQuery(p), p, scanHygiene, fn)
}

// EachReviewResponse is EachHygiene for a review's responses. Returns
// feedback.ENotFound if the review does not exist.
func (s *Store) EachReviewResponse(ctx context.Context, workspaceID, reviewID string, p feedback.ListParams,
	fn func([]feedback.ReviewResponse) error) (err error) {
	defer wrap(&err, "EachReviewResponse(%s, %s)", workspaceID, reviewID)
	if err := formExists(ctx, s.db, "reviews", "review", &workspaceID, &reviewID); err != nil {
		return err
	}
	if p.LocationID != "" && !canonical(&p.LocationID) {
		return nil
	}
	return each(ctx, s, workspaceID, reviewResponseQuery(reviewID, p), p, scanReviewResponse, fn)
}

// EachSurveyResponse is EachHygiene for a survey's responses. Returns
// feedback.ENotFound if the survey does not exist.
func (s *Store) EachSurveyResponse(ctx context.Context, workspaceID, surveyID string, p feedback.ListParams,
	fn func([]feedback.SurveyResponse) error) (err error) {
	defer wrap(&err, "EachSurveyResponse(%s, %s)", workspaceID, surveyID)
	if err := formExists(ctx, s.db, "surveys", "survey", &workspaceID, &surveyID); err != nil {
		return err
	}
	if p.LocationID != "" && !canonical(&p.LocationID) {
		return nil
	}
	return each(ctx, s, workspaceID, surveyResponseQuery(surveyID, p), p, scanSurveyResponse, fn)
}

// each calls fn with q's rows in list order (created_at desc, id desc),
// exportBatch at a time. It reads batch after batch by keyset, after the
// last row of the one before, so that no statement stays open (holding
// a connection) while fn writes, and memory stays that of one batch;
// rows created meanwhile above the walk are left out, as a cursor walk
// of the list leaves them. It counts nothing.
func each[T feedback.Keyed](ctx context.Context, s *Store, workspaceID string, q listQuery, p feedback.ListParams,
	scan func(Row) (T, error), fn func([]T) error) error {
	from, to := bounds(p)
	base := append([]any{workspaceID, from, to}, q.args...)
	where := "workspace_id = $1 AND created_at >= $2 AND created_at < $3" + q.where
	cursor := p.After
	for {
		cond, args := where, slices.Clone(base)
		if cursor != nil {
			cond, args = after(cond, args, *cursor)
		}
		rows, err := s.db.Query(ctx, s.pageQuery(q, cond, len(args), false), append(args, exportBatch, 0)...)
		if err != nil {
			return err
		}
		items, err := collectN(rows, scan, exportBatch)
		if err != nil {
			return err
		}
		if len(items) > 0 {
			if err := fn(items); err != nil {
				return err
			}
		}
		if len(items) < exportBatch {
			return nil
		}
		last := items[len(items)-1].Key()
		cursor = &last
	}
}
