package http_test

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/feedbackhq/feedback/shared/feedback"
	"github.com/google/go-cmp/cmp"
)

func TestKioskPairing(t *testing.T) {
	eachStore(t, func(t *testing.T, ts *TestServer) {
		f := ts.newFixture(t, "Kiosk")
		var pc feedback.PairingCode
		ts.do(t, req{method: "POST", path: "/api/v1/kiosks/pairing-codes", token: f.Token,
			body: map[string]any{"location_id": f.Location.ID, "form": "review", "review_id": f.Review.ID, "name": "Lobby tablet"}}).
			expect(t, 201, "").decode(t, &pc)
		if len(pc.Code) != 9 || !pc.ExpiresAt.Equal(ts.Clock.Now().Add(10*time.Minute)) {
			t.Errorf("pairing code %+v", pc)
		}
		var p feedback.Pairing
		typed := pc.Code[:4] + " " + pc.Code[5:] // typed with a space instead of the dash
		ts.do(t, req{method: "POST", path: "/kiosk/pair", body: map[string]any{"code": typed}}).expect(t, 201, "").decode(t, &p)
		if p.Kiosk.LocationID != f.Location.ID || p.Kiosk.Form != feedback.FormReview || p.Kiosk.ReviewID != f.Review.ID || p.Kiosk.Name != "Lobby tablet" {
			t.Errorf("paired kiosk %+v", p.Kiosk)
		}
		ts.do(t, req{method: "POST", path: "/kiosk/pair", body: map[string]any{"code": pc.Code}}).expect(t, 422, feedback.EValidation)

		var cfg struct {
			Kiosk feedback.Kiosk
			Form  feedback.FormView
		}
		ts.do(t, req{method: "GET", path: "/kiosk/config", token: p.Credential}).expect(t, 200, "").decode(t, &cfg)
		if cfg.Form.Review == nil || cfg.Form.Review.ID != f.Review.ID || cfg.Form.LocationName != f.Location.Name {
			t.Errorf("kiosk config %+v", cfg)
		}

		ts.do(t, req{method: "POST", path: "/api/v1/kiosks/pairing-codes", token: f.Token,
			body: map[string]any{"location_id": f.Location.ID, "form": "hygiene"}}).expect(t, 201, "").decode(t, &pc)
		ts.Clock.Add(10*time.Minute + time.Second)
		ts.do(t, req{method: "POST", path: "/kiosk/pair", body: map[string]any{"code": pc.Code}}).expect(t, 422, feedback.EValidation)
	})
}

func TestKioskSync(t *testing.T) {
	eachStore(t, func(t *testing.T, ts *TestServer) {
		f := ts.newFixture(t, "Sync")
		cred, kiosk := pairKioskCred(t, ts, f, map[string]any{"location_id": f.Location.ID, "form": "hygiene"})
		batch := make([]map[string]any, feedback.MaxSyncBatch)
		for i := range batch {
			batch[i] = map[string]any{"id": feedback.NewID(), "rating": 1 + i%5,
				"captured_at": ts.Clock.Now().Add(-time.Duration(i) * time.Second).Format(time.RFC3339Nano)}
		}
		sync := func(items []map[string]any) feedback.SyncResponse {
			t.Helper()
			var out feedback.SyncResponse
			ts.do(t, req{method: "POST", path: "/kiosk/sync", token: cred, body: map[string]any{"submissions": items}}).expect(t, 200, "").decode(t, &out)
			if len(out.Results) != len(items) {
				t.Fatalf("%d results for %d items", len(out.Results), len(items))
			}
			return out
		}
		for i, r := range sync(batch).Results {
			if r.Status != 201 || r.ID != batch[i]["id"] {
				t.Fatalf("item %d: %+v", i, r)
			}
		}
		for i, r := range sync(batch).Results {
			if r.Status != 200 {
				t.Fatalf("resent item %d: %+v", i, r)
			}
		}
		if n := countHygiene(t, ts, f); n != feedback.MaxSyncBatch {
			t.Fatalf("%d rows after syncing 500 twice", n)
		}
		conflict := map[string]any{"id": batch[0]["id"], "rating": 5 - (0 % 5)}
		mixed := []map[string]any{
			{"id": feedback.NewID(), "rating": 5},
			{"id": feedback.NewID(), "rating": 9},
			conflict,
			{"id": feedback.NewID(), "rating": 2, "stars": 2},
		}
		want := []int{201, 422, 409, 422}
		for i, r := range sync(mixed).Results {
			if r.Status != want[i] || (r.Status >= 400 && (r.Problem == nil || r.Problem.Code == "")) {
				t.Errorf("mixed item %d: %+v; want status %d", i, r, want[i])
			}
		}
		var page feedback.Page[feedback.HygieneSubmission]
		ts.do(t, req{method: "GET", path: "/api/v1/hygiene?per_page=1", token: f.Token}).expect(t, 200, "").decode(t, &page)
		if h := page.Data[0]; h.Source != feedback.SourceKiosk || h.DeviceID != kiosk.ID || h.PosterID != "" {
			t.Errorf("kiosk submission %+v", h)
		}
		tooMany := make([]map[string]any, feedback.MaxSyncBatch+1)
		for i := range tooMany {
			tooMany[i] = map[string]any{"id": feedback.NewID(), "rating": 3}
		}
		ts.do(t, req{method: "POST", path: "/kiosk/sync", token: cred, body: map[string]any{"submissions": tooMany}}).expect(t, 422, feedback.EValidation)
		ts.do(t, req{method: "POST", path: "/kiosk/sync", token: f.Token, body: map[string]any{"submissions": mixed}}).expect(t, 401, feedback.EInvalidToken)
	})
}

func TestKioskHeartbeatAndRevoke(t *testing.T) {
	eachStore(t, func(t *testing.T, ts *TestServer) {
		f := ts.newFixture(t, "Beat")
		cred, kiosk := pairKioskCred(t, ts, f, map[string]any{"location_id": f.Location.ID, "form": "hygiene", "name": "Door"})
		ts.do(t, req{method: "POST", path: "/kiosk/heartbeat", token: cred, body: map[string]any{"queue_depth": 7, "app_version": "b42"}}).expect(t, 204, "")
		ts.do(t, req{method: "POST", path: "/kiosk/heartbeat", token: cred, body: map[string]any{"queue_depth": -1}}).expect(t, 422, feedback.EValidation)
		list := func() feedback.Kiosk {
			var page feedback.Page[feedback.Kiosk]
			ts.do(t, req{method: "GET", path: "/api/v1/kiosks", token: f.Token}).expect(t, 200, "").decode(t, &page)
			if len(page.Data) != 1 {
				t.Fatalf("kiosks %+v", page)
			}
			return page.Data[0]
		}
		if k := list(); !k.Online || k.QueueDepth != 7 || k.AppVersion != "b42" || k.LastSeenAt == nil {
			t.Errorf("after a heartbeat: %+v", k)
		}
		seen := ts.Clock.Now()
		ts.Clock.Add(3*time.Minute + time.Second)
		if k := list(); !k.Online {
			t.Errorf("offline before a sweep marked it so: %+v", k)
		}
		if _, err := ts.Store.MarkKiosksOffline(t.Context()); err != nil {
			t.Fatal(err)
		}
		if k := list(); k.Online {
			t.Errorf("online after three missed heartbeats and a sweep: %+v", k)
		}
		ts.do(t, req{method: "POST", path: "/kiosk/heartbeat", token: cred, body: map[string]any{"queue_depth": 2, "app_version": "b42"}}).expect(t, 204, "")
		if k := list(); !k.Online {
			t.Errorf("offline after the heartbeat that ended the outage: %+v", k)
		}
		back := ts.Clock.Now()
		ts.do(t, req{method: "DELETE", path: "/api/v1/kiosks/" + kiosk.ID, token: f.Token}).expect(t, 204, "")
		ts.do(t, req{method: "POST", path: "/kiosk/heartbeat", token: cred, body: map[string]any{"queue_depth": 0}}).expect(t, 401, feedback.ETokenRevoked)
		ts.do(t, req{method: "POST", path: "/kiosk/sync", token: cred,
			body: map[string]any{"submissions": []map[string]any{{"id": feedback.NewID(), "rating": 1}}}}).expect(t, 401, feedback.ETokenRevoked)
		if k := list(); k.RevokedAt == nil || k.Online {
			t.Errorf("revoked kiosk %+v", k)
		}
		presence := func(at time.Time, depth int) feedback.KioskPresence {
			return feedback.KioskPresence{KioskID: kiosk.ID, LocationID: f.Location.ID, Name: "Door",
				LastSeenAt: feedback.NewTime(at.Truncate(time.Millisecond)), QueueDepth: depth, AppVersion: "b42"}
		}
		want := []kioskEvent{
			{feedback.EventKioskOnline, presence(seen, 7)},
			{feedback.EventKioskOffline, presence(seen, 7)},
			{feedback.EventKioskOnline, presence(back, 2)},
			{feedback.EventKioskOffline, presence(back, 2)}, // unpaired
		}
		if diff := cmp.Diff(want, kioskEvents(t, ts, f)); diff != "" {
			t.Errorf("GET /api/v1/events: kiosk events (-want +got):\n%s", diff)
		}
	})
}

// kioskEvent is a kiosk.online or kiosk.offline event of GET /events.
type kioskEvent struct {
	Type string
	Data feedback.KioskPresence
}

// kioskEvents returns the kiosk.online and kiosk.offline events of f's
// workspace, in order, read with GET /api/v1/events.
func kioskEvents(t *testing.T, ts *TestServer, f *fixture) []kioskEvent {
	t.Helper()
	var events feedback.EventList
	ts.do(t, req{method: "GET", path: "/api/v1/events?limit=1000", token: f.Token}).expect(t, 200, "").decode(t, &events)
	var out []kioskEvent
	for _, e := range events.Data {
		if e.Type != feedback.EventKioskOnline && e.Type != feedback.EventKioskOffline {
			continue
		}
		k := kioskEvent{Type: e.Type}
		if err := json.Unmarshal(e.Data, &k.Data); err != nil {
			t.Fatal(err)
		}
		out = append(out, k)
	}
	return out
}

// TestKioskSyncUpdatesQueueDepth checks that the kiosk list shows what
// a sync delivered at once, not at the next heartbeat.
func TestKioskSyncUpdatesQueueDepth(t *testing.T) {
	eachStore(t, func(t *testing.T, ts *TestServer) {
		f := ts.newFixture(t, "Depth")
		cred, _ := pairKioskCred(t, ts, f, map[string]any{"location_id": f.Location.ID, "form": "hygiene"})
		list := func() feedback.Kiosk {
			var page feedback.Page[feedback.Kiosk]
			ts.do(t, req{method: "GET", path: "/api/v1/kiosks", token: f.Token}).expect(t, 200, "").decode(t, &page)
			return page.Data[0]
		}
		items := func(n int) []map[string]any {
			out := make([]map[string]any, n)
			for i := range out {
				out[i] = map[string]any{"id": feedback.NewID(), "rating": 3, "captured_at": ts.Clock.Now().Format(time.RFC3339Nano)}
			}
			return out
		}
		ts.do(t, req{method: "POST", path: "/kiosk/heartbeat", token: cred, body: map[string]any{"queue_depth": 4, "app_version": "b1"}}).expect(t, 204, "")
		ts.Clock.Add(2 * time.Minute)
		ts.do(t, req{method: "POST", path: "/kiosk/sync", token: cred, body: map[string]any{"submissions": items(4)}}).expect(t, 200, "")
		k := list()
		if k.QueueDepth != 0 || k.LastSeenAt == nil || !k.LastSeenAt.Equal(ts.Clock.Now()) {
			t.Errorf("after the four waiting submissions arrived: queue %d, last seen %v; want 0 and now", k.QueueDepth, k.LastSeenAt)
		}
		bad := items(1)
		bad[0]["rating"] = 9 // refused for good: it leaves the queue as a dead letter
		ts.do(t, req{method: "POST", path: "/kiosk/sync", token: cred,
			body: map[string]any{"submissions": append(items(2), bad...), "queue_depth": 10}}).expect(t, 200, "")
		if k := list(); k.QueueDepth != 7 {
			t.Errorf("ten waiting, three answered: queue %d, want 7", k.QueueDepth)
		}
		ts.do(t, req{method: "POST", path: "/kiosk/sync", token: cred,
			body: map[string]any{"submissions": items(1), "queue_depth": -1}}).expect(t, 422, feedback.EValidation)
	})
}

var _ = fmt.Sprint
