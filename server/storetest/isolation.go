package storetest

import (
	"testing"

	"github.com/feedbackhq/feedback/server"
	"github.com/feedbackhq/feedback/shared/feedback"
)

// testIsolation uses workspace A with the ids of workspace B's records:
// every read, update and delete must answer not found, and lists of A
// must hold only A's records.
func testIsolation(t *testing.T, h harness) {
	h.run(t, "ForeignIDs", func(t *testing.T, f *fixture) {
		a, b := f.world("a"), f.world("b")
		bToken := f.token(b.ws, "b")
		bWebhook := f.webhook(b.ws)
		bKiosk := f.pair(b.ws, b.location, feedback.FormRef{Form: feedback.FormHygiene}, "b")
		name, status := "x", feedback.StatusPaused
		qs := questions()
		page := feedback.ListParams{Page: 1, PerPage: 10}
		ctx := f.ctx()
		tests := []struct {
			name string
			call func() error
		}{
			{"RevokeToken", func() error { _, err := f.s.RevokeToken(ctx, a.ws, bToken.ID); return err }},
			{"Location", func() error { _, err := f.s.Location(ctx, a.ws, b.location); return err }},
			{"UpdateLocation", func() error {
				_, err := f.s.UpdateLocation(ctx, a.ws, b.location, feedback.LocationInput{Name: &name})
				return err
			}},
			{"DeleteLocation", func() error { return f.s.DeleteLocation(ctx, a.ws, b.location) }},
			{"Poster", func() error { _, err := f.s.Poster(ctx, a.ws, b.poster); return err }},
			{"Posters", func() error { _, _, err := f.s.Posters(ctx, a.ws, b.location, page); return err }},
			{"RevokePoster", func() error { _, err := f.s.RevokePoster(ctx, a.ws, b.poster); return err }},
			{"Review", func() error { _, err := f.s.Review(ctx, a.ws, b.review); return err }},
			{"UpdateReview", func() error {
				_, err := f.s.UpdateReview(ctx, a.ws, b.review, feedback.ReviewInput{Status: &status})
				return err
			}},
			{"ReviewResponses", func() error { _, _, err := f.s.ReviewResponses(ctx, a.ws, b.review, page); return err }},
			{"Survey", func() error { _, err := f.s.Survey(ctx, a.ws, b.survey); return err }},
			{"UpdateSurvey", func() error {
				_, err := f.s.UpdateSurvey(ctx, a.ws, b.survey, feedback.SurveyInput{Questions: &qs})
				return err
			}},
			{"SurveyResponses", func() error { _, _, err := f.s.SurveyResponses(ctx, a.ws, b.survey, page); return err }},
			{"Webhook", func() error { _, err := f.s.Webhook(ctx, a.ws, bWebhook.ID); return err }},
			{"DeleteWebhook", func() error { return f.s.DeleteWebhook(ctx, a.ws, bWebhook.ID) }},
			{"RevokeKiosk", func() error { return f.s.RevokeKiosk(ctx, a.ws, bKiosk.ID) }},
			{"KioskHeartbeat", func() error { return f.s.KioskHeartbeat(ctx, a.ws, bKiosk.ID, feedback.Heartbeat{}) }},
			{"CreatePoster", func() error {
				return f.s.CreatePoster(ctx, &server.Poster{WorkspaceID: a.ws, Poster: feedback.Poster{LocationID: b.location,
					FormRef: feedback.FormRef{Form: feedback.FormHygiene}}})
			}},
		}
		for _, tt := range tests {
			if err := tt.call(); feedback.ErrorCode(err) != feedback.ENotFound {
				t.Errorf("%s with workspace B's id from workspace A: got %v, want code %s", tt.name, err, feedback.ENotFound)
			}
		}
		f.must(f.s.TouchToken(ctx, a.ws, bToken.ID, T0.Add(1e12)))
		// Nothing of B changed.
		if tok, err := f.s.TokenByHash(ctx, bToken.Hash); err != nil || tok.RevokedAt != nil || tok.LastUsedAt != nil {
			t.Errorf("B's token after A's calls: %+v, %v; want it untouched", tok, err)
		}
		if l, err := f.s.Location(ctx, b.ws, b.location); err != nil || l.Name == name {
			t.Errorf("B's location after A's calls: %+v, %v; want it untouched", l, err)
		}
		if p, err := f.s.Poster(ctx, b.ws, b.poster); err != nil || p.RevokedAt != nil {
			t.Errorf("B's poster after A's calls: %+v, %v; want it active", p, err)
		}
		if r, err := f.s.Review(ctx, b.ws, b.review); err != nil || r.Status != feedback.StatusActive {
			t.Errorf("B's review after A's calls: %+v, %v; want it active", r, err)
		}
		if k, err := f.s.KioskByCredential(ctx, bKiosk.CredentialHash); err != nil || k.RevokedAt != nil || k.LastSeenAt != nil {
			t.Errorf("B's kiosk after A's calls: %+v, %v; want it untouched", k, err)
		}
		if _, err := f.s.Webhook(ctx, b.ws, bWebhook.ID); err != nil {
			t.Errorf("B's webhook after A's calls: %v", err)
		}
	})
	h.run(t, "Lists", func(t *testing.T, f *fixture) {
		a, b := f.world("a"), f.world("b")
		mine := map[string]bool{}
		for _, w := range []world{a, b} {
			for _, l := range listers {
				id := l.create(f, w)
				if w == a {
					mine[id] = true
				}
			}
		}
		for _, l := range listers {
			got, _, err := l.list(f, a, feedback.ListParams{Page: 1, PerPage: feedback.MaxPerPage})
			f.must(err)
			for _, id := range got {
				if !mine[id] && id != a.location && id != a.poster && id != a.review && id != a.survey {
					t.Errorf("%s of workspace A holds %s, which is not A's", l.name, id)
				}
			}
			if len(got) == 0 {
				t.Errorf("%s of workspace A is empty", l.name)
			}
		}
		tokens, err := f.s.Tokens(f.ctx(), a.ws)
		f.must(err)
		f.token(b.ws, "b")
		if again, _ := f.s.Tokens(f.ctx(), a.ws); len(again) != len(tokens) {
			t.Errorf("a token of B shows in Tokens(A)")
		}
		for _, e := range f.events(a.ws) {
			if e.WorkspaceID != a.ws {
				t.Errorf("Events(A) holds an event of %s", e.WorkspaceID)
			}
		}
		p, err := f.s.PosterByID(f.ctx(), b.poster)
		f.must(err)
		if p.WorkspaceID != b.ws {
			t.Errorf("PosterByID(B's poster) names workspace %s, want B", p.WorkspaceID)
		}
	})
}
