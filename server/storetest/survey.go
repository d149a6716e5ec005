package storetest

import (
	"testing"
	"time"

	"github.com/feedbackhq/feedback/shared/feedback"
)

func testSurvey(t *testing.T, h harness) {
	h.run(t, "Create", func(t *testing.T, f *fixture) {
		ws := f.workspace("acme")
		s := f.survey(ws, feedback.StatusDraft)
		now := feedback.Time{Time: f.clock.stored()}
		want := feedback.Survey{ID: s.ID, Title: "Tell us more", Status: feedback.StatusDraft, Questions: questions(),
			CreatedAt: now, UpdatedAt: now, StatusChangedAt: now}
		wantEqual(t, "the argument after CreateSurvey", want, *s)
		got, err := f.s.Survey(f.ctx(), ws, s.ID)
		f.must(err)
		wantEqual(t, "Survey", want, *got)
		wantCode(t, f.s.CreateSurvey(f.ctx(), feedback.NewID(), &feedback.Survey{Title: "x", Questions: questions()}), feedback.ENotFound)
	})
	h.run(t, "Questions", func(t *testing.T, f *fixture) {
		ws := f.workspace("acme")
		s := f.survey(ws, feedback.StatusDraft)
		f.clock.Add(time.Minute)
		qs := questions()[:1]
		got, err := f.s.UpdateSurvey(f.ctx(), ws, s.ID, feedback.SurveyInput{Questions: &qs})
		f.must(err)
		want := *s
		want.Questions, want.UpdatedAt = qs, feedback.Time{Time: f.clock.stored()}
		wantEqual(t, "UpdateSurvey of a draft's questions", want, *got)

		active := feedback.StatusActive
		_, err = f.s.UpdateSurvey(f.ctx(), ws, s.ID, feedback.SurveyInput{Status: &active})
		f.must(err)
		before, err := f.s.Survey(f.ctx(), ws, s.ID)
		f.must(err)
		all := questions()
		title := "Changed"
		_, err = f.s.UpdateSurvey(f.ctx(), ws, s.ID, feedback.SurveyInput{Title: &title, Questions: &all})
		wantCode(t, err, feedback.EConflict)
		after, err := f.s.Survey(f.ctx(), ws, s.ID)
		f.must(err)
		wantEqual(t, "an active survey after a refused change of questions", *before, *after)
	})
	h.run(t, "Status", func(t *testing.T, f *fixture) {
		ws := f.workspace("acme")
		s := f.survey(ws, feedback.StatusDraft)
		f.clock.Add(time.Minute)
		active, draft, closed := feedback.StatusActive, feedback.StatusDraft, feedback.StatusClosed
		got, err := f.s.UpdateSurvey(f.ctx(), ws, s.ID, feedback.SurveyInput{Status: &active})
		f.must(err)
		now := feedback.Time{Time: f.clock.stored()}
		want := *s
		want.Status, want.StatusChangedAt, want.UpdatedAt = active, now, now
		wantEqual(t, "UpdateSurvey draft to active", want, *got)
		f.clock.Add(time.Minute)
		_, err = f.s.UpdateSurvey(f.ctx(), ws, s.ID, feedback.SurveyInput{Status: &draft})
		wantCode(t, err, feedback.EInvalidTransition)
		same, err := f.s.UpdateSurvey(f.ctx(), ws, s.ID, feedback.SurveyInput{Status: &active})
		f.must(err)
		wantEqual(t, "UpdateSurvey to the current status", want, *same)
		_, err = f.s.UpdateSurvey(f.ctx(), ws, s.ID, feedback.SurveyInput{Status: &closed})
		f.must(err)
		stored, err := f.s.Survey(f.ctx(), ws, s.ID)
		f.must(err)
		if stored.Status != closed || !stored.StatusChangedAt.Equal(f.clock.stored()) {
			t.Errorf("after active to closed: status %s changed at %v, want closed at %v", stored.Status, stored.StatusChangedAt, f.clock.stored())
		}
	})
	h.run(t, "NotFound", func(t *testing.T, f *fixture) {
		ws := f.workspace("acme")
		f.survey(ws, feedback.StatusDraft)
		title := "x"
		for _, id := range []string{feedback.NewID(), "nope"} {
			_, err := f.s.Survey(f.ctx(), ws, id)
			wantCode(t, err, feedback.ENotFound)
			_, err = f.s.UpdateSurvey(f.ctx(), ws, id, feedback.SurveyInput{Title: &title})
			wantCode(t, err, feedback.ENotFound)
		}
	})
}
