package main

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// TestScaleOutAlerts runs three feedbackd processes on one PostgreSQL
// database, each with its alert worker: twelve low ratings posted at once
// through all three raise exactly one alert, whose alert.triggered
// reaches a webhook receiver once; resolving it through another instance
// sends alert.resolved, and a new burst (the rule has no cool-down)
// raises a second alert, once.
func TestScaleOutAlerts(t *testing.T) {
	if testing.Short() {
		t.Skip("scale-out test builds and starts processes; skipped with -short")
	}
	addrs, tok, _ := startThree(t, "Alerts")
	rc := newAlertReceiver(t)
	poster := hygienePoster(t, addrs[0], tok, "Lobby")
	apiCall(t, addrs[1], tok, "POST", "/api/v1/webhooks", map[string]any{"url": rc.URL,
		"events": []string{feedback.EventAlertTriggered, feedback.EventAlertResolved}}, nil)
	apiCall(t, addrs[2], tok, "POST", "/api/v1/alert-rules", map[string]any{"name": "Bad ratings", "kind": "low_ratings",
		"count": 3, "rating": 2, "window_minutes": 10}, nil)

	burst := func() { postBurst(t, addrs, poster.Code, 12, 2) }
	burst()
	first := rc.await(t, feedback.EventAlertTriggered, 1)[0]
	apiCall(t, addrs[1], tok, "POST", "/api/v1/alerts/"+first.ID+"/resolve", map[string]any{"note": "Cleaned."}, nil)
	rc.await(t, feedback.EventAlertResolved, 1)
	burst()
	second := rc.await(t, feedback.EventAlertTriggered, 2)[1]
	time.Sleep(2 * time.Second) // two polls of every instance: a duplicate would arrive meanwhile
	if n := len(rc.got(feedback.EventAlertTriggered)); n != 2 || second.ID == first.ID {
		t.Errorf("the receiver got %d alert.triggered, want 2 distinct", n)
	}
	var page feedback.Page[feedback.Alert]
	apiCall(t, addrs[2], tok, "GET", "/api/v1/alerts", nil, &page)
	if page.Meta.Total != 2 || page.Data[0].State != feedback.AlertOpen || page.Data[1].State != feedback.AlertResolved {
		t.Errorf("GET /alerts: %+v", page)
	}
}

// postBurst posts n hygiene ratings to a poster at once, the i-th
// through addrs[i%len(addrs)] with the rating 1+i%kinds.
func postBurst(t *testing.T, addrs []string, code string, n, kinds int) {
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { postRating(t, addrs[i%len(addrs)], code, 1+i%kinds) })
	}
	wg.Wait()
}

// postRating posts a hygiene rating to a poster, from any goroutine.
func postRating(t *testing.T, addr, code string, rating int) {
	b, _ := json.Marshal(map[string]any{"id": feedback.NewID(), "rating": rating})
	res, err := http.Post("http://"+addr+"/q/"+code, "application/json", bytes.NewReader(b))
	if err != nil {
		t.Errorf("POST /q: %v", err)
		return
	}
	res.Body.Close()
	if res.StatusCode != http.StatusCreated {
		t.Errorf("POST /q answered %d", res.StatusCode)
	}
}

// alertReceiver is a webhook receiver that keeps the alerts of each
// event kind, in the order they arrived, one per delivery id.
type alertReceiver struct {
	*httptest.Server
	mu     sync.Mutex
	seen   map[string]bool
	alerts map[string][]feedback.Alert
}

func newAlertReceiver(t *testing.T) *alertReceiver {
	rc := &alertReceiver{seen: map[string]bool{}, alerts: map[string][]feedback.Alert{}}
	rc.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var e struct {
			Type string
			Data feedback.Alert
		}
		if err := json.Unmarshal(body, &e); err != nil {
			t.Errorf("a delivery of %s", body)
		}
		rc.mu.Lock()
		defer rc.mu.Unlock()
		if id := r.Header.Get("webhook-id"); !rc.seen[id] { // a retry is the same delivery
			rc.seen[id] = true
			rc.alerts[e.Type] = append(rc.alerts[e.Type], e.Data)
		}
	}))
	t.Cleanup(rc.Close)
	return rc
}

// got returns the alerts received with events of kind typ.
func (rc *alertReceiver) got(typ string) []feedback.Alert {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return append([]feedback.Alert{}, rc.alerts[typ]...)
}

// await waits until n events of kind typ arrived, and returns their
// alerts.
func (rc *alertReceiver) await(t *testing.T, typ string, n int) []feedback.Alert {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if got := rc.got(typ); len(got) >= n {
			return got
		}
	}
	t.Fatalf("the receiver got %d %s events, want %d", len(rc.got(typ)), typ, n)
	return nil
}
