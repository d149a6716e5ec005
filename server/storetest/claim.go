package storetest

import (
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/feedbackhq/feedback/server"
	"github.com/feedbackhq/feedback/shared/feedback"
)

// testTurns gives one workspace's subscription a backlog and another
// workspace's subscription one later delivery: a claim smaller than the
// backlog takes the single one too, and the backlog's oldest.
func testTurns(t *testing.T, f *fixture) {
	a, backlog, single := f.backlogAhead()
	claimed := f.claimN("w1", 5)
	if len(claimed) != 5 || !slices.ContainsFunc(claimed, func(d server.Delivery) bool { return d.WebhookID == single.ID }) {
		t.Fatalf("a claim of 5 took %s; want the other workspace's delivery among them", webhooks(claimed))
	}
	want := f.deliveries(a, backlog.ID)
	slices.Reverse(want) // oldest first
	for _, d := range claimed {
		if d.WebhookID == backlog.ID && !slices.ContainsFunc(want[:4], func(w feedback.WebhookDelivery) bool { return w.ID == d.ID }) {
			t.Errorf("claimed %s, which is not among the backlog's four oldest", d.ID)
		}
	}
}

// testRefill has one subscription's backlog ahead of another's single
// delivery: a refill reads only the oldest window, so once the backlog's
// cap is reached it takes nothing more; a full claim reads on past the
// backlog and takes the single delivery.
func testRefill(t *testing.T, f *fixture) {
	_, backlog, single := f.backlogAhead()
	refill := f.claimDue("w1", server.Claim{Lease: time.Minute, Limit: 2, PerWebhook: 1, Refill: true})
	if len(refill) != 1 || refill[0].WebhookID != backlog.ID {
		t.Fatalf("a refill of 2 with a cap of 1 took %v; want one of the backlog", webhooks(refill))
	}
	_, err := f.s.FinishAttempts(f.ctx(), "w1", nil, []*server.Delivery{&refill[0]})
	f.must(err)
	full := f.claimDue("w2", server.Claim{Lease: time.Minute, Limit: 2, PerWebhook: 1})
	if len(full) != 2 || full[0].WebhookID == full[1].WebhookID ||
		!slices.ContainsFunc(full, func(d server.Delivery) bool { return d.WebhookID == single.ID }) {
		t.Errorf("a claim of 2 with a cap of 1 took %v; want one of each subscription", webhooks(full))
	}
}

// testCap claims with a cap per subscription: the cap counts every
// worker's live leases, not expired ones, and Skip leaves a subscription
// out.
func testCap(t *testing.T, f *fixture) {
	_, sub := f.pendingDeliveries(6)
	capped := server.Claim{Lease: time.Minute, Limit: 10, PerWebhook: 2}
	first := f.claimDue("w1", capped)
	if len(first) != 2 {
		t.Fatalf("a claim capped at 2 per subscription took %d", len(first))
	}
	if more := f.claimDue("w2", capped); len(more) != 0 {
		t.Errorf("another worker took %d beyond the cap", len(more))
	}
	f.finish("w1", &first[0], 204, server.Outcome{Status: feedback.DeliverySucceeded})
	if more := f.claimDue("w2", capped); len(more) != 1 {
		t.Errorf("after one attempt was recorded another worker took %d, want 1", len(more))
	}
	if skipped := f.claimDue("w3", server.Claim{Lease: time.Minute, Limit: 10, Skip: []string{sub.ID}}); len(skipped) != 0 {
		t.Errorf("a claim that skips the subscription took %d", len(skipped))
	}
	f.clock.Add(time.Minute) // every lease has expired
	if again := f.claimDue("w3", capped); len(again) != 2 {
		t.Errorf("with every lease expired a claim took %d, want 2", len(again))
	}
}

// testFinishMany records two attempts and releases a third delivery in
// one call; a stale lease is reported lost and changes nothing.
func testFinishMany(t *testing.T, f *fixture) {
	w, sub := f.pendingDeliveries(3)
	c := f.claim("w1")
	next := f.clock.Now().Add(5 * time.Second)
	at := feedback.NewTime(f.clock.Now())
	done := []server.Finished{
		{Delivery: &c[0], Attempt: feedback.DeliveryAttempt{N: 1, At: at, StatusCode: 204}, Outcome: server.Outcome{Status: feedback.DeliverySucceeded}},
		{Delivery: &c[1], Attempt: feedback.DeliveryAttempt{N: 1, At: at, StatusCode: 503, Error: "answered 503"},
			Outcome: server.Outcome{Status: feedback.DeliveryPending, NextAttempt: next}},
	}
	lost, err := f.s.FinishAttempts(f.ctx(), "w1", done, []*server.Delivery{&c[2]})
	f.must(err)
	if len(lost) != 0 {
		t.Errorf("FinishAttempts lost %v", lost)
	}
	byID := map[string]feedback.WebhookDelivery{}
	for _, d := range f.deliveries(w.ws, sub.ID) {
		byID[d.ID] = d
	}
	if d := byID[c[0].ID]; d.Status != feedback.DeliverySucceeded || len(d.AttemptLog) != 1 || d.AttemptLog[0].StatusCode != 204 {
		t.Errorf("the succeeded delivery: %+v", d)
	}
	if d := byID[c[1].ID]; d.Status != feedback.DeliveryPending || d.LastStatusCode != 503 || len(d.AttemptLog) != 1 ||
		d.NextAttemptAt == nil || !d.NextAttemptAt.Equal(next.UTC().Truncate(time.Microsecond)) {
		t.Errorf("the retried delivery: %+v", d)
	}
	if d := byID[c[2].ID]; d.Status != feedback.DeliveryPending || d.Attempts != 0 || len(d.AttemptLog) != 0 {
		t.Errorf("the released delivery: %+v", d)
	}
	if again := f.claimOne("w2"); again.ID != c[2].ID {
		t.Errorf("after its release another worker claimed %s, want %s", again.ID, c[2].ID)
	}
	lost, err = f.s.FinishAttempts(f.ctx(), "w1", done[:1], []*server.Delivery{&c[2]})
	f.must(err)
	if !slices.Equal(lost, []string{c[0].ID, c[2].ID}) {
		t.Errorf("FinishAttempts of ended leases lost %v, want both", lost)
	}
	if d := f.deliveries(w.ws, sub.ID); len(d[0].AttemptLog)+len(d[1].AttemptLog)+len(d[2].AttemptLog) != 2 {
		t.Errorf("a lost lease's attempt was logged")
	}
}

// testOnDue counts the calls of the OnDue hook: a commit that creates
// no delivery makes none.
func testOnDue(t *testing.T, f *fixture) {
	var calls atomic.Int32
	f.s.OnDue(func() { calls.Add(1) })
	w := f.world("acme")
	f.hygiene(w.ws, w.location)
	if n := calls.Load(); n != 0 {
		t.Errorf("a submission without subscribers called OnDue %d times", n)
	}
	sub := f.subscribe(w.ws, feedback.EventReviewStatusChanged)
	f.hygiene(w.ws, w.location)
	if n := calls.Load(); n != 0 {
		t.Errorf("a submission no subscription listens to called OnDue %d times", n)
	}
	all := f.subscribe(w.ws, "*")
	f.hygiene(w.ws, w.location)
	if n := calls.Load(); n != 1 {
		t.Fatalf("a submission with a subscriber called OnDue %d times, want 1", n)
	}
	d := f.claimOne("w1")
	f.finish("w1", d, 400, server.Outcome{Status: feedback.DeliveryFailed})
	_, err := f.s.Redeliver(f.ctx(), w.ws, all.ID, d.ID)
	f.must(err)
	_, err = f.s.PingWebhook(f.ctx(), w.ws, sub.ID, []byte(`{}`))
	f.must(err)
	if n := calls.Load(); n != 3 {
		t.Errorf("after a redelivery and a test OnDue was called %d times, want 3", n)
	}
}

// backlogAhead gives workspace acme a subscription with 12 due
// deliveries, a second apart, and then workspace globex a subscription
// with one.
func (f *fixture) backlogAhead() (acme string, backlog, single *server.Webhook) {
	f.t.Helper()
	a := f.world("acme")
	backlog = f.subscribe(a.ws, "*")
	for range 12 {
		f.hygiene(a.ws, a.location)
		f.clock.Add(time.Second)
	}
	b := f.world("globex")
	single = f.subscribe(b.ws, "*")
	f.hygiene(b.ws, b.location)
	return a.ws, backlog, single
}

// pendingDeliveries gives workspace acme a subscription to "*" and n
// submissions, hence n due deliveries.
func (f *fixture) pendingDeliveries(n int) (world, *server.Webhook) {
	f.t.Helper()
	w := f.world("acme")
	sub := f.subscribe(w.ws, "*")
	for range n {
		f.hygiene(w.ws, w.location)
	}
	return w, sub
}

// claimN leases up to n due deliveries to worker for a minute.
func (f *fixture) claimN(worker string, n int) []server.Delivery {
	f.t.Helper()
	d, err := f.s.ClaimDeliveries(f.ctx(), worker, time.Minute, n)
	f.must(err)
	return d
}

// claimDue claims with c.
func (f *fixture) claimDue(worker string, c server.Claim) []server.Delivery {
	f.t.Helper()
	d, err := f.s.ClaimDue(f.ctx(), worker, c)
	f.must(err)
	return d
}

// webhooks lists the subscriptions of claimed deliveries.
func webhooks(d []server.Delivery) []string {
	ids := make([]string, len(d))
	for i, x := range d {
		ids[i] = x.WebhookID
	}
	return ids
}
