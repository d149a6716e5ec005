package webhook_test

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/feedbackhq/feedback/server"
	"github.com/feedbackhq/feedback/server/webhook"
	"github.com/feedbackhq/feedback/shared/feedback"
)

// TestDispatchReceiverRestarts takes the receiver down while events
// happen and restarts the server meanwhile: attempts fail on refused
// connections, the dispatcher stops, a new one starts on a new
// connection to the database, and once the receiver listens again on
// the same address every event arrives, once.
func TestDispatchReceiverRestarts(t *testing.T) {
	eachStore(t, func(t *testing.T, s server.Store) {
		rc := newReceiver(t, answer(200))
		addr := rc.Listener.Addr().String()
		rc.Close() // down
		st := newSetup(t, s, "http://"+addr+"/hook")
		schedule := []time.Duration{50 * time.Millisecond, 100 * time.Millisecond, 200 * time.Millisecond,
			400 * time.Millisecond, 400 * time.Millisecond, 400 * time.Millisecond, 400 * time.Millisecond}
		first := &webhook.Dispatcher{Queue: s, Keys: st.keys, Client: st.client(), Schedule: schedule,
			Poll: 20 * time.Millisecond}
		ctx, stop := context.WithCancel(context.Background())
		stopped := make(chan struct{})
		go func() { defer close(stopped); first.Run(ctx) }()
		for range 3 {
			st.submit(t)
		}
		st.waitFor(t, "refused attempts", func(d []feedback.WebhookDelivery) bool {
			return len(d) == 3 && d[0].Attempts >= 1 && d[1].Attempts >= 1 && d[2].Attempts >= 1
		})
		stop() // the server goes down
		<-stopped
		st.dispatcher(t, reopen(t, s), schedule...) // and comes back
		l, err := net.Listen("tcp", addr)           // the receiver too
		if err != nil {
			t.Fatalf("listen again on %s: %v", addr, err)
		}
		up := &receiver{plan: rc.plan}
		up.Server = &httptest.Server{Listener: l, Config: &http.Server{Handler: http.HandlerFunc(up.serve)}}
		up.Start()
		t.Cleanup(up.Close)
		got := st.waitFor(t, "delivery after the restart", settled)
		ids := map[string]bool{}
		for _, r := range up.got() {
			verify(t, st.whsec, r)
			ids[r.header.Get("webhook-id")] = true
		}
		if len(ids) != 3 || len(up.got()) != 3 {
			t.Errorf("after the restart the receiver got %d requests for %d deliveries, want 3 and 3", len(up.got()), len(ids))
		}
		for _, d := range got {
			if d.Status != feedback.DeliverySucceeded || d.AttemptLog[0].StatusCode != 0 || d.AttemptLog[0].Error == "" {
				t.Errorf("delivery %s", show(d))
			}
		}
	})
}

// TestDispatchExactlyOnceAcrossInstances runs two dispatchers, on two
// connection pools of one database as two instances would: 200 events
// arrive exactly once each.
func TestDispatchExactlyOnceAcrossInstances(t *testing.T) {
	eachStore(t, func(t *testing.T, s server.Store) {
		rc := newReceiver(t, answer(200))
		st := newSetup(t, s, rc.URL)
		st.dispatcher(t, s)
		st.dispatcher(t, reopen(t, s))
		for range 200 {
			st.submit(t)
		}
		st.waitFor(t, "200 deliveries", func(d []feedback.WebhookDelivery) bool { return len(d) == 100 && settled(d) })
		deadline := time.Now().Add(10 * time.Second)
		for len(rc.got()) < 200 && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
		time.Sleep(100 * time.Millisecond) // a duplicate would arrive meanwhile
		seen := map[string]int{}
		for _, r := range rc.got() {
			seen[r.header.Get("webhook-id")]++
		}
		if len(seen) != 200 || len(rc.got()) != 200 {
			t.Errorf("the receiver got %d requests for %d deliveries, want 200 and 200", len(rc.got()), len(seen))
		}
	})
}

// TestDispatchTakesOverExpiredLease has a worker claim a delivery and
// die: when the lease ends a dispatcher takes the delivery over.
func TestDispatchTakesOverExpiredLease(t *testing.T) {
	eachStore(t, func(t *testing.T, s server.Store) {
		rc := newReceiver(t, answer(200))
		st := newSetup(t, s, rc.URL)
		st.submit(t)
		dead, err := s.ClaimDeliveries(t.Context(), "dead-worker", 300*time.Millisecond, 10)
		must(t, err)
		if len(dead) != 1 {
			t.Fatalf("the dead worker claimed %d deliveries", len(dead))
		}
		st.dispatcher(t, s)
		got := st.waitFor(t, "takeover", settled)[0]
		if got.Status != feedback.DeliverySucceeded || got.Attempts != 1 || len(rc.got()) != 1 {
			t.Fatalf("delivery %s, %d requests", show(got), len(rc.got()))
		}
		a := feedback.DeliveryAttempt{N: 1, At: feedback.NewTime(time.Now()), StatusCode: 200}
		err = s.FinishAttempt(t.Context(), "dead-worker", &dead[0], a, server.Outcome{Status: feedback.DeliverySucceeded})
		if feedback.ErrorCode(err) != feedback.EConflict {
			t.Errorf("the dead worker's late FinishAttempt = %v, want a conflict", err)
		}
	})
}

// TestDispatchSignsWithBothSecretsWhileRotating rotates the secret: for
// the overlap every request verifies with the old and with the new one.
func TestDispatchSignsWithBothSecretsWhileRotating(t *testing.T) {
	eachStore(t, func(t *testing.T, s server.Store) {
		rc := newReceiver(t, answer(200))
		st := newSetup(t, s, rc.URL)
		next := "whsec_" + "QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVphYmNkZWY="
		_, err := s.UpdateWebhook(t.Context(), st.ws, st.sub.ID, server.WebhookChange{
			Secret: st.keys.Seal([]byte(next), webhook.SecretAAD(st.ws, st.sub.ID)), SecretPrefix: next[:12]})
		must(t, err)
		st.dispatcher(t, s)
		st.submit(t)
		st.waitFor(t, "success", settled)
		r := rc.got()[0]
		verify(t, st.whsec, r)
		verify(t, next, r)
	})
}
