package webhook_test

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/feedbackhq/feedback/server"
	"github.com/feedbackhq/feedback/server/webhook"
	"github.com/feedbackhq/feedback/shared/feedback"
)

// ingestFor commits submissions of st from n goroutines, as n
// connections of ingest would, for d, and returns when each committed.
func ingestFor(b *testing.B, n int, d time.Duration, st ...*setup) map[string]time.Time {
	var mu sync.Mutex
	committed := map[string]time.Time{}
	stop := time.Now().Add(d)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			for time.Now().Before(stop) {
				id := st[i%len(st)].submit(b)
				mu.Lock()
				committed[id] = time.Now()
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	return committed
}

// start runs d until the benchmark ends, woken by its store's commits
// as feedbackd wires it.
func start(b *testing.B, s server.Store, d *webhook.Dispatcher) {
	s.OnDue(d.Wake)
	run(b, d)
}

// BenchmarkDeliveryUnderIngest commits submissions from 16 goroutines
// for 5 s, each with a delivery to one fast receiver, while one
// dispatcher sends them, and reports the lag from commit to the first
// request (p50, p99) and the rates. Every event must arrive, once.
// Run it with -benchtime 1x: the load is timed, not counted.
func BenchmarkDeliveryUnderIngest(b *testing.B) {
	for _, kind := range []string{"postgres", "sqlite"} {
		b.Run(kind, func(b *testing.B) {
			rc := newBenchReceiver(b)
			st := newSetup(b, stores[kind](b), rc.URL)
			start(b, st.s, &webhook.Dispatcher{Queue: st.s, Keys: st.keys, Client: st.client()})
			b.ResetTimer()
			began := time.Now()
			committed := ingestFor(b, 16, 5*time.Second, st)
			arrived := rc.wait(b, len(committed))
			b.StopTimer()
			if len(arrived) != len(committed) || rc.requests() != len(committed) {
				b.Fatalf("%d events committed, %d arrived in %d requests", len(committed), len(arrived), rc.requests())
			}
			reportLag(b, committed, arrived)
			b.ReportMetric(float64(len(committed))/5, "events/s")
			b.ReportMetric(float64(len(committed))/time.Since(began).Seconds(), "deliveries/s")
			b.ReportMetric(0, "ns/op")
		})
	}
}

// BenchmarkNoisyNeighbour gives workspace A a receiver that answers
// after 20 s (the client gives up after 15 s) and workspace B a fast one
// on another host, commits 100 events per second
// in each for 5 s, and reports B's lag from commit to first request.
func BenchmarkNoisyNeighbour(b *testing.B) {
	for _, kind := range []string{"postgres", "sqlite"} {
		b.Run(kind, func(b *testing.B) {
			s := stores[kind](b)
			slow, fast := newBenchReceiverAt(b, "127.0.0.2"), newBenchReceiverAt(b, "127.0.0.3")
			slow.delay = 20 * time.Second
			a := newSetup(b, s, slow.URL)
			bb := newWorkspace(b, s, fast.URL, "globex", a.keys)
			start(b, s, &webhook.Dispatcher{Queue: s, Keys: a.keys, Client: patientClient()})
			b.ResetTimer()
			committed := map[string]time.Time{}
			tick := time.NewTicker(10 * time.Millisecond)
			defer tick.Stop()
			for range 500 {
				<-tick.C
				a.submit(b)
				committed[bb.submit(b)] = time.Now()
			}
			reportLag(b, committed, fast.wait(b, len(committed)))
			b.StopTimer()
			b.ReportMetric(float64(slow.requests()), "A-requests")
			b.ReportMetric(0, "ns/op")
		})
	}
}

// BenchmarkSlowReceiver commits 1,000 events for each of 1 and 4
// subscriptions whose receivers (each a host of its own) answer after
// 200 ms, then reports how
// many deliveries one dispatcher makes per second over 5 s: PerWebhook
// (16) per 200 ms per subscription, 80/s each, if the cap binds and the
// pool (256 attempts) does not.
func BenchmarkSlowReceiver(b *testing.B) {
	for _, kind := range []string{"postgres", "sqlite"} {
		for _, subs := range []int{1, 4} {
			b.Run(kind+"/subscriptions="+string(rune('0'+subs)), func(b *testing.B) {
				s := stores[kind](b)
				var rcs []*benchReceiver
				var all []*setup
				for i := range subs {
					rc := newBenchReceiverAt(b, "127.0.1."+string(rune('1'+i)))
					rc.delay = 200 * time.Millisecond
					rcs = append(rcs, rc)
					if i == 0 {
						all = append(all, newSetup(b, s, rc.URL))
						continue
					}
					all = append(all, newWorkspace(b, s, rc.URL, "w"+string(rune('0'+i)), all[0].keys))
				}
				for i := range 1000 * subs {
					all[i%subs].submit(b)
				}
				b.ResetTimer()
				began := time.Now()
				start(b, s, &webhook.Dispatcher{Queue: s, Keys: all[0].keys, Client: patientClient()})
				time.Sleep(5 * time.Second)
				b.StopTimer()
				n := 0
				for _, rc := range rcs {
					n += rc.requests()
				}
				b.ReportMetric(float64(n)/time.Since(began).Seconds(), "deliveries/s")
				b.ReportMetric(float64(rcs[0].first().Sub(began).Milliseconds()), "first-ms")
				b.ReportMetric(0, "ns/op")
			})
		}
	}
}

// BenchmarkIdleDispatcher commits submissions from 16 goroutines for 3 s
// in a workspace that nobody subscribes to, with a dispatcher running,
// and counts the claims it makes per second: "every-commit" wakes it
// after each commit, as the HTTP layer did before; "on-deliveries" is
// the store's OnDue hook, which only commits that create deliveries
// call.
func BenchmarkIdleDispatcher(b *testing.B) {
	for _, kind := range []string{"postgres", "sqlite"} {
		for _, mode := range []string{"every-commit", "on-deliveries"} {
			b.Run(kind+"/"+mode, func(b *testing.B) {
				s := stores[kind](b)
				st := newSetup(b, s, "http://127.0.0.1:9/unused")
				must(b, s.DeleteWebhook(b.Context(), st.ws, st.sub.ID))
				q := &countingQueue{Store: s}
				d := &webhook.Dispatcher{Queue: q, Keys: st.keys, Client: st.client()}
				start(b, s, d)
				if mode == "every-commit" {
					st.s = &wakingStore{Store: s, wake: d.Wake}
				}
				b.ResetTimer()
				n := len(ingestFor(b, 16, 3*time.Second, st))
				b.StopTimer()
				b.ReportMetric(float64(q.claims.Load())/3, "claims/s")
				b.ReportMetric(float64(n)/3, "submissions/s")
				b.ReportMetric(0, "ns/op")
			})
		}
	}
}

// countingQueue counts the claims of a dispatcher.
type countingQueue struct {
	server.Store
	claims atomic.Int64
}

func (q *countingQueue) ClaimDue(ctx context.Context, worker string, c server.Claim) ([]server.Delivery, error) {
	q.claims.Add(1)
	return q.Store.ClaimDue(ctx, worker, c)
}

// wakingStore wakes a dispatcher after every submission.
type wakingStore struct {
	server.Store
	wake func()
}

func (s *wakingStore) AddHygiene(ctx context.Context, ws string, h *feedback.HygieneSubmission, body []byte) (bool, error) {
	created, err := s.Store.AddHygiene(ctx, ws, h, body)
	if err == nil {
		s.wake()
	}
	return created, err
}
