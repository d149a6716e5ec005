package http_test

import (
	"strings"
	"testing"
	"time"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// createRule creates an alert rule through the API.
func createRule(t *testing.T, ts *TestServer, token string, body map[string]any) feedback.AlertRule {
	t.Helper()
	var r feedback.AlertRule
	ts.do(t, req{method: "POST", path: "/api/v1/alert-rules", token: token, body: body}).expect(t, 201, "").decode(t, &r)
	return r
}

// lowRatings is the body of a rule: three ratings of 2 or less within
// ten minutes.
func lowRatings() map[string]any {
	return map[string]any{"name": "Three bad ratings", "kind": "low_ratings", "count": 3, "rating": 2,
		"window_minutes": 10, "cooldown_minutes": 30, "emails": []string{"ops@example.com"}}
}

// awaitAlerts polls GET /alerts?query until it lists n alerts, and
// returns them; the worker evaluates in the background.
func awaitAlerts(t *testing.T, ts *TestServer, token, query string, n int) []feedback.Alert {
	t.Helper()
	var page feedback.Page[feedback.Alert]
	for deadline := time.Now().Add(15 * time.Second); ; {
		ts.do(t, req{method: "GET", path: "/api/v1/alerts?" + query, token: token}).expect(t, 200, "").decode(t, &page)
		if len(page.Data) >= n || time.Now().After(deadline) {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if len(page.Data) != n {
		t.Fatalf("GET /alerts?%s lists %d alerts, want %d", query, len(page.Data), n)
	}
	return page.Data
}

// TestAlertRules: rules are created, read, listed, changed and deleted
// through the API, each invalid body is a 422 naming the field and
// stores nothing, and another workspace's rule is a 404.
func TestAlertRules(t *testing.T) {
	eachStore(t, func(t *testing.T, ts *TestServer) {
		f := ts.newFixture(t, "Acme")
		other := ts.NewTenant(t, "Other")
		body := lowRatings()
		body["location_id"] = f.Location.ID
		r := createRule(t, ts, f.Token, body)
		if r.Kind != feedback.RuleLowRatings || r.LocationID == nil || *r.LocationID != f.Location.ID || !r.Enabled ||
			r.Count != 3 || r.Rating != 2 || r.WindowMinutes != 10 || r.CooldownMinutes != 30 {
			t.Errorf("POST /alert-rules: %+v", r)
		}
		path := "/api/v1/alert-rules/" + r.ID
		var got feedback.AlertRule
		ts.do(t, req{method: "GET", path: path, token: f.Token}).expect(t, 200, "").decode(t, &got)
		if got.ID != r.ID || got.Name != r.Name {
			t.Errorf("GET %s: %+v", path, got)
		}
		var page feedback.Page[feedback.AlertRule]
		ts.do(t, req{method: "GET", path: "/api/v1/alert-rules", token: f.Token}).expect(t, 200, "").decode(t, &page)
		if page.Meta.Total != 1 || page.Data[0].ID != r.ID {
			t.Errorf("GET /alert-rules: %+v", page)
		}
		ts.do(t, req{method: "PATCH", path: path, token: f.Token, body: map[string]any{"enabled": false, "location_id": ""}}).
			expect(t, 200, "").decode(t, &got)
		if got.Enabled || got.LocationID != nil || got.Rating != 2 {
			t.Errorf("PATCH %s: %+v", path, got)
		}
		r2 := ts.do(t, req{method: "PATCH", path: path, token: f.Token, body: map[string]any{"kind": "kiosk_offline"}}).
			expect(t, 422, feedback.EValidation)
		namesParam(t, r2, "kind")
		ts.do(t, req{method: "GET", path: path, token: other.Token}).expect(t, 404, feedback.ENotFound)
		ts.do(t, req{method: "PATCH", path: path, token: other.Token, body: map[string]any{"enabled": true}}).expect(t, 404, feedback.ENotFound)
		ts.do(t, req{method: "DELETE", path: path, token: other.Token}).expect(t, 404, feedback.ENotFound)
		ts.do(t, req{method: "DELETE", path: path, token: f.Token}).expect(t, 204, "")
		ts.do(t, req{method: "GET", path: path, token: f.Token}).expect(t, 404, feedback.ENotFound)
	})
}

// TestAlertRuleValidation: each invalid rule is a 422 naming the field,
// and nothing is stored.
func TestAlertRuleValidation(t *testing.T) {
	eachStore(t, func(t *testing.T, ts *TestServer) {
		f := ts.newFixture(t, "Acme")
		other := ts.newFixture(t, "Other")
		with := func(k string, v any) map[string]any {
			b := lowRatings()
			b[k] = v
			return b
		}
		emails := make([]string, 21)
		for i := range emails {
			emails[i] = "a@example.com"
		}
		tests := []struct {
			name  string
			body  map[string]any
			param string
		}{
			{"NoName", with("name", ""), "name"},
			{"LongName", with("name", strings.Repeat("x", 101)), "name"},
			{"NameWithNewline", with("name", "a\r\nBcc: x@example.com"), "name"},
			{"UnknownKind", with("kind", "loud_noise"), "kind"},
			{"RatingFive", with("rating", 5), "rating"},
			{"CountZero", with("count", 0), "count"},
			{"WindowZero", with("window_minutes", 0), "window_minutes"},
			{"WindowOverAWeek", with("window_minutes", 10081), "window_minutes"},
			{"NegativeCooldown", with("cooldown_minutes", -1), "cooldown_minutes"},
			{"TooManyEmails", with("emails", emails), "emails"},
			{"BadEmail", with("emails", []string{"not an address"}), "emails[0]"},
			{"UnknownTag", map[string]any{"name": "t", "kind": "tag_reported", "count": 2, "tag": "smelly", "window_minutes": 5}, "tag"},
			{"AverageSix", map[string]any{"name": "a", "kind": "average_below", "count": 2, "average": 6, "window_minutes": 5}, "average"},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				r := ts.do(t, req{method: "POST", path: "/api/v1/alert-rules", token: f.Token, body: tt.body}).
					expect(t, 422, feedback.EValidation)
				namesParam(t, r, tt.param)
			})
		}
		ts.do(t, req{method: "POST", path: "/api/v1/alert-rules", token: f.Token, body: with("location_id", other.Location.ID)}).
			expect(t, 404, feedback.ENotFound)
		var page feedback.Page[feedback.AlertRule]
		ts.do(t, req{method: "GET", path: "/api/v1/alert-rules", token: f.Token}).expect(t, 200, "").decode(t, &page)
		if page.Meta.Total != 0 {
			t.Errorf("refused rules were stored: %+v", page.Data)
		}
	})
}

// TestAlertLifecycle: three low ratings through the visitor page raise
// one alert, which the live stream receives as alert.triggered; it is
// acknowledged and resolved through the API, each with its event, a
// second transition is a 409, a viewer may read but not act, and
// another workspace sees none of it.
func TestAlertLifecycle(t *testing.T) {
	eachStore(t, func(t *testing.T, ts *TestServer) {
		f := ts.newFixture(t, "Acme")
		other := ts.NewTenant(t, "Other")
		rule := createRule(t, ts, f.Token, lowRatings())
		c, _, err := ts.dialLive(t, "types=alert.triggered,alert.acknowledged,alert.resolved", bearer(f.Token))
		if err != nil {
			t.Fatal(err)
		}
		var ready feedback.LiveControl
		readLive(t, c, &ready)
		for range 4 {
			submit(t, ts, f.Hygiene.Code, map[string]any{"id": feedback.NewID(), "rating": 1}).expect(t, 201, "")
		}
		var ev feedback.Event
		readLive(t, c, &ev)
		a := awaitAlerts(t, ts, f.Token, "state=open&rule_id="+rule.ID+"&location_id="+f.Location.ID, 1)[0]
		if ev.Type != feedback.EventAlertTriggered || !strings.Contains(string(ev.Data), a.ID) || a.Value < 3 {
			t.Errorf("live event %s %s; alert %+v", ev.Type, ev.Data, a)
		}
		path := "/api/v1/alerts/" + a.ID
		ts.do(t, req{method: "GET", path: path, token: other.Token}).expect(t, 404, feedback.ENotFound)
		ts.do(t, req{method: "POST", path: path + "/acknowledge", token: other.Token}).expect(t, 404, feedback.ENotFound)

		ada := ts.signIn(t, "ada")
		bob := ts.signIn(t, "bob")
		ts.addMember(t, f.ID, bob.User.ID, feedback.RoleViewer)
		bob.do(t, req{method: "GET", path: path, header: inWorkspace(f.ID)}).expect(t, 200, "")
		bob.do(t, req{method: "POST", path: path + "/acknowledge", header: inWorkspace(f.ID)}).expect(t, 403, feedback.EForbidden)
		bob.do(t, req{method: "POST", path: "/api/v1/alert-rules", header: inWorkspace(f.ID), body: lowRatings()}).
			expect(t, 403, feedback.EForbidden)

		var acked, resolved feedback.Alert
		ada.do(t, req{method: "POST", path: path + "/acknowledge", header: inWorkspace(f.ID)}).expect(t, 200, "").decode(t, &acked)
		if acked.State != feedback.AlertAcknowledged || acked.AcknowledgedBy == nil || *acked.AcknowledgedBy != "ada@example.com" {
			t.Errorf("acknowledged: %+v", acked)
		}
		readLive(t, c, &ev)
		if ev.Type != feedback.EventAlertAcknowledged {
			t.Errorf("live event %s after the acknowledgement", ev.Type)
		}
		ts.do(t, req{method: "POST", path: path + "/acknowledge", token: f.Token}).expect(t, 409, feedback.EInvalidTransition)
		r := ts.do(t, req{method: "POST", path: path + "/resolve", token: f.Token, body: map[string]any{"note": strings.Repeat("é", 1001)}}).
			expect(t, 422, feedback.EValidation)
		namesParam(t, r, "note")
		ts.do(t, req{method: "POST", path: path + "/resolve", token: f.Token, body: map[string]any{"note": "Soap refilled."}}).
			expect(t, 200, "").decode(t, &resolved)
		if resolved.State != feedback.AlertResolved || *resolved.ResolvedBy != "token:test" || resolved.ResolutionNote != "Soap refilled." {
			t.Errorf("resolved: %+v", resolved)
		}
		readLive(t, c, &ev)
		if ev.Type != feedback.EventAlertResolved {
			t.Errorf("live event %s after the resolution", ev.Type)
		}
		ts.do(t, req{method: "POST", path: path + "/resolve", token: f.Token, body: map[string]any{"note": ""}}).
			expect(t, 409, feedback.EInvalidTransition)
		awaitAlerts(t, ts, f.Token, "state=active", 0)
		awaitAlerts(t, ts, other.Token, "", 0)

		var stats feedback.AlertStats
		ts.do(t, req{method: "GET", path: "/api/v1/stats/alerts?from=2000-01-01&to=2100-01-01", token: f.Token}).expect(t, 200, "").decode(t, &stats)
		if len(stats.Locations) != 1 || stats.Locations[0].Alerts != 1 || stats.Locations[0].AvgResolveSecs == nil {
			t.Errorf("GET /stats/alerts: %+v", stats)
		}
		ts.do(t, req{method: "GET", path: "/api/v1/alerts?state=closed", token: f.Token}).expect(t, 400, feedback.EInvalidParameter)
	})
}
