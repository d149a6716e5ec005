package http_test

import (
	"net/url"
	"testing"
	"time"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// TestSummary: GET /summary counts the submissions of a range per
// location, with a time zone's offset in the bounds, and refuses bounds
// that are missing, reversed, too far apart or unknown.
func TestSummary(t *testing.T) {
	eachStore(t, func(t *testing.T, ts *TestServer) {
		f := ts.newFixture(t, "Acme")
		for _, s := range []struct {
			code string
			body map[string]any
		}{
			{f.Hygiene.Code, map[string]any{"rating": 2}},
			{f.Hygiene.Code, map[string]any{"rating": 5}},
			{f.RPoster.Code, map[string]any{"rating": 4, "comment": "Good"}},
			{f.SPoster.Code, map[string]any{"answers": map[string]any{"overall": 3}}},
		} {
			s.body["id"] = feedback.NewID()
			submit(t, ts, s.code, s.body).expect(t, 201, "")
		}
		zone := time.FixedZone("", -5*3600)
		now := ts.Clock.Now().In(zone)
		from := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, zone)
		q := url.Values{"from": {from.Format(time.RFC3339)}, "to": {from.AddDate(0, 0, 1).Format(time.RFC3339)}}
		var got feedback.Summary
		ts.do(t, req{method: "GET", path: "/api/v1/summary?" + q.Encode(), token: f.Token}).expect(t, 200, "").decode(t, &got)
		want := feedback.LocationSummary{LocationID: f.Location.ID, Hygiene: feedback.RatingSummary{Count: 2, RatingSum: 7},
			ReviewResponses: feedback.RatingSummary{Count: 1, RatingSum: 4}, SurveyResponses: 1}
		if len(got.Locations) != 1 || got.Locations[0] != want || !got.From.Equal(from) || !got.To.Equal(from.AddDate(0, 0, 1)) {
			t.Errorf("summary %+v, want from %v and %+v", got, from, want)
		}

		q.Set("from", from.AddDate(0, 0, 1).Format(time.RFC3339))
		q.Set("to", from.AddDate(0, 0, 2).Format(time.RFC3339))
		ts.do(t, req{method: "GET", path: "/api/v1/summary?" + q.Encode(), token: f.Token}).expect(t, 200, "").decode(t, &got)
		if len(got.Locations) != 0 {
			t.Errorf("tomorrow's summary: %+v", got)
		}

		runScenarios(t, ts, f, []scenario{
			{name: "summary/by date", method: "GET", path: "/summary?from=2026-11-21&to=2026-11-22", status: 200},
			{name: "summary/without to", method: "GET", path: "/summary?from=2026-11-21", status: 400, code: feedback.EInvalidParameter, params: []string{"to"}},
			{name: "summary/without bounds", method: "GET", path: "/summary", status: 400, code: feedback.EInvalidParameter, params: []string{"from", "to"}},
			{name: "summary/reversed", method: "GET", path: "/summary?from=2026-11-22&to=2026-11-21", status: 400, code: feedback.EInvalidParameter, params: []string{"to"}},
			{name: "summary/empty range", method: "GET", path: "/summary?from=2026-11-21&to=2026-11-21", status: 400, code: feedback.EInvalidParameter, params: []string{"to"}},
			{name: "summary/too long", method: "GET", path: "/summary?from=2026-01-01&to=2026-03-01", status: 400, code: feedback.EInvalidParameter, params: []string{"to"}},
			{name: "summary/bad from", method: "GET", path: "/summary?from=today&to=2026-11-22", status: 400, code: feedback.EInvalidParameter, params: []string{"from"}},
			{name: "summary/unknown parameter", method: "GET", path: "/summary?from=2026-11-21&to=2026-11-22&location_id={loc}", status: 400, code: feedback.EInvalidParameter, params: []string{"location_id"}},
		})
	})
}
