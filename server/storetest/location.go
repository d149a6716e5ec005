package storetest

import (
	"testing"
	"time"

	"github.com/feedbackhq/feedback/server"
	"github.com/feedbackhq/feedback/shared/feedback"
)

func testLocation(t *testing.T, h harness) {
	h.run(t, "Create", func(t *testing.T, f *fixture) {
		ws := f.workspace("acme")
		l := f.location(ws)
		now := feedback.Time{Time: f.clock.stored()}
		want := feedback.Location{ID: l.ID, Name: "Restroom", Description: "Ground floor", CreatedAt: now, UpdatedAt: now}
		wantEqual(t, "the argument after CreateLocation", want, *l)
		got, err := f.s.Location(f.ctx(), ws, l.ID)
		f.must(err)
		wantEqual(t, "Location", want, *got)
		if loc := got.CreatedAt.Location(); loc != time.UTC {
			t.Errorf("created_at is in %v, want UTC", loc)
		}
		err = f.s.CreateLocation(f.ctx(), feedback.NewID(), &feedback.Location{Name: "Nowhere"})
		wantCode(t, err, feedback.ENotFound)
	})
	h.run(t, "Update", func(t *testing.T, f *fixture) {
		ws := f.workspace("acme")
		name, desc := "Lobby", "By the door"
		tests := []struct {
			name      string
			in        feedback.LocationInput
			wantName  string
			wantDescr string
		}{
			{"name", feedback.LocationInput{Name: &name}, "Lobby", "Ground floor"},
			{"description", feedback.LocationInput{Description: &desc}, "Restroom", "By the door"},
			{"both", feedback.LocationInput{Name: &name, Description: &desc}, "Lobby", "By the door"},
		}
		for _, tt := range tests {
			l := f.location(ws)
			f.clock.Add(time.Minute)
			got, err := f.s.UpdateLocation(f.ctx(), ws, l.ID, tt.in)
			f.must(err)
			want := feedback.Location{ID: l.ID, Name: tt.wantName, Description: tt.wantDescr, CreatedAt: l.CreatedAt,
				UpdatedAt: feedback.Time{Time: f.clock.stored()}}
			wantEqual(t, tt.name+": UpdateLocation", want, *got)
			stored, err := f.s.Location(f.ctx(), ws, l.ID)
			f.must(err)
			wantEqual(t, tt.name+": Location after the update", want, *stored)
		}
		_, err := f.s.UpdateLocation(f.ctx(), ws, feedback.NewID(), feedback.LocationInput{Name: &name})
		wantCode(t, err, feedback.ENotFound)
	})
	h.run(t, "Delete", func(t *testing.T, f *fixture) {
		w := f.world("acme")
		kept := f.location(w.ws)
		review := f.poster(w.ws, w.location, feedback.FormRef{Form: feedback.FormReview, ReviewID: w.review})
		elsewhere := f.poster(w.ws, kept.ID, feedback.FormRef{Form: feedback.FormHygiene})
		kiosk := f.pair(w.ws, w.location, feedback.FormRef{Form: feedback.FormHygiene}, "k1")
		code := f.pairingCode(w.ws, w.location, feedback.FormRef{Form: feedback.FormHygiene}, "unused")
		f.clock.Add(time.Hour)
		deletedAt := f.clock.stored()
		f.must(f.s.DeleteLocation(f.ctx(), w.ws, w.location))

		_, err := f.s.Location(f.ctx(), w.ws, w.location)
		wantCode(t, err, feedback.ENotFound)
		name := "x"
		_, err = f.s.UpdateLocation(f.ctx(), w.ws, w.location, feedback.LocationInput{Name: &name})
		wantCode(t, err, feedback.ENotFound)
		wantCode(t, f.s.DeleteLocation(f.ctx(), w.ws, w.location), feedback.ENotFound)
		_, _, err = f.s.Posters(f.ctx(), w.ws, w.location, feedback.ListParams{Page: 1, PerPage: 10})
		wantCode(t, err, feedback.ENotFound)
		list, total, err := f.s.Locations(f.ctx(), w.ws, feedback.ListParams{Page: 1, PerPage: 10})
		f.must(err)
		if total != 1 || len(list) != 1 || list[0].ID != kept.ID {
			t.Errorf("Locations after the delete = %v (total %d), want only %s", list, total, kept.ID)
		}
		for _, id := range []string{w.poster, review.ID} {
			p, err := f.s.Poster(f.ctx(), w.ws, id)
			f.must(err)
			if p.Status != feedback.PosterRevoked || p.RevokedAt == nil || !p.RevokedAt.Equal(deletedAt) {
				t.Errorf("poster of the deleted location: status %s, revoked_at %v; want revoked at %v", p.Status, p.RevokedAt, deletedAt)
			}
		}
		if p, err := f.s.Poster(f.ctx(), w.ws, elsewhere.ID); err != nil || p.RevokedAt != nil {
			t.Errorf("poster of another location: %+v, %v; want it active", p, err)
		}
		k, err := f.s.KioskByCredential(f.ctx(), kiosk.CredentialHash)
		f.must(err)
		if k.RevokedAt == nil || !k.RevokedAt.Equal(deletedAt) {
			t.Errorf("kiosk of the deleted location: revoked_at %v, want %v", k.RevokedAt, deletedAt)
		}
		err = f.s.PairKiosk(f.ctx(), code, &server.Kiosk{CredentialHash: []byte("cred-late")})
		wantCode(t, err, feedback.ENotFound)
		err = f.s.CreatePoster(f.ctx(), &server.Poster{WorkspaceID: w.ws, Poster: feedback.Poster{LocationID: w.location,
			FormRef: feedback.FormRef{Form: feedback.FormHygiene}}})
		wantCode(t, err, feedback.ENotFound)
		wantParams(t, err, "location_id")
	})
	h.run(t, "NotFound", func(t *testing.T, f *fixture) {
		ws := f.workspace("acme")
		f.location(ws)
		for _, id := range []string{feedback.NewID(), "not-a-uuid"} {
			_, err := f.s.Location(f.ctx(), ws, id)
			wantCode(t, err, feedback.ENotFound)
			wantCode(t, f.s.DeleteLocation(f.ctx(), ws, id), feedback.ENotFound)
		}
	})
}
