package sqlstore

import (
	"context"

	"github.com/feedbackhq/feedback/shared/feedback"
)

const surveyColumns = "id, title, status, questions, created_at, updated_at, status_changed_at"

// CreateSurvey stores s as a draft with a new id (unless set) and its
// times. Returns feedback.ENotFound if the workspace does not exist.
func (s *Store) CreateSurvey(ctx context.Context, workspaceID string, sv *feedback.Survey) (err error) {
	defer wrap(&err, "CreateSurvey(%s)", workspaceID)
	if !canonical(&workspaceID) {
		return notFound("workspace", workspaceID)
	}
	if err := canonicalNew(&sv.ID); err != nil {
		return err
	}
	sv.ID = s.newID(sv.ID)
	sv.Status = feedback.StatusDraft
	sv.CreatedAt = feedback.NewTime(s.now())
	sv.UpdatedAt, sv.StatusChangedAt = sv.CreatedAt, sv.CreatedAt
	if sv.Questions == nil {
		sv.Questions = []feedback.Question{}
	}
	questions, err := jsonArg(sv.Questions)
	if err != nil {
		return err
	}
	return s.db.InTx(ctx, func(tx Conn) error {
		_, err := tx.Exec(ctx, `INSERT INTO surveys (workspace_id, `+surveyColumns+`) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
			workspaceID, sv.ID, sv.Title, sv.Status, questions, sv.CreatedAt.Time, sv.UpdatedAt.Time, sv.StatusChangedAt.Time)
		return createError(err, "workspace", workspaceID)
	})
}

// Survey returns a survey with its questions. Returns feedback.ENotFound.
func (s *Store) Survey(ctx context.Context, workspaceID, id string) (_ *feedback.Survey, err error) {
	defer wrap(&err, "Survey(%s, %s)", workspaceID, id)
	if !canonical(&workspaceID, &id) {
		return nil, notFound("survey", id)
	}
	return findSurvey(ctx, s.db, workspaceID, id, "")
}

// Surveys returns a page of surveys, newest first, and the total.
func (s *Store) Surveys(ctx context.Context, workspaceID string, p feedback.ListParams) (_ []feedback.Survey, _ int, err error) {
	defer wrap(&err, "Surveys(%s)", workspaceID)
	if !canonical(&workspaceID) {
		return []feedback.Survey{}, 0, nil
	}
	return list(ctx, s, workspaceID, listQuery{table: "surveys", columns: surveyColumns}, p, scanSurvey)
}

// UpdateSurvey applies the non-nil fields of in, with the review state
// machine for status. Questions change only while the survey is a draft
// (feedback.EConflict otherwise). Returns feedback.ENotFound,
// feedback.EInvalidTransition.
func (s *Store) UpdateSurvey(ctx context.Context, workspaceID, id string, in feedback.SurveyInput) (sv *feedback.Survey, err error) {
	defer wrap(&err, "UpdateSurvey(%s, %s)", workspaceID, id)
	if !canonical(&workspaceID, &id) {
		return nil, notFound("survey", id)
	}
	err = s.db.InTx(ctx, func(tx Conn) error {
		if err := s.lockRecord(ctx, tx, id); err != nil {
			return err
		}
		sv, err = findSurvey(ctx, tx, workspaceID, id, s.dialect.ForUpdate)
		if err != nil {
			return err
		}
		return s.updateSurvey(ctx, tx, workspaceID, sv, in)
	})
	return nilOnError(sv, err)
}

// updateSurvey applies in to sv, which the transaction has read.
func (s *Store) updateSurvey(ctx context.Context, tx Conn, workspaceID string, sv *feedback.Survey, in feedback.SurveyInput) error {
	now := s.now()
	if in.Questions != nil && sv.Status != feedback.StatusDraft {
		return feedback.Errorf(feedback.EConflict, "The questions of a survey can change only while it is a draft; this one is %s.", sv.Status)
	}
	l := lifecycle{"survey", &sv.Title, &sv.Status, &sv.StatusChangedAt, &sv.UpdatedAt}
	changed, _, err := l.apply(in.Title, in.Status, now)
	if err != nil {
		return err
	}
	if in.Questions != nil {
		sv.Questions, sv.UpdatedAt, changed = *in.Questions, feedback.NewTime(now), true
	}
	if !changed {
		return nil
	}
	questions, err := jsonArg(sv.Questions)
	if err != nil {
		return err
	}
	_, err = tx.Exec(ctx, `UPDATE surveys SET title = $3, status = $4, questions = $5, updated_at = $6, status_changed_at = $7
		WHERE workspace_id = $1 AND id = $2`,
		workspaceID, sv.ID, sv.Title, sv.Status, questions, sv.UpdatedAt.Time, sv.StatusChangedAt.Time)
	return err
}

// findSurvey reads a survey; lock is "" or the dialect's ForUpdate.
func findSurvey(ctx context.Context, c Conn, workspaceID, id, lock string) (*feedback.Survey, error) {
	sv, err := one(scanSurvey(c.QueryRow(ctx, `SELECT `+surveyColumns+` FROM surveys
		WHERE workspace_id = $1 AND id = $2`+lock, workspaceID, id)))
	return sv, orNotFound(err, "survey", id)
}

func scanSurvey(r Row) (feedback.Survey, error) {
	var v feedback.Survey
	err := r.Scan(&v.ID, &v.Title, &v.Status, asJSON(&v.Questions), at(&v.CreatedAt), at(&v.UpdatedAt), at(&v.StatusChangedAt))
	return v, err
}
