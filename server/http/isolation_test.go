package http_test

import (
	"strings"
	"testing"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// TestWorkspaceIsolation is the cross-workspace matrix: a token of
// workspace A gets 404 for every id of workspace B on every endpoint, and
// no list of A shows anything of B.
func TestWorkspaceIsolation(t *testing.T) {
	eachStore(t, func(t *testing.T, ts *TestServer) {
		a, b := ts.newFixture(t, "Alpha"), ts.newFixture(t, "Beta")
		hook := createWebhook(t, ts, b)
		kiosk := pairKiosk(t, ts, b)
		bIDs := strings.NewReplacer("{loc}", b.Location.ID, "{review}", b.Review.ID, "{survey}", b.Survey.ID,
			"{poster}", b.Hygiene.ID, "{hook}", hook, "{kiosk}", kiosk)
		endpoints := []struct {
			method, path string
			body         any
		}{
			{"GET", "/locations/{loc}", nil},
			{"PATCH", "/locations/{loc}", map[string]any{"name": "stolen"}},
			{"DELETE", "/locations/{loc}", nil},
			{"GET", "/locations/{loc}/posters", nil},
			{"POST", "/locations/{loc}/posters", map[string]any{"form": "hygiene"}},
			{"GET", "/posters/{poster}", nil},
			{"POST", "/posters/{poster}/revoke", nil},
			{"GET", "/posters/{poster}/qr.png", nil},
			{"GET", "/posters/{poster}/qr.svg", nil},
			{"GET", "/posters/print.pdf?ids={poster}", nil},
			{"GET", "/posters/{poster}/poster.pdf", nil},
			{"GET", "/review/{review}", nil},
			{"PATCH", "/review/{review}", map[string]any{"status": "paused"}},
			{"GET", "/review/{review}/responses", nil},
			{"GET", "/surveys/{survey}", nil},
			{"PATCH", "/surveys/{survey}", map[string]any{"status": "paused"}},
			{"GET", "/surveys/{survey}/responses", nil},
			{"GET", "/webhooks/{hook}", nil},
			{"PATCH", "/webhooks/{hook}", map[string]any{"enabled": false}},
			{"POST", "/webhooks/{hook}/test", nil},
			{"GET", "/webhooks/{hook}/deliveries", nil},
			{"POST", "/webhooks/{hook}/deliveries/" + feedback.NewID() + "/redeliver", nil},
			{"DELETE", "/webhooks/{hook}", nil},
			{"DELETE", "/kiosks/{kiosk}", nil},
		}
		for _, e := range endpoints {
			path := bIDs.Replace(e.path)
			for _, prefix := range []string{"/api/v1", "/api"} {
				t.Run(e.method+" "+prefix+e.path, func(t *testing.T) {
					ts.do(t, req{method: e.method, path: prefix + path, token: a.Token, body: e.body}).expect(t, 404, feedback.ENotFound)
				})
			}
		}
		t.Run("references into B", func(t *testing.T) {
			p := "/api/v1/locations/" + a.Location.ID + "/posters"
			ts.do(t, req{method: "POST", path: p, token: a.Token, body: map[string]any{"form": "review", "review_id": b.Review.ID}}).expect(t, 404, feedback.ENotFound)
			ts.do(t, req{method: "POST", path: p, token: a.Token, body: map[string]any{"form": "survey", "survey_id": b.Survey.ID}}).expect(t, 404, feedback.ENotFound)
			ts.do(t, req{method: "POST", path: "/api/v1/kiosks/pairing-codes", token: a.Token,
				body: map[string]any{"location_id": b.Location.ID, "form": "hygiene"}}).expect(t, 404, feedback.ENotFound)
		})
		submit(t, ts, b.Hygiene.Code, map[string]any{"id": feedback.NewID(), "rating": 2}).expect(t, 201, "")
		t.Run("lists", func(t *testing.T) {
			for _, path := range []string{"/locations", "/review", "/surveys", "/webhooks", "/kiosks", "/hygiene",
				"/hygiene?location_id=" + b.Location.ID, "/locations/" + a.Location.ID + "/posters", "/events"} {
				r := ts.do(t, req{method: "GET", path: "/api/v1" + path, token: a.Token}).expect(t, 200, "")
				for _, id := range []string{b.ID, b.Location.ID, b.Review.ID, b.Survey.ID, b.Hygiene.ID, hook, kiosk} {
					if strings.Contains(string(r.Body), id) {
						t.Errorf("GET %s as A shows B's id %s: %s", path, id, r.Body)
					}
				}
			}
		})
		// B's data is still there and unchanged.
		var loc feedback.Location
		ts.do(t, req{method: "GET", path: "/api/v1/locations/" + b.Location.ID, token: b.Token}).expect(t, 200, "").decode(t, &loc)
		if loc.Name != b.Location.Name {
			t.Errorf("B's location was renamed to %q", loc.Name)
		}
	})
}
