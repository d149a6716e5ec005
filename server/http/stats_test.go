package http_test

import (
	"net/url"
	"testing"
	"time"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// statsPath returns path with the query of the day around now and more.
func statsPath(path string, now time.Time, more url.Values) string {
	day := now.UTC().Truncate(24 * time.Hour)
	q := url.Values{"from": {day.Format(time.RFC3339)}, "to": {day.AddDate(0, 0, 1).Format(time.RFC3339)}}
	for k, v := range more {
		q[k] = v
	}
	return "/api/v1" + path + "?" + q.Encode()
}

// TestStats: the statistics endpoints answer what visitors submitted
// through the posters, per workspace and location, for the review and
// survey, in the document's shapes; every bad parameter is a 400 that
// names it and every id of another workspace a 404.
func TestStats(t *testing.T) {
	eachStore(t, func(t *testing.T, ts *TestServer) {
		f := ts.newFixture(t, "Acme")
		other := ts.newFixture(t, "Beta")
		for _, s := range []struct {
			code string
			body map[string]any
		}{
			{f.Hygiene.Code, map[string]any{"rating": 2, "tags": []string{feedback.TagNoSoap}}},
			{f.Hygiene.Code, map[string]any{"rating": 5}},
			{f.RPoster.Code, map[string]any{"rating": 4, "comment": "Good"}},
			{f.SPoster.Code, map[string]any{"answers": map[string]any{"overall": 3, "why": "a"}}},
			{other.Hygiene.Code, map[string]any{"rating": 1}},
		} {
			s.body["id"] = feedback.NewID()
			submit(t, ts, s.code, s.body).expect(t, 201, "")
		}
		now := ts.Clock.Now()
		get := func(path string, more url.Values, out any) {
			t.Helper()
			ts.do(t, req{method: "GET", path: statsPath(path, now, more), token: f.Token}).expect(t, 200, "").decode(t, out)
		}

		var h feedback.HygieneStats
		get("/stats/hygiene", url.Values{"bucket": {"hour"}, "location_id": {f.Location.ID}}, &h)
		if h.Total.Count != 2 || *h.Total.LowShare != 0.5 || h.Total.Tags[feedback.TagNoSoap] != 1 || len(h.Buckets) != 1 ||
			h.TimeZone != "UTC" || h.Bucket != "hour" {
			t.Errorf("hygiene statistics %+v", h)
		}
		var l feedback.LocationStats
		get("/stats/locations", url.Values{"bucket": {"week"}}, &l)
		if len(l.Locations) != 1 || l.Locations[0].LocationID != f.Location.ID || l.Locations[0].Total.Count != 2 {
			t.Errorf("location statistics %+v", l)
		}
		var r feedback.ReviewStats
		get("/stats/reviews/"+f.Review.ID, nil, &r)
		if r.Total.Count != 1 || *r.Total.Average != 4 || r.Bucket != "day" {
			t.Errorf("review statistics %+v", r)
		}
		var s feedback.SurveyStats
		get("/stats/surveys/"+f.Survey.ID, url.Values{"location_id": {f.Location.ID}}, &s)
		if s.Responses != 1 || len(s.Questions) != 2 || s.Questions[0].Distribution[2] != 1 || s.Questions[1].Choices["a"] != 1 {
			t.Errorf("survey statistics %+v", s)
		}

		const day = "from=2026-11-21T00:00:00Z&to=2026-11-22T00:00:00Z"
		runScenarios(t, ts, f, []scenario{
			{name: "stats/without to", method: "GET", path: "/stats/hygiene?from=2026-11-21T00:00:00Z", status: 400, code: feedback.EInvalidParameter, params: []string{"to"}},
			{name: "stats/without bounds", method: "GET", path: "/stats/locations", status: 400, code: feedback.EInvalidParameter, params: []string{"from", "to"}},
			{name: "stats/a date", method: "GET", path: "/stats/hygiene?from=2026-11-21&to=2026-11-22T00:00:00Z", status: 400, code: feedback.EInvalidParameter, params: []string{"from"}},
			{name: "stats/reversed", method: "GET", path: "/stats/hygiene?from=2026-11-22T00:00:00Z&to=2026-11-21T00:00:00Z", status: 400, code: feedback.EInvalidParameter, params: []string{"to"}},
			{name: "stats/too long", method: "GET", path: "/stats/hygiene?from=2025-01-01T00:00:00Z&to=2026-11-21T00:00:00Z", status: 400, code: feedback.EInvalidParameter, params: []string{"to"}},
			{name: "stats/bad bucket", method: "GET", path: "/stats/hygiene?" + day + "&bucket=month", status: 400, code: feedback.EInvalidParameter, params: []string{"bucket"}},
			{name: "stats/twice", method: "GET", path: "/stats/hygiene?" + day + "&bucket=day&bucket=hour", status: 400, code: feedback.EInvalidParameter, params: []string{"bucket"}},
			{name: "stats/unknown parameter", method: "GET", path: "/stats/locations?" + day + "&location_id={loc}", status: 400, code: feedback.EInvalidParameter, params: []string{"location_id"}},
			{name: "stats/a year of hours", method: "GET", path: "/stats/hygiene?from=2025-11-21T00:00:00Z&to=2026-11-22T00:00:00Z&bucket=hour", status: 200},
			{name: "stats/their location", method: "GET", path: "/stats/hygiene?" + day + "&location_id=" + other.Location.ID, status: 404, code: feedback.ENotFound},
			{name: "stats/no location", method: "GET", path: "/stats/hygiene?" + day + "&location_id=nope", status: 404, code: feedback.ENotFound},
			{name: "stats/their review", method: "GET", path: "/stats/reviews/" + other.Review.ID + "?" + day, status: 404, code: feedback.ENotFound},
			{name: "stats/their survey", method: "GET", path: "/stats/surveys/" + other.Survey.ID + "?" + day, status: 404, code: feedback.ENotFound},
			{name: "stats/a review's id as a survey's", method: "GET", path: "/stats/surveys/{review}?" + day, status: 404, code: feedback.ENotFound},
			{name: "settings/read", method: "GET", path: "/workspace/settings", status: 200},
			{name: "settings/unknown zone", method: "PATCH", path: "/workspace/settings", body: map[string]any{"time_zone": "Mars/Olympus"}, status: 422, code: feedback.EValidation, params: []string{"time_zone"}},
			{name: "settings/no zone", method: "PATCH", path: "/workspace/settings", body: map[string]any{}, status: 422, code: feedback.EValidation, params: []string{"time_zone"}},
			{name: "settings/change", method: "PATCH", path: "/workspace/settings", body: map[string]any{"time_zone": "Europe/Berlin"}, status: 200},
		})
		get("/stats/hygiene", nil, &h)
		if h.TimeZone != "Europe/Berlin" {
			t.Errorf("the time zone after the change: %q", h.TimeZone)
		}
		var theirs feedback.WorkspaceSettings
		ts.do(t, req{method: "GET", path: "/api/v1/workspace/settings", token: other.Token}).expect(t, 200, "").decode(t, &theirs)
		if theirs.TimeZone != "UTC" {
			t.Errorf("the other workspace's zone changed to %q", theirs.TimeZone)
		}
	})
}

// TestStatsRoles: a viewer reads the statistics and the settings but
// cannot change them; the owner can, and the change is audited.
func TestStatsRoles(t *testing.T) {
	eachStore(t, func(t *testing.T, ts *TestServer) {
		f := ts.newFixture(t, "Acme")
		ada := ts.signIn(t, "ada") // the first user is the platform owner
		bob := ts.signIn(t, "bob")
		ts.addMember(t, f.ID, bob.User.ID, feedback.RoleViewer)
		zone := map[string]any{"time_zone": "Asia/Kolkata"}
		bob.do(t, req{method: "GET", path: statsPath("/stats/hygiene", ts.Clock.Now(), nil)}).expect(t, 200, "")
		bob.do(t, req{method: "GET", path: "/api/v1/workspace/settings"}).expect(t, 200, "")
		bob.do(t, req{method: "PATCH", path: "/api/v1/workspace/settings", body: zone}).expect(t, 403, feedback.EForbidden)
		var st feedback.WorkspaceSettings
		ada.do(t, req{method: "PATCH", path: "/api/v1/workspace/settings", body: zone, header: inWorkspace(f.ID)}).
			expect(t, 200, "").decode(t, &st)
		if st.TimeZone != "Asia/Kolkata" {
			t.Errorf("the owner's change answered %+v", st)
		}
		expectAudited(t, ada, feedback.AuditWorkspaceSettings, "workspace:"+f.ID)
	})
}
