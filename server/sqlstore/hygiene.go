package sqlstore

import (
	"context"
	"strings"

	"github.com/feedbackhq/feedback/shared/feedback"
)

const hygieneColumns = "id, location_id, poster_id, rating, tags, comment, language, source, device_id, captured_at, created_at"

// AddHygiene stores a hygiene submission and its
// hygiene_submission.created event, idempotently by id (see
// server.SubmissionStore).
func (s *Store) AddHygiene(ctx context.Context, workspaceID string, h *feedback.HygieneSubmission, hash []byte) (_ bool, err error) {
	defer wrap(&err, "AddHygiene(%s, %s)", workspaceID, h.ID)
	if err := checkSubmission(&workspaceID, &h.ID, &h.PosterID, &h.LocationID); err != nil {
		return false, err
	}
	s.stamp(&h.ID, &h.CreatedAt, &h.CapturedAt)
	if h.Tags == nil {
		h.Tags = []string{}
	}
	tags, err := jsonArg(h.Tags)
	if err != nil {
		return false, err
	}
	return add(ctx, s, workspaceID, h, hash, addition{
		id:        h.ID,
		createdAt: h.CreatedAt.Time,
		event:     feedback.EventHygieneSubmissionCreated,
		insert:    submissionInsert("hygiene_submissions", hygieneColumns, 13, 4, 11),
		args: []any{workspaceID, h.ID, h.LocationID, Null(h.PosterID), h.Rating, tags, h.Comment, h.Language,
			h.Source, h.DeviceID, h.CapturedAt.Time, h.CreatedAt.Time, hash, graceCutoff(h.CreatedAt)},
		find:     `SELECT ` + hygieneColumns + `, body_hash FROM hygiene_submissions WHERE workspace_id = $1 AND id = $2`,
		counters: []counter{{hygieneCount, wholeWorkspace}, {hygieneLocationCount, h.LocationID}},
	}, scanHygiene)
}

// HygieneSubmissions returns a page (created_at desc, id desc) filtered
// by p.From, p.To and p.LocationID, and the total of the filter.
func (s *Store) HygieneSubmissions(ctx context.Context, workspaceID string, p feedback.ListParams) (_ []feedback.HygieneSubmission, _ int, err error) {
	defer wrap(&err, "HygieneSubmissions(%s)", workspaceID)
	if !canonical(&workspaceID) || (p.LocationID != "" && !canonical(&p.LocationID)) {
		return []feedback.HygieneSubmission{}, 0, nil
	}
	return list(ctx, s, workspaceID, s.hygieneQuery(p), p, scanHygiene)
}

// hygieneQuery returns the list query of the hygiene submissions that
// match p's location, ratings and tag. The counters count by location
// only: a list filtered by rating or tag is counted row by row.
func (s *Store) hygieneQuery(p feedback.ListParams) listQuery {
	q := listQuery{table: "hygiene_submissions", columns: hygieneColumns, counter: &counter{hygieneCount, wholeWorkspace}}
	if p.LocationID != "" {
		q.and("location_id = %s", p.LocationID)
		q.counter = &counter{hygieneLocationCount, p.LocationID}
	}
	if len(p.Ratings) > 0 {
		marks := make([]string, len(p.Ratings))
		for i, r := range p.Ratings {
			marks[i] = q.arg(r)
		}
		q.where += " AND rating IN (" + strings.Join(marks, ", ") + ")"
		q.counter = nil
	}
	if p.Tag != "" {
		q.where += " AND " + s.dialect.JSONHas("tags", q.arg(p.Tag))
		q.counter = nil
	}
	return q
}

func scanHygiene(r Row) (feedback.HygieneSubmission, error) {
	var h feedback.HygieneSubmission
	err := r.Scan(&h.ID, &h.LocationID, OptString{&h.PosterID}, &h.Rating, asJSON(&h.Tags), &h.Comment, &h.Language,
		&h.Source, &h.DeviceID, at(&h.CapturedAt), at(&h.CreatedAt))
	return h, err
}
