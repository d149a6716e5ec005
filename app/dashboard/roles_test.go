package dashboard

import (
	"testing"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// TestPlacesByRole: the locations, kiosks and reviews pages show their
// forms and row buttons to admins and owners, and to a viewer only what
// they read, with a line that says why the rest is not there.
func TestPlacesByRole(t *testing.T) {
	loc := feedback.Location{ID: "l1", Name: "Lobby"}
	kiosk := feedback.Kiosk{ID: "k1", Name: "Tablet", LocationID: "l1"}
	review := formItem{id: "r1", title: "Visit", status: feedback.StatusActive, questions: -1}
	viewerSees := map[string][]string{
		"locations": {"Viewers can read the locations", "Posters of Lobby"},
		"kiosks":    {"Viewers can see the kiosks", "Tablet"},
		"reviews":   {"Viewers can read the reviews", "Responses to Visit"},
	}
	writerSees := map[string][]string{
		"locations": {"create-location", "Rename Lobby", "Delete Lobby"},
		"kiosks":    {"create-code", "Unpair Tablet"},
		"reviews":   {"create-form", "move-r1-paused"},
	}
	for _, role := range []string{feedback.RoleViewer, feedback.RoleAdmin, feedback.RoleOwner} {
		ws := &feedback.Membership{Slug: "demo", Name: "Demo", Role: role}
		pages := map[string]string{
			"locations": render(t, &locationsPage{Workspace: ws, locs: []feedback.Location{loc}, loaded: true}),
			"kiosks": render(t, &kiosksPage{Workspace: ws, cat: catalog{locs: []feedback.Location{loc}, loaded: true},
				kiosks: kioskList{items: []feedback.Kiosk{kiosk}, loaded: true}}),
			"reviews": render(t, &formsPage{Workspace: ws, Kind: feedback.FormReview, items: []formItem{review}, loaded: true}),
		}
		for name, html := range pages {
			want, not := writerSees[name], viewerSees[name][:1]
			if role == feedback.RoleViewer {
				want, not = viewerSees[name], writerSees[name]
			}
			check(t, role+" "+name, html, want, not)
		}
	}
}
