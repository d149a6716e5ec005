package sqlstore

import (
	"context"

	"github.com/feedbackhq/feedback/shared/feedback"
)

const (
	reviewResponseColumns = "id, review_id, location_id, poster_id, rating, comment, contact_email, contact_consent, " +
		"language, source, device_id, captured_at, created_at"
	surveyResponseColumns = "id, survey_id, location_id, poster_id, answers, language, source, device_id, captured_at, created_at"
)

// AddReviewResponse stores a review response and its
// review_response.created event, idempotently by id (see
// server.SubmissionStore).
func (s *Store) AddReviewResponse(ctx context.Context, workspaceID string, r *feedback.ReviewResponse, hash []byte) (_ bool, err error) {
	defer wrap(&err, "AddReviewResponse(%s, %s)", workspaceID, r.ID)
	if err := checkSubmission(&workspaceID, &r.ID, &r.PosterID, &r.LocationID, &r.ReviewID); err != nil {
		return false, err
	}
	s.stamp(&r.ID, &r.CreatedAt, &r.CapturedAt)
	return add(ctx, s, workspaceID, r, hash, addition{
		id:        r.ID,
		createdAt: r.CreatedAt.Time,
		event:     feedback.EventReviewResponseCreated,
		insert:    submissionInsert("review_responses", reviewResponseColumns, 15, 5, 13),
		args: []any{workspaceID, r.ID, r.ReviewID, r.LocationID, Null(r.PosterID), r.Rating, r.Comment, r.ContactEmail,
			r.ContactConsent, r.Language, r.Source, r.DeviceID, r.CapturedAt.Time, r.CreatedAt.Time, hash,
			graceCutoff(r.CreatedAt)},
		find:     `SELECT ` + reviewResponseColumns + `, body_hash FROM review_responses WHERE workspace_id = $1 AND id = $2`,
		counters: []counter{{reviewResponseCount, r.ReviewID}},
	}, scanReviewResponse)
}

// AddSurveyResponse stores a survey response and its
// survey_response.created event, idempotently by id (see
// server.SubmissionStore).
func (s *Store) AddSurveyResponse(ctx context.Context, workspaceID string, r *feedback.SurveyResponse, hash []byte) (_ bool, err error) {
	defer wrap(&err, "AddSurveyResponse(%s, %s)", workspaceID, r.ID)
	if err := checkSubmission(&workspaceID, &r.ID, &r.PosterID, &r.LocationID, &r.SurveyID); err != nil {
		return false, err
	}
	s.stamp(&r.ID, &r.CreatedAt, &r.CapturedAt)
	if r.Answers == nil {
		r.Answers = map[string]any{}
	}
	answers, err := jsonArg(r.Answers)
	if err != nil {
		return false, err
	}
	return add(ctx, s, workspaceID, r, hash, addition{
		id:        r.ID,
		createdAt: r.CreatedAt.Time,
		event:     feedback.EventSurveyResponseCreated,
		insert:    submissionInsert("survey_responses", surveyResponseColumns, 12, 5, 10),
		args: []any{workspaceID, r.ID, r.SurveyID, r.LocationID, Null(r.PosterID), answers, r.Language, r.Source,
			r.DeviceID, r.CapturedAt.Time, r.CreatedAt.Time, hash, graceCutoff(r.CreatedAt)},
		find:     `SELECT ` + surveyResponseColumns + `, body_hash FROM survey_responses WHERE workspace_id = $1 AND id = $2`,
		counters: []counter{{surveyResponseCount, r.SurveyID}},
	}, scanSurveyResponse)
}

// ReviewResponses returns a page of a review's responses filtered by
// p.From and p.To. Returns feedback.ENotFound if the review does not exist.
func (s *Store) ReviewResponses(ctx context.Context, workspaceID, reviewID string, p feedback.ListParams) (_ []feedback.ReviewResponse, _ int, err error) {
	defer wrap(&err, "ReviewResponses(%s, %s)", workspaceID, reviewID)
	if err := formExists(ctx, s.db, "reviews", "review", &workspaceID, &reviewID); err != nil {
		return nil, 0, err
	}
	if p.LocationID != "" && !canonical(&p.LocationID) {
		return []feedback.ReviewResponse{}, 0, nil
	}
	return list(ctx, s, workspaceID, reviewResponseQuery(reviewID, p), p, scanReviewResponse)
}

// reviewResponseQuery returns the list query of a review's responses
// that match p's location.
func reviewResponseQuery(reviewID string, p feedback.ListParams) listQuery {
	return atLocation(listQuery{table: "review_responses", columns: reviewResponseColumns,
		where: " AND review_id = $4", args: []any{reviewID}, counter: &counter{reviewResponseCount, reviewID}}, p)
}

// atLocation narrows a form's responses to p's location, when it names
// one: the form's counters count every location, so the total is then a
// COUNT(*) of the form's responses there.
func atLocation(q listQuery, p feedback.ListParams) listQuery {
	if p.LocationID != "" {
		q.and("location_id = %s", p.LocationID)
		q.counter = nil
	}
	return q
}

// SurveyResponses returns a page of a survey's responses filtered by
// p.From and p.To. Returns feedback.ENotFound if the survey does not exist.
func (s *Store) SurveyResponses(ctx context.Context, workspaceID, surveyID string, p feedback.ListParams) (_ []feedback.SurveyResponse, _ int, err error) {
	defer wrap(&err, "SurveyResponses(%s, %s)", workspaceID, surveyID)
	if err := formExists(ctx, s.db, "surveys", "survey", &workspaceID, &surveyID); err != nil {
		return nil, 0, err
	}
	if p.LocationID != "" && !canonical(&p.LocationID) {
		return []feedback.SurveyResponse{}, 0, nil
	}
	return list(ctx, s, workspaceID, surveyResponseQuery(surveyID, p), p, scanSurveyResponse)
}

// surveyResponseQuery returns the list query of a survey's responses
// that match p's location.
func surveyResponseQuery(surveyID string, p feedback.ListParams) listQuery {
	return atLocation(listQuery{table: "survey_responses", columns: surveyResponseColumns,
		where: " AND survey_id = $4", args: []any{surveyID}, counter: &counter{surveyResponseCount, surveyID}}, p)
}

// formExists returns feedback.ENotFound unless the review or survey
// (table, kind) *id exists in the workspace.
func formExists(ctx context.Context, c Conn, table, kind string, workspaceID, id *string) error {
	if !canonical(workspaceID) {
		return notFound(kind, *id)
	}
	ok, err := exists(ctx, c, `SELECT 1 FROM `+table+` WHERE workspace_id = $1 AND id = $2`, *workspaceID, id)
	if err == nil && !ok {
		return notFound(kind, *id)
	}
	return err
}

func scanReviewResponse(r Row) (feedback.ReviewResponse, error) {
	var v feedback.ReviewResponse
	err := r.Scan(&v.ID, &v.ReviewID, &v.LocationID, OptString{&v.PosterID}, &v.Rating, &v.Comment, &v.ContactEmail,
		&v.ContactConsent, &v.Language, &v.Source, &v.DeviceID, at(&v.CapturedAt), at(&v.CreatedAt))
	return v, err
}

func scanSurveyResponse(r Row) (feedback.SurveyResponse, error) {
	var v feedback.SurveyResponse
	err := r.Scan(&v.ID, &v.SurveyID, &v.LocationID, OptString{&v.PosterID}, asJSON(&v.Answers), &v.Language,
		&v.Source, &v.DeviceID, at(&v.CapturedAt), at(&v.CreatedAt))
	return v, err
}
