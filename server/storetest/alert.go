package storetest

import (
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/feedbackhq/feedback/server"
	"github.com/feedbackhq/feedback/shared/feedback"
)

// lowRule is a rule that fires on three ratings of 2 or less within ten
// minutes, with a cool-down of thirty minutes.
func lowRule() *feedback.AlertRule {
	return &feedback.AlertRule{Name: "Three bad ratings", Kind: feedback.RuleLowRatings, Count: 3, Rating: 2,
		WindowMinutes: 10, CooldownMinutes: 30, Emails: []string{"ops@example.com"}, Enabled: true}
}

// rate moves the clock a second on and adds a hygiene submission of
// rating with tags at location, captured at the clock's now minus ago.
func (f *fixture) rate(ws, location string, rating int, ago time.Duration, tags ...string) {
	f.t.Helper()
	f.clock.Add(time.Second)
	if tags == nil {
		tags = []string{}
	}
	h := &feedback.HygieneSubmission{ID: feedback.NewID(), Rating: rating, LocationID: location, Tags: tags,
		Language: "en", Source: feedback.SourceKiosk, CapturedAt: feedback.NewTime(f.clock.Now().Add(-ago))}
	_, err := f.s.AddHygiene(f.ctx(), ws, h, []byte(h.ID))
	f.must(err)
	f.rated++
}

// evaluate runs EvaluateAlerts and wants it to raise n alerts. It first
// waits until Events returns the events of every submission of rate:
// on PostgreSQL, a read of events leaves out those of transactions that
// began after the oldest one still running in the cluster (see
// Dialect.EventHorizon), and parallel tests may hold one for a while.
func (f *fixture) evaluate(ws string, n int) {
	f.t.Helper()
	f.awaitRated(ws)
	got, err := f.s.EvaluateAlerts(f.ctx(), ws)
	f.must(err)
	if got != n {
		f.t.Errorf("EvaluateAlerts raised %d alerts, want %d", got, n)
	}
}

// awaitRated waits until Events returns the events of every submission
// of rate.
func (f *fixture) awaitRated(ws string) {
	f.t.Helper()
	for deadline := time.Now().Add(30 * time.Second); f.ratedEvents(ws) < f.rated && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
}

// ratedEvents counts the workspace's hygiene_submission.created events.
func (f *fixture) ratedEvents(ws string) int {
	f.t.Helper()
	n := 0
	for _, e := range f.events(ws) {
		if e.Type == feedback.EventHygieneSubmissionCreated {
			n++
		}
	}
	return n
}

// alertEvents returns the workspace's alert events, their data decoded.
func (f *fixture) alertEvents(ws string) (types []string, alerts []feedback.Alert) {
	f.t.Helper()
	for _, e := range f.events(ws) {
		switch e.Type {
		case feedback.EventAlertTriggered, feedback.EventAlertAcknowledged, feedback.EventAlertResolved:
			var a feedback.Alert
			f.must(json.Unmarshal(e.Data, &a))
			types, alerts = append(types, e.Type), append(alerts, a)
		}
	}
	return types, alerts
}

// activeAlerts returns the workspace's unresolved alerts.
func (f *fixture) activeAlerts(ws string) []feedback.Alert {
	f.t.Helper()
	list, _, err := f.s.Alerts(f.ctx(), ws, feedback.ListParams{Page: 1, PerPage: 100}, feedback.AlertFilter{State: "active"})
	f.must(err)
	return list
}

func testAlert(t *testing.T, h harness) {
	testAlertRules(t, h)
	testAlertEvaluation(t, h)
	testAlertLifecycle(t, h)
	testAlertKiosk(t, h)
	testAlertMail(t, h)
}

func testAlertRules(t *testing.T, h harness) {
	h.run(t, "RuleCRUD", func(t *testing.T, f *fixture) {
		w, other := f.world("acme"), f.world("other")
		r := lowRule()
		r.LocationID = &w.location
		f.must(f.s.CreateAlertRule(f.ctx(), w.ws, r))
		got, err := f.s.AlertRule(f.ctx(), w.ws, r.ID)
		f.must(err)
		wantEqual(t, "the rule read back", *r, *got)
		list, total, err := f.s.AlertRules(f.ctx(), w.ws, feedback.ListParams{Page: 1, PerPage: 10})
		f.must(err)
		if total != 1 || len(list) != 1 || list[0].ID != r.ID {
			t.Errorf("AlertRules = %d rules of %d, want the one", len(list), total)
		}
		f.clock.Add(time.Second)
		up, err := f.s.UpdateAlertRule(f.ctx(), w.ws, r.ID, func(r *feedback.AlertRule) error {
			r.Name, r.Enabled = "Renamed", false
			return nil
		})
		f.must(err)
		if up.Name != "Renamed" || up.Enabled || !up.UpdatedAt.After(up.CreatedAt.Time) {
			t.Errorf("the rule after the update: %+v", up)
		}
		_, err = f.s.AlertRule(f.ctx(), other.ws, r.ID)
		wantCode(t, err, feedback.ENotFound)
		_, err = f.s.UpdateAlertRule(f.ctx(), other.ws, r.ID, func(*feedback.AlertRule) error { return nil })
		wantCode(t, err, feedback.ENotFound)
		wantCode(t, f.s.DeleteAlertRule(f.ctx(), other.ws, r.ID), feedback.ENotFound)
		f.must(f.s.DeleteAlertRule(f.ctx(), w.ws, r.ID))
		_, err = f.s.AlertRule(f.ctx(), w.ws, r.ID)
		wantCode(t, err, feedback.ENotFound)
	})
	h.run(t, "RuleAtLocationOfAnotherWorkspace", func(t *testing.T, f *fixture) {
		w, other := f.world("acme"), f.world("other")
		r := lowRule()
		r.LocationID = &other.location
		wantCode(t, f.s.CreateAlertRule(f.ctx(), w.ws, r), feedback.ENotFound)
		list, total, err := f.s.AlertRules(f.ctx(), w.ws, feedback.ListParams{Page: 1, PerPage: 10})
		f.must(err)
		if total != 0 || len(list) != 0 {
			t.Errorf("a refused rule was stored")
		}
	})
}

func testAlertEvaluation(t *testing.T, h harness) {
	h.run(t, "OneAlertPerIncident", func(t *testing.T, f *fixture) {
		w := f.world("acme")
		f.must(f.s.CreateAlertRule(f.ctx(), w.ws, lowRule()))
		f.rate(w.ws, w.location, 1, 0)
		f.rate(w.ws, w.location, 5, 0)
		f.rate(w.ws, w.location, 2, 0)
		f.evaluate(w.ws, 0)
		f.rate(w.ws, w.location, 1, 0)
		f.rate(w.ws, w.location, 1, 0)
		f.evaluate(w.ws, 1)
		f.rate(w.ws, w.location, 1, 0)
		f.evaluate(w.ws, 0)
		types, alerts := f.alertEvents(w.ws)
		if len(types) != 1 || types[0] != feedback.EventAlertTriggered {
			t.Fatalf("alert events %v, want one alert.triggered", types)
		}
		a := alerts[0]
		if a.State != feedback.AlertOpen || *a.LocationID != w.location || a.Value != 3 ||
			a.Summary != "3 ratings of 2 or less within 10 minutes" {
			t.Errorf("the alert triggered: %+v", a)
		}
	})
	h.run(t, "HistoryIsNotEvaluated", func(t *testing.T, f *fixture) {
		w := f.world("acme")
		for range 3 {
			f.rate(w.ws, w.location, 1, 0)
		}
		f.must(f.s.CreateAlertRule(f.ctx(), w.ws, lowRule()))
		f.evaluate(w.ws, 0)
		f.rate(w.ws, w.location, 5, 0)
		f.evaluate(w.ws, 0)
	})
	h.run(t, "LateSyncRaisesNothing", func(t *testing.T, f *fixture) {
		w := f.world("acme")
		f.must(f.s.CreateAlertRule(f.ctx(), w.ws, lowRule()))
		for range 3 {
			f.rate(w.ws, w.location, 1, 3*time.Hour) // a kiosk's queue synced hours later
		}
		f.evaluate(w.ws, 0)
	})
	h.run(t, "EvaluatedLateStillRaises", func(t *testing.T, f *fixture) {
		w := f.world("acme")
		f.must(f.s.CreateAlertRule(f.ctx(), w.ws, lowRule()))
		for range 3 {
			f.rate(w.ws, w.location, 1, 0)
		}
		f.clock.Add(2 * time.Hour) // the workers were down: they catch up
		f.evaluate(w.ws, 1)
	})
	h.run(t, "OtherKinds", func(t *testing.T, f *fixture) {
		w := f.world("acme")
		f.must(f.s.CreateAlertRule(f.ctx(), w.ws, &feedback.AlertRule{Name: "avg", Kind: feedback.RuleAverageBelow,
			Count: 4, Average: 3, WindowMinutes: 60, Emails: []string{}, Enabled: true}))
		f.must(f.s.CreateAlertRule(f.ctx(), w.ws, &feedback.AlertRule{Name: "soap", Kind: feedback.RuleTagReported,
			Count: 2, Tag: feedback.TagNoSoap, WindowMinutes: 60, Emails: []string{}, Enabled: true}))
		f.rate(w.ws, w.location, 2, 0, feedback.TagNoSoap)
		f.rate(w.ws, w.location, 3, 0)
		f.rate(w.ws, w.location, 2, 0)
		f.evaluate(w.ws, 0) // three ratings: too few to average; one report
		f.rate(w.ws, w.location, 4, 0, feedback.TagNoSoap, feedback.TagBadSmell)
		f.evaluate(w.ws, 2) // average 2.75 of 4; two reports
		_, alerts := f.alertEvents(w.ws)
		values := map[string]float64{}
		for _, a := range alerts {
			values[a.RuleName] = a.Value
		}
		wantEqual(t, "the values of the alerts", map[string]float64{"avg": 2.75, "soap": 2}, values)
	})
	h.run(t, "ConcurrentEvaluationsRaiseOne", func(t *testing.T, f *fixture) {
		w := f.world("acme")
		f.must(f.s.CreateAlertRule(f.ctx(), w.ws, lowRule()))
		for range 5 {
			f.rate(w.ws, w.location, 1, 0)
		}
		f.awaitRated(w.ws)
		var raised [4]int
		concurrently(t, 4, func(i int) error {
			n, err := f.s.EvaluateAlerts(f.ctx(), w.ws)
			raised[i] = n
			return err
		})
		if sum := raised[0] + raised[1] + raised[2] + raised[3]; sum != 1 {
			t.Errorf("four concurrent evaluations raised %v alerts, want 1 in all", raised)
		}
		if types, _ := f.alertEvents(w.ws); len(types) != 1 {
			t.Errorf("alert events %v, want one", types)
		}
	})
}

func testAlertLifecycle(t *testing.T, h harness) {
	h.run(t, "AcknowledgeResolveCooldown", func(t *testing.T, f *fixture) {
		w, other := f.world("acme"), f.world("other")
		f.must(f.s.CreateAlertRule(f.ctx(), w.ws, lowRule()))
		burst := func(n int) {
			for range 3 {
				f.rate(w.ws, w.location, 1, 0)
			}
			f.evaluate(w.ws, n)
		}
		burst(1)
		a := f.activeAlerts(w.ws)[0]
		_, err := f.s.AcknowledgeAlert(f.ctx(), other.ws, a.ID, "x@example.com")
		wantCode(t, err, feedback.ENotFound)
		f.clock.Add(time.Minute)
		acked, err := f.s.AcknowledgeAlert(f.ctx(), w.ws, a.ID, "ops@example.com")
		f.must(err)
		if acked.State != feedback.AlertAcknowledged || *acked.AcknowledgedBy != "ops@example.com" ||
			acked.AcknowledgedAt.Sub(a.TriggeredAt.Time) != time.Minute {
			t.Errorf("the alert acknowledged: %+v", acked)
		}
		_, err = f.s.AcknowledgeAlert(f.ctx(), w.ws, a.ID, "ops@example.com")
		wantCode(t, err, feedback.EInvalidTransition)
		burst(0) // unresolved: the same incident
		f.clock.Add(time.Minute)
		done, err := f.s.ResolveAlert(f.ctx(), w.ws, a.ID, "token:ci", "Cleaned.")
		f.must(err)
		if done.State != feedback.AlertResolved || *done.ResolvedBy != "token:ci" || done.ResolutionNote != "Cleaned." {
			t.Errorf("the alert resolved: %+v", done)
		}
		_, err = f.s.ResolveAlert(f.ctx(), w.ws, a.ID, "token:ci", "again")
		wantCode(t, err, feedback.EInvalidTransition)
		types, _ := f.alertEvents(w.ws)
		wantEqual(t, "the alert events", []string{feedback.EventAlertTriggered, feedback.EventAlertAcknowledged,
			feedback.EventAlertResolved}, types)
		f.clock.Add(29 * time.Minute)
		burst(0)                      // within the cool-down
		f.clock.Add(11 * time.Minute) // after the cool-down, that burst out of the window
		f.rate(w.ws, w.location, 1, 0)
		f.rate(w.ws, w.location, 1, 0)
		f.evaluate(w.ws, 0)
		f.rate(w.ws, w.location, 1, 0)
		f.evaluate(w.ws, 1)
		stats, err := f.s.AlertStats(f.ctx(), w.ws, T0, f.clock.Now().Add(time.Second))
		f.must(err)
		ack, res := 60.0, 123.0 // the second burst moved the clock 3 s
		wantEqual(t, "the response times", []feedback.AlertResponseTimes{{LocationID: w.location, Alerts: 2, Open: 1,
			AvgAcknowledgeSecs: &ack, AvgResolveSecs: &res}}, stats)
	})
}

func testAlertKiosk(t *testing.T, h harness) {
	h.run(t, "KioskOfflineOncePerSilence", func(t *testing.T, f *fixture) {
		w := f.world("acme")
		k := f.pair(w.ws, w.location, feedback.FormRef{Form: feedback.FormHygiene}, "Door")
		f.must(f.s.CreateAlertRule(f.ctx(), w.ws, &feedback.AlertRule{Name: "offline", Kind: feedback.RuleKioskOffline,
			WindowMinutes: 10, Emails: []string{}, Enabled: true}))
		check := func(n int) {
			t.Helper()
			got, err := f.s.CheckKiosksOffline(f.ctx())
			f.must(err)
			if got != n {
				t.Errorf("CheckKiosksOffline raised %d alerts, want %d", got, n)
			}
		}
		f.heartbeat(k, 0, "b1")
		f.clock.Add(silence)
		f.sweep(1)
		check(0) // offline for 3 minutes
		f.clock.Add(7 * time.Minute)
		check(1)
		check(0)
		a := f.activeAlerts(w.ws)[0]
		if *a.KioskID != k.ID || *a.LocationID != w.location || a.Value != 10 {
			t.Errorf("the kiosk alert: %+v", a)
		}
		_, err := f.s.ResolveAlert(f.ctx(), w.ws, a.ID, "ops@example.com", "")
		f.must(err)
		f.clock.Add(time.Hour)
		check(0) // the same silence
		f.heartbeat(k, 0, "b1")
		f.clock.Add(silence)
		f.sweep(1)
		f.clock.Add(10 * time.Minute)
		check(1)
	})
}

func testAlertMail(t *testing.T, h harness) {
	h.run(t, "MailOutbox", func(t *testing.T, f *fixture) {
		w := f.world("acme")
		f.must(f.s.CreateAlertRule(f.ctx(), w.ws, lowRule()))
		quiet := lowRule()
		quiet.Name, quiet.Emails = "No mail", []string{}
		f.must(f.s.CreateAlertRule(f.ctx(), w.ws, quiet))
		for range 3 {
			f.rate(w.ws, w.location, 1, 0)
		}
		f.evaluate(w.ws, 2)
		claim := func(n int) []server.AlertMail {
			t.Helper()
			mails, err := f.s.ClaimAlertMails(f.ctx(), time.Minute, 10)
			f.must(err)
			if len(mails) != n {
				t.Fatalf("ClaimAlertMails returned %d mails, want %d", len(mails), n)
			}
			return mails
		}
		m := claim(1)[0]
		if m.WorkspaceSlug != "acme" || m.LocationName == "" || m.Alert.RuleName != "Three bad ratings" ||
			len(m.Recipients) != 1 || m.Recipients[0] != "ops@example.com" || m.Attempts != 0 {
			t.Errorf("the mail claimed: %+v", m)
		}
		claim(0) // leased
		f.must(f.s.FinishAlertMail(f.ctx(), &m, errors.New("421 try later")))
		f.clock.Add(29 * time.Second)
		claim(0) // the backoff
		f.clock.Add(time.Second)
		m = claim(1)[0]
		if m.Attempts != 1 {
			t.Errorf("attempts before the second = %d, want 1", m.Attempts)
		}
		f.must(f.s.FinishAlertMail(f.ctx(), &m, nil))
		f.clock.Add(time.Hour)
		claim(0) // sent
	})
}
