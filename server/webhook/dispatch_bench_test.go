package webhook_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/feedbackhq/feedback/server"
	"github.com/feedbackhq/feedback/server/sqlstore"
	"github.com/feedbackhq/feedback/server/webhook"
	"github.com/feedbackhq/feedback/shared/feedback"
)

// BenchmarkDeliver measures deliveries per second through the queue
// beside a bare baseline. feedbackd: b.N events of one subscription are
// committed (and PostgreSQL's statistics refreshed, see analyze), then one
// dispatcher with the default limits claims, signs, sends and records
// them all. bare:
// 8 goroutines POST the same signed payload b.N times with the same
// client, with no queue. ns/op is per delivery.
func BenchmarkDeliver(b *testing.B) {
	for _, kind := range []string{"postgres", "sqlite"} {
		b.Run(kind+"/feedbackd", func(b *testing.B) {
			rc := newBenchReceiver(b)
			st := newSetup(b, stores[kind](b), rc.URL)
			for range b.N {
				st.submit(b)
			}
			if kind == "postgres" {
				analyze(b, st.s)
			}
			b.ResetTimer()
			st.dispatcher(b, st.s).Wake()
			rc.wait(b, b.N)
		})
		b.Run(kind+"/bare", func(b *testing.B) {
			rc := newBenchReceiver(b)
			st := newSetup(b, stores[kind](b), rc.URL)
			bareSend(b, st, rc.URL)
			rc.wait(b, b.N)
		})
	}
}

// analyze refreshes PostgreSQL's statistics after a bulk fill, as
// autovacuum soon does in a running installation: without them the
// planner may read the claim's lookups by key as scans of the table.
func analyze(b *testing.B, s server.Store) {
	db, ok := s.(interface{ SQL() sqlstore.DB })
	if !ok {
		b.Fatalf("%T has no SQL database", s)
	}
	_, err := db.SQL().Exec(b.Context(), "ANALYZE")
	must(b, err)
}

// bareSend posts b.N signed payloads of a typical event's size with 8
// goroutines.
func bareSend(b *testing.B, st *setup, url string) {
	client := st.client()
	key, err := webhook.SecretKey(st.whsec)
	must(b, err)
	payload, _ := json.Marshal(feedback.Event{ID: feedback.NewID(), Type: feedback.EventHygieneSubmissionCreated,
		Data: json.RawMessage(`{"id":"` + feedback.NewID() + `","rating":5,"tags":[],"comment":"","language":"en"}`)})
	next := make(chan struct{})
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range next {
				req, _ := http.NewRequest(http.MethodPost, url, bytes.NewReader(payload))
				req.Header = webhook.Headers([][]byte{key}, feedback.NewID(), time.Now(), payload)
				if res, err := client.Do(req); err == nil {
					_, _ = io.Copy(io.Discard, res.Body)
					res.Body.Close()
				}
			}
		})
	}
	for range b.N {
		next <- struct{}{}
	}
	close(next)
	wg.Wait()
}

// BenchmarkDeliveryLatency commits 200 events per second, b.N in all,
// and reports the median and 99th percentile from commit to the
// receiver's first request: "wake" when the commit happened on the
// dispatcher's instance (the store wakes it after a commit that created
// deliveries), "poll"
// when it happened on another instance (the dispatcher finds it on its
// next look at the queue, at most Poll = 250 ms later).
func BenchmarkDeliveryLatency(b *testing.B) {
	for _, kind := range []string{"postgres", "sqlite"} {
		for _, mode := range []string{"wake", "poll"} {
			b.Run(kind+"/"+mode, func(b *testing.B) {
				rc := newBenchReceiver(b)
				st := newSetup(b, stores[kind](b), rc.URL)
				d := &webhook.Dispatcher{Queue: st.s, Keys: st.keys, Client: st.client(), Poll: 250 * time.Millisecond}
				if mode == "wake" {
					st.s.OnDue(d.Wake) // as feedbackd wires it
				}
				run(b, d)
				committed := make(map[string]time.Time, b.N)
				tick := time.NewTicker(5 * time.Millisecond)
				defer tick.Stop()
				for range b.N {
					<-tick.C
					id := st.submit(b)
					committed[id] = time.Now()
				}
				reportLag(b, committed, rc.wait(b, b.N))
				b.ReportMetric(0, "ns/op")
			})
		}
	}
}

// reportLag reports the median and 99th percentile, in milliseconds,
// from each submission's commit to its delivery's first request.
func reportLag(b *testing.B, committed, arrived map[string]time.Time) {
	lat := make([]float64, 0, len(committed))
	for id, at := range committed {
		lat = append(lat, float64(arrived[id].Sub(at).Microseconds())/1000)
	}
	slices.Sort(lat)
	b.ReportMetric(lat[len(lat)/2], "p50-ms")
	b.ReportMetric(lat[len(lat)*99/100], "p99-ms")
}

// benchReceiver answers 204 and records when the first request for
// each submission (the data's id) arrived.
type benchReceiver struct {
	URL string
	// delay is how long each answer takes, unless the client gives up.
	delay   time.Duration
	mu      sync.Mutex
	arrived map[string]time.Time
	total   int // requests
	more    chan struct{}
}

// first returns when the first request arrived.
func (rc *benchReceiver) first() time.Time {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	var t time.Time
	for _, at := range rc.arrived {
		if t.IsZero() || at.Before(t) {
			t = at
		}
	}
	return t
}

// requests returns how many requests arrived.
func (rc *benchReceiver) requests() int {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return rc.total
}

func newBenchReceiver(b testing.TB) *benchReceiver {
	return newBenchReceiverAt(b, "127.0.0.1")
}

// newBenchReceiverAt starts a benchReceiver on a loopback address of its
// own, so that it is a destination host of its own.
func newBenchReceiverAt(b testing.TB, ip string) *benchReceiver {
	rc := &benchReceiver{arrived: map[string]time.Time{}, more: make(chan struct{}, 1)}
	l, err := net.Listen("tcp", ip+":0")
	must(b, err)
	srv := &httptest.Server{Listener: l, Config: &http.Server{Handler: http.HandlerFunc(rc.serve)}}
	srv.Start()
	b.Cleanup(srv.Close)
	rc.URL = srv.URL
	return rc
}

func (rc *benchReceiver) serve(w http.ResponseWriter, r *http.Request) {
	now := time.Now()
	var e struct {
		Data struct{ ID string } `json:"data"`
	}
	_ = json.NewDecoder(r.Body).Decode(&e)
	key := e.Data.ID + r.Header.Get("webhook-id") // unique per request in the bare run
	rc.mu.Lock()
	rc.total++
	if _, ok := rc.arrived[e.Data.ID]; !ok && e.Data.ID != "" {
		rc.arrived[e.Data.ID] = now
	} else if _, ok := rc.arrived[key]; !ok {
		rc.arrived[key] = now
	}
	rc.mu.Unlock()
	select {
	case rc.more <- struct{}{}:
	default:
	}
	if rc.delay > 0 {
		select {
		case <-time.After(rc.delay):
		case <-r.Context().Done():
		}
	}
	w.WriteHeader(http.StatusNoContent)
}

// wait waits until n submissions arrived and returns their arrival times.
func (rc *benchReceiver) wait(b testing.TB, n int) map[string]time.Time {
	deadline := time.After(5 * time.Minute)
	for {
		rc.mu.Lock()
		got := len(rc.arrived)
		rc.mu.Unlock()
		if got >= n {
			break
		}
		select {
		case <-rc.more:
		case <-time.After(100 * time.Millisecond):
		case <-deadline:
			b.Fatalf("%d of %d deliveries arrived", got, n)
		}
	}
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return rc.arrived
}
