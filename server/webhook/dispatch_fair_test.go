package webhook_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/feedbackhq/feedback/server"
	"github.com/feedbackhq/feedback/server/webhook"
	"github.com/feedbackhq/feedback/shared/feedback"
)

// gate is a receiver that holds every request until it is opened and
// counts the requests it holds at once.
type gate struct {
	*httptest.Server
	open     chan struct{}
	once     sync.Once
	mu       sync.Mutex
	now, max int
	total    int
}

// newGate starts a closed gate; it opens when the test ends, before the
// server closes.
func newGate(t *testing.T) *gate {
	g := &gate{open: make(chan struct{})}
	g.Server = httptest.NewServer(http.HandlerFunc(g.serve))
	t.Cleanup(g.Close)
	t.Cleanup(g.release)
	return g
}

func (g *gate) serve(w http.ResponseWriter, r *http.Request) {
	g.mu.Lock()
	g.now++
	g.total++
	g.max = max(g.max, g.now)
	g.mu.Unlock()
	select {
	case <-g.open:
	case <-r.Context().Done():
	}
	g.mu.Lock()
	g.now--
	g.mu.Unlock()
	w.WriteHeader(http.StatusNoContent)
}

func (g *gate) release() { g.once.Do(func() { close(g.open) }) }

// seen returns the requests held now, the most held at once and the
// number received.
func (g *gate) seen() (now, most, total int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.now, g.max, g.total
}

// run starts d until the test ends or stop is called.
func run(t testing.TB, d *webhook.Dispatcher) (stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); d.Run(ctx) }()
	stop = func() { cancel(); <-done }
	t.Cleanup(stop)
	return stop
}

// patientClient reaches loopback receivers and waits as long as the
// production client does.
func patientClient() *http.Client {
	return webhook.NewClient(webhook.Policy{Allow: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}})
}

// TestDispatchHangingReceiverDoesNotHoldOthers gives workspace A a
// receiver that does not answer and a backlog of 40 events, then
// workspace B 20 events: all of B's arrive while A's receiver still
// holds its requests, and A's receiver never holds more than the
// per-subscription cap.
func TestDispatchHangingReceiverDoesNotHoldOthers(t *testing.T) {
	eachStore(t, func(t *testing.T, s server.Store) {
		hang := newGate(t)
		a := newSetup(t, s, hang.URL)
		rc := newReceiver(t, answer(204))
		b := newWorkspace(t, s, rc.URL, "globex", a.keys)
		run(t, &webhook.Dispatcher{Queue: s, Keys: a.keys, Client: patientClient(), Poll: 20 * time.Millisecond})
		for range 40 {
			a.submit(t)
		}
		for range 20 {
			b.submit(t)
		}
		b.waitFor(t, "workspace B's deliveries", func(d []feedback.WebhookDelivery) bool {
			return len(d) == 20 && settled(d)
		})
		held, most, _ := hang.seen()
		if held == 0 {
			t.Fatalf("A's receiver holds no request: the test proves nothing")
		}
		if most > webhook.DefaultPerWebhook {
			t.Errorf("A's receiver held %d requests at once, above the cap of %d", most, webhook.DefaultPerWebhook)
		}
		pending, _, err := s.Deliveries(t.Context(), a.ws, a.sub.ID, feedback.ListParams{Page: 1, PerPage: 100})
		must(t, err)
		for _, d := range pending {
			if d.Status != feedback.DeliveryPending || d.Attempts != 0 {
				t.Fatalf("an A delivery was settled while its receiver hung: %s", show(d))
			}
		}
	})
}

// TestDispatchCapsConcurrencyPerWebhook sends 30 events to a receiver
// that holds every request until it has three: it never gets a fourth
// while it holds three, and gets all 30 once it answers.
func TestDispatchCapsConcurrencyPerWebhook(t *testing.T) {
	eachStore(t, func(t *testing.T, s server.Store) {
		g := newGate(t)
		st := newSetup(t, s, g.URL)
		run(t, &webhook.Dispatcher{Queue: s, Keys: st.keys, Client: patientClient(), PerWebhook: 3,
			Poll: 20 * time.Millisecond})
		for range 30 {
			st.submit(t)
		}
		deadline := time.Now().Add(10 * time.Second)
		for held, _, _ := g.seen(); held < 3 && time.Now().Before(deadline); held, _, _ = g.seen() {
			time.Sleep(10 * time.Millisecond)
		}
		time.Sleep(100 * time.Millisecond) // a fourth request would arrive meanwhile
		held, most, total := g.seen()
		if held != 3 || most != 3 || total != 3 {
			t.Fatalf("the receiver holds %d requests, held %d at most and got %d; want 3, 3 and 3", held, most, total)
		}
		g.release()
		st.waitFor(t, "30 deliveries", func(d []feedback.WebhookDelivery) bool { return len(d) == 30 && settled(d) })
		if _, most, total := g.seen(); most != 3 || total != 30 {
			t.Errorf("the receiver held %d at most and got %d requests; want 3 and 30", most, total)
		}
	})
}

// TestDispatchPolicyRefusalIsFinal saves a subscription to a loopback
// receiver, then delivers with a client whose policy no longer allows
// loopback: the delivery fails at once with the reason, is not retried,
// and the subscription stays enabled; redelivery after the allowance
// returns succeeds.
func TestDispatchPolicyRefusalIsFinal(t *testing.T) {
	eachStore(t, func(t *testing.T, s server.Store) {
		rc := newReceiver(t, answer(204))
		st := newSetup(t, s, rc.URL)
		strict := webhook.NewClient(webhook.Policy{})
		stop := run(t, &webhook.Dispatcher{Queue: s, Keys: st.keys, Client: strict, Poll: 20 * time.Millisecond,
			Schedule: []time.Duration{10 * time.Millisecond, 10 * time.Millisecond}})
		st.submit(t)
		got := st.waitFor(t, "the refusal", settled)[0]
		if got.Status != feedback.DeliveryFailed || got.Attempts != 1 || got.NextAttemptAt != nil ||
			got.AttemptLog[0].NextAttemptAt != nil || !strings.Contains(got.LastError, "not allowed") ||
			!strings.Contains(got.LastError, "prohibited IP address") {
			t.Fatalf("after a refusal by the destination policy: %s", show(got))
		}
		w, err := s.Webhook(t.Context(), st.ws, st.sub.ID)
		must(t, err)
		if w.DisabledAt != nil || len(rc.got()) != 0 {
			t.Errorf("the refusal disabled the subscription (%v) or reached the receiver (%d)", w.DisabledAt, len(rc.got()))
		}
		stop()
		st.dispatcher(t, s) // an instance whose allow-list has loopback again
		_, err = s.Redeliver(t.Context(), st.ws, st.sub.ID, got.ID)
		must(t, err)
		if got = st.waitFor(t, "the redelivery", settled)[0]; got.Status != feedback.DeliverySucceeded || got.Attempts != 2 {
			t.Errorf("after redelivery: %s", show(got))
		}
	})
}

// TestDispatchCapsConcurrencyPerHost points two workspaces'
// subscriptions at one receiver host: it never holds more than PerHost
// requests, and every delivery arrives once it answers.
func TestDispatchCapsConcurrencyPerHost(t *testing.T) {
	eachStore(t, func(t *testing.T, s server.Store) {
		g := newGate(t)
		a := newSetup(t, s, g.URL+"/a")
		b := newWorkspace(t, s, g.URL+"/b", "globex", a.keys)
		run(t, &webhook.Dispatcher{Queue: s, Keys: a.keys, Client: patientClient(), PerHost: 3,
			Poll: 20 * time.Millisecond})
		for range 10 {
			a.submit(t)
			b.submit(t)
		}
		deadline := time.Now().Add(10 * time.Second)
		for held, _, _ := g.seen(); held < 3 && time.Now().Before(deadline); held, _, _ = g.seen() {
			time.Sleep(10 * time.Millisecond)
		}
		time.Sleep(100 * time.Millisecond) // a fourth request would arrive meanwhile
		if held, most, _ := g.seen(); held != 3 || most != 3 {
			t.Fatalf("the host holds %d requests and held %d at most; want 3 and 3", held, most)
		}
		g.release()
		for _, st := range []*setup{a, b} {
			st.waitFor(t, "10 deliveries", func(d []feedback.WebhookDelivery) bool { return len(d) == 10 && settled(d) })
		}
		if _, most, total := g.seen(); most != 3 || total != 20 {
			t.Errorf("the host held %d at most and got %d requests; want 3 and 20", most, total)
		}
	})
}
