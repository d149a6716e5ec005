package http_test

import (
	"encoding/json"
	"testing"

	"github.com/feedbackhq/feedback/shared/feedback"
)

func TestReviewStateMachine(t *testing.T) {
	eachStore(t, func(t *testing.T, ts *TestServer) {
		f := ts.newFixture(t, "States")
		var rv feedback.Review
		ts.do(t, req{method: "POST", path: "/api/v1/review", token: f.Token, body: map[string]any{"title": "Flow"}}).expect(t, 201, "").decode(t, &rv)
		if rv.Status != feedback.StatusDraft {
			t.Fatalf("a new review is %q", rv.Status)
		}
		steps := []struct {
			to     feedback.Status
			status int
		}{
			{"paused", 409}, {"closed", 409}, {"active", 200}, {"active", 200}, {"draft", 409}, {"paused", 200},
			{"active", 200}, {"paused", 200}, {"closed", 200}, {"active", 409}, {"archived", 200}, {"closed", 409}, {"archived", 200},
		}
		path := "/api/v1/review/" + rv.ID
		for i, s := range steps {
			r := ts.do(t, req{method: "PATCH", path: path, token: f.Token, body: map[string]any{"status": s.to}})
			if r.Status != s.status {
				t.Fatalf("step %d to %s: %d %s; want %d", i, s.to, r.Status, r.Body, s.status)
			}
		}
		var events struct{ Data []feedback.Event }
		ts.do(t, req{method: "GET", path: "/api/v1/events?limit=1000", token: f.Token}).expect(t, 200, "").decode(t, &events)
		var changes []string
		var lastSeq int64
		for _, e := range events.Data {
			if e.Seq <= lastSeq {
				t.Errorf("events out of order: %d after %d", e.Seq, lastSeq)
			}
			lastSeq = e.Seq
			if e.Type != feedback.EventReviewStatusChanged || e.WorkspaceID != f.ID {
				continue
			}
			var sc feedback.StatusChange
			if err := json.Unmarshal(e.Data, &sc); err != nil {
				t.Fatal(err)
			}
			if sc.Review.ID == rv.ID {
				changes = append(changes, string(sc.PreviousStatus)+">"+string(sc.Review.Status))
			}
		}
		want := "draft>active active>paused paused>active active>paused paused>closed closed>archived"
		if got := join(changes); got != want {
			t.Errorf("status events %q; want %q", got, want)
		}
	})
}

func join(s []string) string {
	out := ""
	for i, x := range s {
		if i > 0 {
			out += " "
		}
		out += x
	}
	return out
}

func TestLocationDelete(t *testing.T) {
	eachStore(t, func(t *testing.T, ts *TestServer) {
		f := ts.newFixture(t, "Gone")
		submit(t, ts, f.Hygiene.Code, map[string]any{"id": feedback.NewID(), "rating": 5}).expect(t, 201, "")
		path := "/api/v1/locations/" + f.Location.ID
		ts.do(t, req{method: "DELETE", path: path, token: f.Token}).expect(t, 204, "")
		ts.do(t, req{method: "GET", path: path, token: f.Token}).expect(t, 404, feedback.ENotFound)
		ts.do(t, req{method: "DELETE", path: path, token: f.Token}).expect(t, 404, feedback.ENotFound)
		submit(t, ts, f.Hygiene.Code, map[string]any{"id": feedback.NewID(), "rating": 5}).expect(t, 410, feedback.EPosterRevoked)
		if n := countHygiene(t, ts, f); n != 1 {
			t.Errorf("%d submissions after deleting the location; want the 1 kept", n)
		}
	})
}

func TestSurveyDraftEdits(t *testing.T) {
	eachStore(t, func(t *testing.T, ts *TestServer) {
		f := ts.newFixture(t, "Edit")
		var sv feedback.Survey
		ts.do(t, req{method: "POST", path: "/api/v1/surveys", token: f.Token, body: map[string]any{"title": "Draft",
			"questions": []map[string]any{{"type": "yes_no", "labels": map[string]string{"en": "Ok?"}}}}}).expect(t, 201, "").decode(t, &sv)
		if sv.Questions[0].ID != "q1" || sv.Status != feedback.StatusDraft {
			t.Fatalf("created %+v", sv)
		}
		ts.do(t, req{method: "PATCH", path: "/api/v1/surveys/" + sv.ID, token: f.Token, body: map[string]any{"title": "Renamed",
			"questions": []map[string]any{{"id": "ok", "type": "text", "required": true, "labels": map[string]string{"en": "Why?"}}}}}).
			expect(t, 200, "").decode(t, &sv)
		if sv.Title != "Renamed" || len(sv.Questions) != 1 || sv.Questions[0].ID != "ok" || !sv.Questions[0].Required {
			t.Errorf("updated %+v", sv)
		}
	})
}
