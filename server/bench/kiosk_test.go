package bench_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/feedbackhq/feedback/app/offline"
	"github.com/feedbackhq/feedback/server"
	"github.com/feedbackhq/feedback/shared/feedback"
)

// kioskQueued is the size of a kiosk's offline backlog in the benchmark.
const kioskQueued = 10_000

// httpSender sends the queue's requests with net/http, as the browser's
// fetch does in the app.
type httpSender struct {
	base   string
	client *http.Client
}

func (s httpSender) Send(ctx context.Context, method, url string, headers map[string]string, body []byte) (offline.Response, error) {
	req, err := http.NewRequestWithContext(ctx, method, s.base+url, bytes.NewReader(body))
	if err != nil {
		return offline.Response{}, err
	}
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	res, err := s.client.Do(req)
	if err != nil {
		return offline.Response{}, err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	return offline.Response{Status: res.StatusCode, Body: b,
		Reset: offline.ResetAt(time.Now(), res.Header.Get("Retry-After"), res.Header.Get("X-RateLimit-Reset"))}, err
}

// pairKiosk pairs a kiosk to e's hygiene form and returns its credential.
func pairKiosk(tb testing.TB, e *env) string {
	tb.Helper()
	ctx := context.Background()
	var pc feedback.PairingCode
	in := feedback.PairingCodeInput{LocationID: e.locationID, FormRef: feedback.FormRef{Form: feedback.FormHygiene}}
	postJSON(tb, e, "/api/v1/kiosks/pairing-codes", e.token, in, &pc)
	var p feedback.Pairing
	postJSON(tb, e, "/kiosk/pair", "", feedback.PairRequest{Code: pc.Code}, &p)
	_ = ctx
	return p.Credential
}

func postJSON(tb testing.TB, e *env, path, token string, in, out any) {
	tb.Helper()
	body, _ := json.Marshal(in)
	req, _ := http.NewRequest("POST", e.service.URL+path, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := e.client.Do(req)
	if err != nil {
		tb.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode >= 300 {
		b, _ := io.ReadAll(res.Body)
		tb.Fatalf("POST %s: %d %s", path, res.StatusCode, b)
	}
	if err := json.NewDecoder(res.Body).Decode(out); err != nil {
		tb.Fatal(err)
	}
}

// fillQueue stores n kiosk submissions captured over the last hours, as a
// kiosk offline for a day would hold them.
func fillQueue(tb testing.TB, q *offline.Queue, n int) {
	tb.Helper()
	ctx := context.Background()
	now := time.Now()
	for i := range n {
		at := feedback.NewTime(now.Add(-time.Duration(n-i) * time.Second))
		rating := 1 + i%5
		body, _ := json.Marshal(feedback.Submission{ID: feedback.NewIDAt(at.Time), CapturedAt: &at, Rating: &rating})
		var sub feedback.Submission
		_ = json.Unmarshal(body, &sub)
		if err := q.Add(ctx, offline.Item{ID: sub.ID, Kind: offline.KindKiosk, Body: body, Added: at.Time}); err != nil {
			tb.Fatal(err)
		}
	}
}

// BenchmarkKioskSync10k syncs a kiosk's backlog of 10,000 submissions
// through the real queue and the real /kiosk/sync, resends the first
// batch (as after an answer lost on the way back), and checks that the
// server holds exactly 10,000 rows. Goal: under 30 s for the backlog.
func BenchmarkKioskSync10k(b *testing.B) {
	for _, kind := range kinds {
		b.Run(kind, func(b *testing.B) {
			for range b.N {
				syncBacklog(b, kind)
			}
		})
	}
}

func syncBacklog(b *testing.B, kind string) {
	b.StopTimer()
	e := newEnv(b, kind, nil)
	cred := pairKiosk(b, e)
	store := offline.NewMemory()
	q := offline.New(store, httpSender{e.service.URL, e.client}, offline.WithKioskCredential(func() string { return cred }))
	fillQueue(b, q, kioskQueued)
	b.StartTimer()
	start := time.Now()
	drain(b, q)
	b.StopTimer()
	b.ReportMetric(time.Since(start).Seconds(), "s/10k")
	fillQueue(b, q, feedback.MaxSyncBatch) // new ids: fill a fresh batch, then resend it
	resend, _ := q.Pending(context.Background())
	drain(b, q)
	for _, it := range resend {
		if err := q.Add(context.Background(), it); err != nil {
			b.Fatal(err)
		}
	}
	drain(b, q)
	total := countRows(b, e.store, e.ws.ID) - feedback.MaxSyncBatch
	if total != kioskQueued {
		b.Fatalf("%d rows after syncing %d queued submissions; want exactly %d", total, kioskQueued, kioskQueued)
	}
}

// drain flushes until nothing waits.
func drain(tb testing.TB, q *offline.Queue) {
	tb.Helper()
	ctx := context.Background()
	for {
		if _, err := q.Flush(ctx); err != nil {
			tb.Fatal(err)
		}
		st, err := q.Stats(ctx)
		if err != nil {
			tb.Fatal(err)
		}
		if st.Dead > 0 {
			tb.Fatalf("%d submissions were refused: %s", st.Dead, st.LastError)
		}
		if st.Pending == 0 {
			return
		}
		if !st.NextTry.IsZero() {
			tb.Fatalf("the sync backed off: %s", st.LastError)
		}
	}
}

func countRows(tb testing.TB, s server.Store, ws string) int {
	_, total, err := s.HygieneSubmissions(context.Background(), ws, feedback.ListParams{Page: 1, PerPage: 1})
	if err != nil {
		tb.Fatal(err)
	}
	return total
}
