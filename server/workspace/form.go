package workspace

import (
	"context"

	"github.com/feedbackhq/feedback/server"
	"github.com/feedbackhq/feedback/shared/feedback"
)

// FormStore is what [FormView] reads.
type FormStore interface {
	server.LocationStore
	server.ReviewStore
	server.SurveyStore
}

// FormView loads what a device needs to render the form of a location,
// and what a poster prints. gone reports whether a deleted location is
// acceptable: a revoked poster still takes late submissions after its
// location was deleted.
func FormView(ctx context.Context, store FormStore, ws, locationID string, ref feedback.FormRef, gone bool) (*feedback.FormView, error) {
	v := &feedback.FormView{Form: ref.Form}
	loc, err := store.Location(ctx, ws, locationID)
	switch {
	case err == nil:
		v.LocationName = loc.Name
	case !gone || feedback.ErrorCode(err) != feedback.ENotFound:
		return nil, err
	}
	return v, LoadForm(ctx, store, ws, ref, v)
}

// LoadForm reads the review or survey of ref into v, anew: their status
// decides whether the form takes submissions.
func LoadForm(ctx context.Context, store FormStore, ws string, ref feedback.FormRef, v *feedback.FormView) (err error) {
	switch ref.Form {
	case feedback.FormReview:
		v.Review, err = store.Review(ctx, ws, ref.ReviewID)
	case feedback.FormSurvey:
		v.Survey, err = store.Survey(ctx, ws, ref.SurveyID)
	}
	return err
}
