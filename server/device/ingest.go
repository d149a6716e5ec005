package device

import (
	"context"
	"encoding/json"
	"time"

	"github.com/feedbackhq/feedback/shared/feedback"
	"github.com/feedbackhq/feedback/shared/i18n"
)

// target is where a visitor submission goes: a workspace, a location and
// a form, reached through a poster (source qr) or a kiosk (source kiosk).
type target struct {
	WorkspaceID string
	LocationID  string
	PosterID    string
	DeviceID    string
	Source      feedback.Source
	feedback.FormRef
	View      *feedback.FormView
	RevokedAt *time.Time // when the poster was revoked, if it was
}

// ingest validates a submission for t and stores it idempotently. It
// returns the stored record and whether it was new.
func (s *Server) ingest(ctx context.Context, t *target, sub *feedback.Submission, lang string) (any, bool, error) {
	now := s.now()
	if err := sub.Validate(t.Form, t.View.Survey, now); err != nil {
		return nil, false, err
	}
	captured := sub.CapturedTime(now)
	if err := t.accepts(captured, now); err != nil {
		return nil, false, err
	}
	if sub.Language != "" {
		lang = sub.Language
	}
	if lang == "" {
		lang = i18n.Default
	}
	return s.save(ctx, t, sub, lang, captured)
}

// accepts reports, as an error, whether t takes a submission captured at
// captured: a revoked poster or an inactive form still takes submissions
// captured before the change, for feedback.RevokedGrace.
func (t *target) accepts(captured, now time.Time) error {
	if t.RevokedAt != nil && !lateButValid(captured, *t.RevokedAt, now) {
		return feedback.Errorf(feedback.EPosterRevoked, "This poster has been revoked and takes no new feedback.")
	}
	var status feedback.Status
	var changed time.Time
	switch {
	case t.View.Review != nil:
		status, changed = t.View.Review.Status, t.View.Review.StatusChangedAt.Time
	case t.View.Survey != nil:
		status, changed = t.View.Survey.Status, t.View.Survey.StatusChangedAt.Time
	default:
		return nil
	}
	if status == feedback.StatusActive || (status != feedback.StatusDraft && lateButValid(captured, changed, now)) {
		return nil
	}
	return feedback.Errorf(feedback.EFormNotActive, "This %s is %s and takes no responses.", t.Form, status)
}

func lateButValid(captured, cutoff, now time.Time) bool {
	return captured.Before(cutoff) && now.Before(cutoff.Add(feedback.RevokedGrace))
}

// save writes the record of the target's form kind.
func (s *Server) save(ctx context.Context, t *target, sub *feedback.Submission, lang string, captured time.Time) (any, bool, error) {
	// common fills the fields every kind of record shares.
	common := func(loc, poster, language *string, src *feedback.Source, dev *string, at *feedback.Time) {
		*loc, *poster, *language, *src, *dev, *at = t.LocationID, t.PosterID, lang, t.Source, t.DeviceID, feedback.NewTime(captured)
	}
	switch t.Form {
	case feedback.FormHygiene:
		h := &feedback.HygieneSubmission{ID: sub.ID, Rating: *sub.Rating, Tags: sub.Tags, Comment: deref(sub.Comment)}
		common(&h.LocationID, &h.PosterID, &h.Language, &h.Source, &h.DeviceID, &h.CapturedAt)
		if h.Tags == nil {
			h.Tags = []string{}
		}
		created, err := s.store.AddHygiene(ctx, t.WorkspaceID, h, sub.Hash())
		return h, created, err
	case feedback.FormReview:
		rr := &feedback.ReviewResponse{ID: sub.ID, ReviewID: t.ReviewID, Rating: *sub.Rating, Comment: deref(sub.Comment),
			ContactEmail: deref(sub.ContactEmail), ContactConsent: sub.ContactConsent != nil && *sub.ContactConsent}
		common(&rr.LocationID, &rr.PosterID, &rr.Language, &rr.Source, &rr.DeviceID, &rr.CapturedAt)
		created, err := s.store.AddReviewResponse(ctx, t.WorkspaceID, rr, sub.Hash())
		return rr, created, err
	default:
		sr := &feedback.SurveyResponse{ID: sub.ID, SurveyID: t.SurveyID, Answers: decodeAnswers(sub.Answers)}
		common(&sr.LocationID, &sr.PosterID, &sr.Language, &sr.Source, &sr.DeviceID, &sr.CapturedAt)
		created, err := s.store.AddSurveyResponse(ctx, t.WorkspaceID, sr, sub.Hash())
		return sr, created, err
	}
}

func decodeAnswers(raw map[string]json.RawMessage) map[string]any {
	out := make(map[string]any, len(raw))
	for k, v := range raw {
		var x any
		_ = json.Unmarshal(v, &x) // validated and re-encoded by Submission.Validate
		out[k] = x
	}
	return out
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
