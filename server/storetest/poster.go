package storetest

import (
	"testing"
	"time"

	"github.com/feedbackhq/feedback/server"
	"github.com/feedbackhq/feedback/shared/feedback"
)

func testPoster(t *testing.T, h harness) {
	h.run(t, "Create", func(t *testing.T, f *fixture) {
		w := f.world("acme")
		forms := []struct {
			name string
			ref  feedback.FormRef
		}{
			{"hygiene", feedback.FormRef{Form: feedback.FormHygiene}},
			{"review", feedback.FormRef{Form: feedback.FormReview, ReviewID: w.review}},
			{"survey", feedback.FormRef{Form: feedback.FormSurvey, SurveyID: w.survey}},
		}
		for _, tt := range forms {
			p := f.poster(w.ws, w.location, tt.ref)
			want := server.Poster{WorkspaceID: w.ws, Poster: feedback.Poster{ID: p.ID, LocationID: w.location, FormRef: tt.ref,
				Label: "Door", Status: feedback.PosterActive, CreatedAt: feedback.Time{Time: f.clock.stored()}}}
			wantEqual(t, tt.name+": the argument after CreatePoster", want, *p)
			got, err := f.s.Poster(f.ctx(), w.ws, p.ID)
			f.must(err)
			wantEqual(t, tt.name+": Poster", want, *got)
			got, err = f.s.PosterByID(f.ctx(), p.ID)
			f.must(err)
			wantEqual(t, tt.name+": PosterByID", want, *got)
		}
	})
	h.run(t, "CreateMissing", func(t *testing.T, f *fixture) {
		w := f.world("acme")
		other := f.world("other")
		draft := f.review(w.ws, feedback.StatusDraft)
		tests := []struct {
			name     string
			location string
			ref      feedback.FormRef
			params   []string // nil: accepted
		}{
			{"unknown location", feedback.NewID(), feedback.FormRef{Form: feedback.FormHygiene}, []string{"location_id"}},
			{"malformed location", "nope", feedback.FormRef{Form: feedback.FormHygiene}, []string{"location_id"}},
			{"location of another workspace", other.location, feedback.FormRef{Form: feedback.FormHygiene}, []string{"location_id"}},
			{"unknown review", w.location, feedback.FormRef{Form: feedback.FormReview, ReviewID: feedback.NewID()}, []string{"review_id"}},
			{"review of another workspace", w.location, feedback.FormRef{Form: feedback.FormReview, ReviewID: other.review}, []string{"review_id"}},
			{"unknown survey", w.location, feedback.FormRef{Form: feedback.FormSurvey, SurveyID: feedback.NewID()}, []string{"survey_id"}},
			{"survey of another workspace", w.location, feedback.FormRef{Form: feedback.FormSurvey, SurveyID: other.survey}, []string{"survey_id"}},
			{"both unknown", feedback.NewID(), feedback.FormRef{Form: feedback.FormReview, ReviewID: feedback.NewID()}, []string{"location_id", "review_id"}},
			{"a draft review is fine", w.location, feedback.FormRef{Form: feedback.FormReview, ReviewID: draft.ID}, nil},
		}
		for _, tt := range tests {
			p := &server.Poster{WorkspaceID: w.ws, Poster: feedback.Poster{LocationID: tt.location, FormRef: tt.ref}}
			err := f.s.CreatePoster(f.ctx(), p)
			if tt.params == nil {
				if err != nil {
					t.Errorf("%s: CreatePoster: %v", tt.name, err)
				}
				continue
			}
			wantCode(t, err, feedback.ENotFound)
			wantParams(t, err, tt.params...)
		}
		list, total, err := f.s.Posters(f.ctx(), w.ws, w.location, feedback.ListParams{Page: 1, PerPage: 50})
		f.must(err)
		if total != 2 || len(list) != 2 {
			t.Errorf("Posters after the refused creates: %d of %d, want the world's and the draft review's", len(list), total)
		}
	})
	h.run(t, "Revoke", func(t *testing.T, f *fixture) {
		w := f.world("acme")
		f.clock.Add(time.Hour)
		revokedAt := feedback.Time{Time: f.clock.stored()}
		p, err := f.s.RevokePoster(f.ctx(), w.ws, w.poster)
		f.must(err)
		if p.Status != feedback.PosterRevoked || p.RevokedAt == nil || !p.RevokedAt.Equal(revokedAt.Time) {
			t.Errorf("RevokePoster: status %s, revoked_at %v; want revoked at %v", p.Status, p.RevokedAt, revokedAt)
		}
		f.clock.Add(time.Hour)
		again, err := f.s.RevokePoster(f.ctx(), w.ws, w.poster)
		f.must(err)
		wantEqual(t, "a second RevokePoster", *p, *again)
		stored, err := f.s.PosterByID(f.ctx(), w.poster)
		f.must(err)
		wantEqual(t, "PosterByID of a revoked poster", *p, *stored)
		_, err = f.s.RevokePoster(f.ctx(), w.ws, feedback.NewID())
		wantCode(t, err, feedback.ENotFound)
	})
	h.run(t, "NotFound", func(t *testing.T, f *fixture) {
		w := f.world("acme")
		for _, id := range []string{feedback.NewID(), "nope"} {
			_, err := f.s.Poster(f.ctx(), w.ws, id)
			wantCode(t, err, feedback.ENotFound)
			_, err = f.s.PosterByID(f.ctx(), id)
			wantCode(t, err, feedback.ENotFound)
			_, _, err = f.s.Posters(f.ctx(), w.ws, id, feedback.ListParams{Page: 1, PerPage: 10})
			wantCode(t, err, feedback.ENotFound)
		}
	})
}
