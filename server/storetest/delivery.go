package storetest

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/feedbackhq/feedback/server"
	"github.com/feedbackhq/feedback/shared/feedback"
)

// subscribe creates an enabled subscription of ws to events.
func (f *fixture) subscribe(ws string, events ...string) *server.Webhook {
	f.t.Helper()
	w := &server.Webhook{WorkspaceID: ws, WebhookSubscription: feedback.WebhookSubscription{URL: "https://example.com/" + events[0],
		Events: events, SecretPrefix: "whsec_abcdef"}, Secret: []byte("sealed-1")}
	f.must(f.s.CreateWebhook(f.ctx(), w))
	return w
}

// deliveries returns every delivery of a subscription, newest first.
func (f *fixture) deliveries(ws, webhookID string) []feedback.WebhookDelivery {
	f.t.Helper()
	d, _, err := f.s.Deliveries(f.ctx(), ws, webhookID, feedback.ListParams{Page: 1, PerPage: 100})
	f.must(err)
	return d
}

// claim leases every due delivery to worker for a minute.
func (f *fixture) claim(worker string) []server.Delivery {
	f.t.Helper()
	d, err := f.s.ClaimDeliveries(f.ctx(), worker, time.Minute, 100)
	f.must(err)
	return d
}

// claimOne claims and wants exactly one delivery.
func (f *fixture) claimOne(worker string) *server.Delivery {
	f.t.Helper()
	d := f.claim(worker)
	if len(d) != 1 {
		f.t.Fatalf("ClaimDeliveries(%s) took %d deliveries, want 1", worker, len(d))
	}
	return &d[0]
}

// finish records a first attempt of d with status code code and outcome o.
func (f *fixture) finish(worker string, d *server.Delivery, code int, o server.Outcome) {
	f.t.Helper()
	a := feedback.DeliveryAttempt{N: d.Attempts + 1, At: feedback.NewTime(f.clock.Now()), StatusCode: code, DurationMS: 12}
	if o.Status == feedback.DeliveryPending {
		next := feedback.NewTime(o.NextAttempt)
		a.NextAttemptAt = &next
	}
	f.must(f.s.FinishAttempt(f.ctx(), worker, d, a, o))
}

func testDelivery(t *testing.T, h harness) {
	h.run(t, "FanOut", testFanOut)
	h.run(t, "Claim", testClaim)
	h.run(t, "Lease", testLease)
	h.run(t, "Retry", testRetry)
	h.run(t, "Disable", testDisable)
	h.run(t, "Redeliver", testRedeliver)
	h.run(t, "Ping", testPingWebhook)
	h.run(t, "Update", testUpdateWebhook)
	h.run(t, "ConcurrentClaims", testConcurrentClaims)
	h.run(t, "Turns", testTurns)
	h.run(t, "Cap", testCap)
	h.run(t, "Refill", testRefill)
	h.run(t, "FinishMany", testFinishMany)
	h.run(t, "OnDue", testOnDue)
}

func testFanOut(t *testing.T, f *fixture) {
	w := f.world("acme")
	some := f.subscribe(w.ws, feedback.EventHygieneSubmissionCreated, feedback.EventReviewStatusChanged)
	all := f.subscribe(w.ws, "*", feedback.EventHygieneSubmissionCreated)
	other := f.subscribe(w.ws, feedback.EventReviewResponseCreated)
	off := f.subscribe(w.ws, "*")
	_, err := f.s.UpdateWebhook(f.ctx(), w.ws, off.ID, server.WebhookChange{Enabled: ptr(false)})
	f.must(err)
	foreign := f.world("globex")
	elsewhere := f.subscribe(foreign.ws, "*")

	h := f.hygiene(w.ws, w.location)
	for _, c := range []struct {
		w    *server.Webhook
		want int
	}{{some, 1}, {all, 1}, {other, 0}, {off, 0}} {
		got := f.deliveries(w.ws, c.w.ID)
		if len(got) != c.want {
			t.Errorf("subscription to %v has %d deliveries, want %d", c.w.Events, len(got), c.want)
			continue
		}
		if c.want == 1 {
			d := got[0]
			if d.EventType != feedback.EventHygieneSubmissionCreated || d.Status != feedback.DeliveryPending ||
				d.Attempts != 0 || d.NextAttemptAt == nil || !d.NextAttemptAt.Equal(f.clock.stored()) || len(d.AttemptLog) != 0 {
				t.Errorf("delivery after a submission: %+v", d)
			}
		}
	}
	if got := f.deliveries(foreign.ws, elsewhere.ID); len(got) != 0 {
		t.Errorf("another workspace's subscription got %d deliveries", len(got))
	}
	claimed := f.claim("w1")
	if len(claimed) != 2 {
		t.Fatalf("claimed %d deliveries, want 2", len(claimed))
	}
	var e feedback.Event
	f.must(json.Unmarshal(claimed[0].Payload, &e))
	var data feedback.HygieneSubmission
	f.must(json.Unmarshal(e.Data, &data))
	if e.Type != feedback.EventHygieneSubmissionCreated || e.WorkspaceID != w.ws || e.ID != claimed[0].EventID ||
		e.Seq == 0 || data.ID != h.ID {
		t.Errorf("payload %s does not carry the submission's event", claimed[0].Payload)
	}
	if claimed[0].Payload == nil || string(claimed[0].Payload) != string(claimed[1].Payload) {
		t.Errorf("both subscriptions should receive the same envelope:\n%s\n%s", claimed[0].Payload, claimed[1].Payload)
	}
	_, _, err = f.s.Deliveries(f.ctx(), foreign.ws, some.ID, feedback.ListParams{Page: 1, PerPage: 10})
	wantCode(t, err, feedback.ENotFound)
}

func testClaim(t *testing.T, f *fixture) {
	w := f.world("acme")
	sub := f.subscribe(w.ws, "*")
	before := f.clock.stored().Add(-time.Second)
	if _, ok, err := f.s.NextDue(f.ctx(), before); err != nil || ok {
		t.Errorf("NextDue on an empty queue = %v, %v; want none", ok, err)
	}
	f.hygiene(w.ws, w.location)
	due, ok, err := f.s.NextDue(f.ctx(), before)
	f.must(err)
	if !ok || !due.Equal(f.clock.stored()) {
		t.Errorf("NextDue = %v, %v; want %v", due, ok, f.clock.stored())
	}
	if _, ok, _ := f.s.NextDue(f.ctx(), f.clock.stored()); ok {
		t.Errorf("NextDue after the only due time reports one")
	}
	d := f.claimOne("w1")
	if d.URL != sub.URL || string(d.Secret) != "sealed-1" || d.PreviousSecret != nil || d.WebhookID != sub.ID ||
		d.WorkspaceID != w.ws || !d.LeaseUntil.Equal(f.clock.stored().Add(time.Minute)) {
		t.Errorf("claimed delivery %+v", d)
	}
	if again := f.claim("w2"); len(again) != 0 {
		t.Errorf("a leased delivery was claimed again by another worker")
	}
	f.finish("w1", d, 204, server.Outcome{Status: feedback.DeliverySucceeded})
	got := f.deliveries(w.ws, sub.ID)[0]
	if got.Status != feedback.DeliverySucceeded || got.Attempts != 1 || got.NextAttemptAt != nil ||
		got.DeliveredAt == nil || got.LastStatusCode != 204 || len(got.AttemptLog) != 1 || got.AttemptLog[0].StatusCode != 204 {
		t.Errorf("delivery after success: %+v", got)
	}
	if _, ok, _ := f.s.NextDue(f.ctx(), before); ok {
		t.Errorf("NextDue after the only delivery succeeded reports one due")
	}
	f.must(f.s.DeleteWebhook(f.ctx(), w.ws, sub.ID))
	_, _, err = f.s.Deliveries(f.ctx(), w.ws, sub.ID, feedback.ListParams{Page: 1, PerPage: 10})
	wantCode(t, err, feedback.ENotFound)
}

func testLease(t *testing.T, f *fixture) {
	w := f.world("acme")
	sub := f.subscribe(w.ws, "*")
	f.hygiene(w.ws, w.location)
	first := f.claimOne("w1")
	f.clock.Add(time.Minute) // the lease ends: w1 is presumed dead
	second := f.claimOne("w2")
	if second.ID != first.ID {
		t.Fatalf("w2 took %s, want the expired lease's %s", second.ID, first.ID)
	}
	a := feedback.DeliveryAttempt{N: 1, At: feedback.NewTime(f.clock.Now()), StatusCode: 200}
	err := f.s.FinishAttempt(f.ctx(), "w1", first, a, server.Outcome{Status: feedback.DeliverySucceeded})
	wantCode(t, err, feedback.EConflict)
	if got := f.deliveries(w.ws, sub.ID)[0]; got.Attempts != 0 || got.Status != feedback.DeliveryPending {
		t.Errorf("a late FinishAttempt of a lost lease changed the delivery: %+v", got)
	}
	f.finish("w2", second, 200, server.Outcome{Status: feedback.DeliverySucceeded})
	err = f.s.FinishAttempt(f.ctx(), "w2", second, a, server.Outcome{Status: feedback.DeliverySucceeded})
	wantCode(t, err, feedback.EConflict)
	if got := f.deliveries(w.ws, sub.ID)[0]; got.Attempts != 1 || len(got.AttemptLog) != 1 {
		t.Errorf("a finished attempt was recorded twice: %+v", got)
	}
}

func testRetry(t *testing.T, f *fixture) {
	w := f.world("acme")
	sub := f.subscribe(w.ws, "*")
	f.hygiene(w.ws, w.location)
	d := f.claimOne("w1")
	next := f.clock.Now().Add(5 * time.Second)
	f.finish("w1", d, 503, server.Outcome{Status: feedback.DeliveryPending, NextAttempt: next})
	got := f.deliveries(w.ws, sub.ID)[0]
	if got.Status != feedback.DeliveryPending || got.Attempts != 1 || got.LastStatusCode != 503 ||
		got.NextAttemptAt == nil || !got.NextAttemptAt.Equal(next.UTC().Truncate(time.Microsecond)) ||
		got.AttemptLog[0].NextAttemptAt == nil {
		t.Errorf("delivery after a 503: %+v", got)
	}
	if early := f.claim("w1"); len(early) != 0 {
		t.Errorf("a delivery was claimed before its next attempt")
	}
	if due, ok, err := f.s.NextDue(f.ctx(), f.clock.Now()); err != nil || !ok || !due.Equal(next.UTC().Truncate(time.Microsecond)) {
		t.Errorf("NextDue after a 503 = %v, %v, %v; want the retry at %v", due, ok, err, next)
	}
	f.clock.Add(5 * time.Second)
	d = f.claimOne("w1")
	if d.Attempts != 1 {
		t.Errorf("the second claim shows %d attempts, want 1", d.Attempts)
	}
	f.finish("w1", d, 400, server.Outcome{Status: feedback.DeliveryFailed})
	got = f.deliveries(w.ws, sub.ID)[0]
	if got.Status != feedback.DeliveryFailed || got.Attempts != 2 || got.NextAttemptAt != nil ||
		len(got.AttemptLog) != 2 || got.AttemptLog[1].N != 2 || got.AttemptLog[1].NextAttemptAt != nil {
		t.Errorf("delivery after a refusal: %+v", got)
	}
}

func testDisable(t *testing.T, f *fixture) {
	w := f.world("acme")
	gone := f.subscribe(w.ws, "*")
	watcher := f.subscribe(w.ws, feedback.EventWebhookDisabled)
	f.hygiene(w.ws, w.location)
	f.hygiene(w.ws, w.location)
	first, err := f.s.ClaimDeliveries(f.ctx(), "w1", time.Minute, 1)
	f.must(err)
	d := first[0]
	f.finish("w1", &d, 410, server.Outcome{Status: feedback.DeliveryFailed, Disable: true, Reason: "the receiver answered 410 Gone"})
	got, err := f.s.Webhook(f.ctx(), w.ws, gone.ID)
	f.must(err)
	if got.DisabledAt == nil || got.DisabledReason != "the receiver answered 410 Gone" {
		t.Errorf("subscription after 410: disabled_at %v, reason %q", got.DisabledAt, got.DisabledReason)
	}
	events := f.events(w.ws)
	last := events[len(events)-1]
	var data feedback.WebhookSubscription
	f.must(json.Unmarshal(last.Data, &data))
	if last.Type != feedback.EventWebhookDisabled || data.ID != gone.ID || data.DisabledReason == "" {
		t.Errorf("last event %s %s, want webhook.disabled of %s", last.Type, last.Data, gone.ID)
	}
	notice := f.claimOne("w1") // the other pending delivery of gone waits
	if notice.WebhookID != watcher.ID || notice.EventType != feedback.EventWebhookDisabled {
		t.Errorf("claimed %s of %s, want the webhook.disabled notice of the watcher", notice.EventType, notice.WebhookID)
	}
	f.finish("w1", notice, 200, server.Outcome{Status: feedback.DeliverySucceeded})
	if len(f.deliveries(w.ws, gone.ID)) != 2 {
		t.Errorf("the disabled subscription should keep its deliveries, not get its own notice")
	}
	_, err = f.s.UpdateWebhook(f.ctx(), w.ws, gone.ID, server.WebhookChange{Enabled: ptr(true)})
	f.must(err)
	if again := f.claimOne("w1"); again.WebhookID != gone.ID {
		t.Errorf("after re-enabling, claimed a delivery of %s", again.WebhookID)
	}
}

func testRedeliver(t *testing.T, f *fixture) {
	w := f.world("acme")
	sub := f.subscribe(w.ws, "*")
	f.hygiene(w.ws, w.location)
	d := f.claimOne("w1")
	f.finish("w1", d, 400, server.Outcome{Status: feedback.DeliveryFailed})
	f.clock.Add(time.Hour)
	got, err := f.s.Redeliver(f.ctx(), w.ws, sub.ID, d.ID)
	f.must(err)
	if got.ID != d.ID || got.Status != feedback.DeliveryPending || got.NextAttemptAt == nil ||
		!got.NextAttemptAt.Equal(f.clock.stored()) || got.Attempts != 1 || len(got.AttemptLog) != 1 {
		t.Errorf("Redeliver returned %+v", got)
	}
	again := f.claimOne("w1")
	if again.ID != d.ID || again.ScheduleBase != 1 || again.Attempts != 1 {
		t.Errorf("the redelivered delivery was claimed as %+v", again)
	}
	_, err = f.s.Redeliver(f.ctx(), w.ws, sub.ID, feedback.NewID())
	wantCode(t, err, feedback.ENotFound)
	foreign := f.workspace("globex")
	_, err = f.s.Redeliver(f.ctx(), foreign, sub.ID, d.ID)
	wantCode(t, err, feedback.ENotFound)
	_, err = f.s.UpdateWebhook(f.ctx(), w.ws, sub.ID, server.WebhookChange{Enabled: ptr(false)})
	f.must(err)
	_, err = f.s.Redeliver(f.ctx(), w.ws, sub.ID, d.ID)
	wantCode(t, err, feedback.EConflict)
}

func testPingWebhook(t *testing.T, f *fixture) {
	w := f.world("acme")
	pinged := f.subscribe(w.ws, feedback.EventHygieneSubmissionCreated)
	all := f.subscribe(w.ws, "*")
	d, err := f.s.PingWebhook(f.ctx(), w.ws, pinged.ID, []byte(`{"hello":"world"}`))
	f.must(err)
	if d.WebhookID != pinged.ID || d.EventType != feedback.EventWebhookTest || d.Status != feedback.DeliveryPending {
		t.Errorf("PingWebhook returned %+v", d)
	}
	if n := len(f.deliveries(w.ws, all.ID)); n != 0 {
		t.Errorf("a test event reached another subscription (%d deliveries)", n)
	}
	c := f.claimOne("w1")
	if c.ID != d.ID || !json.Valid(c.Payload) {
		t.Errorf("claimed %+v, want the ping", c)
	}
	_, err = f.s.PingWebhook(f.ctx(), w.ws, feedback.NewID(), []byte(`{}`))
	wantCode(t, err, feedback.ENotFound)
	_, err = f.s.UpdateWebhook(f.ctx(), w.ws, pinged.ID, server.WebhookChange{Enabled: ptr(false)})
	f.must(err)
	_, err = f.s.PingWebhook(f.ctx(), w.ws, pinged.ID, []byte(`{}`))
	wantCode(t, err, feedback.EConflict)
}

func testUpdateWebhook(t *testing.T, f *fixture) {
	w := f.world("acme")
	sub := f.subscribe(w.ws, feedback.EventReviewResponseCreated)
	f.clock.Add(time.Second)
	got, err := f.s.UpdateWebhook(f.ctx(), w.ws, sub.ID, server.WebhookChange{URL: ptr("https://example.org/new"),
		Events: &[]string{feedback.EventHygieneSubmissionCreated}, Secret: []byte("sealed-2"), SecretPrefix: "whsec_second"})
	f.must(err)
	if got.URL != "https://example.org/new" || string(got.Secret) != "sealed-2" || string(got.PreviousSecret) != "sealed-1" ||
		got.PreviousSecretUntil == nil || !got.PreviousSecretUntil.Equal(f.clock.stored().Add(feedback.SecretOverlap)) ||
		got.SecretPrefix != "whsec_second" || !got.UpdatedAt.Equal(f.clock.stored()) || got.CreatedAt.Equal(got.UpdatedAt.Time) {
		t.Errorf("UpdateWebhook returned %+v", got)
	}
	stored, err := f.s.Webhook(f.ctx(), w.ws, sub.ID)
	f.must(err)
	wantEqual(t, "Webhook after UpdateWebhook", *got, *stored)
	f.hygiene(w.ws, w.location) // the new events apply at once
	d := f.claimOne("w1")
	if d.URL != "https://example.org/new" || string(d.PreviousSecret) != "sealed-1" {
		t.Errorf("during the overlap a delivery goes to %s signed with previous %q", d.URL, d.PreviousSecret)
	}
	f.finish("w1", d, 200, server.Outcome{Status: feedback.DeliverySucceeded})
	f.clock.Add(feedback.SecretOverlap)
	f.hygiene(w.ws, w.location)
	if d := f.claimOne("w1"); d.PreviousSecret != nil {
		t.Errorf("after the overlap the previous secret still signs")
	}
	_, err = f.s.UpdateWebhook(f.ctx(), w.ws, feedback.NewID(), server.WebhookChange{})
	wantCode(t, err, feedback.ENotFound)
	off, err := f.s.UpdateWebhook(f.ctx(), w.ws, sub.ID, server.WebhookChange{Enabled: ptr(false)})
	f.must(err)
	on, err := f.s.UpdateWebhook(f.ctx(), w.ws, sub.ID, server.WebhookChange{Enabled: ptr(true)})
	f.must(err)
	if off.DisabledAt == nil || off.DisabledReason == "" || on.DisabledAt != nil || on.DisabledReason != "" ||
		on.PreviousSecret != nil {
		t.Errorf("disable then enable: %+v then %+v", off, on)
	}
}

// testConcurrentClaims has four workers claim 40 deliveries at once:
// each is taken exactly once.
func testConcurrentClaims(t *testing.T, f *fixture) {
	w := f.world("acme")
	f.subscribe(w.ws, "*")
	for range 40 {
		f.hygiene(w.ws, w.location)
	}
	taken := make(chan []server.Delivery, 4)
	errs := make(chan error, 4)
	for i := range 4 {
		go func() {
			var mine []server.Delivery
			for {
				d, err := f.s.ClaimDeliveries(f.ctx(), string(rune('a'+i)), time.Minute, 3)
				if err != nil || len(d) == 0 {
					errs <- err
					taken <- mine
					return
				}
				mine = append(mine, d...)
			}
		}()
	}
	seen := map[string]int{}
	for range 4 {
		f.must(<-errs)
		for _, d := range <-taken {
			seen[d.ID]++
		}
	}
	if len(seen) != 40 {
		t.Errorf("the workers took %d distinct deliveries, want 40", len(seen))
	}
	for id, n := range seen {
		if n != 1 {
			t.Errorf("delivery %s was taken %d times", id, n)
		}
	}
}
