package e2e_test

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/feedbackhq/feedback/shared/feedback"
	"github.com/feedbackhq/feedback/shared/i18n"
)

// The dashboard's alerts pages (app/dashboard/alerts*.go): the elements
// the tests read.
const (
	activeAlerts = `document.querySelectorAll("#active-alerts li.alert-card")`
	// watchAlerts records in the page when the first unresolved alert
	// shows: window.alertSeen is its time (Date.now) and alertSeenID
	// its element's id.
	watchAlerts = `(() => {
  window.alertSeen = 0; window.alertSeenID = "";
  const look = () => { const li = document.querySelector("#active-alerts li.alert-card"); if (li && !alertSeen) { alertSeen = Date.now(); alertSeenID = li.id; } };
  look();
  new MutationObserver(look).observe(document.getElementById("main"), {childList: true, subtree: true});
})()`
)

// lowRatingsRule is the example rule: 3 ratings of 2 or less
// within 10 minutes at any location, with a cool-down of 30 minutes.
func lowRatingsRule(name string, emails ...string) feedback.AlertRuleInput {
	kind, count, rating, window, cooldown := feedback.RuleLowRatings, 3, 2, 10, 30
	if emails == nil {
		emails = []string{}
	}
	return feedback.AlertRuleInput{Name: &name, Kind: &kind, Count: &count, Rating: &rating,
		WindowMinutes: &window, CooldownMinutes: &cooldown, Emails: &emails}
}

// TestAlertEndToEnd is the test: with a rule of 3 ratings of 2
// or less within 10 minutes and an email recipient, three low ratings
// sent on a real visitor page raise one alert that appears on the open
// alerts page (the time from the third acknowledgement to the row is
// logged), with the navigation's count; Acknowledge there emits
// alert.acknowledged; the email reaches a real SMTP server with the
// link to the alert, and the link opens it with its timeline, where it
// is resolved by keyboard. Then someone else's actions show live: a
// second alert, acknowledged through the API, changes in place.
func TestAlertEndToEnd(t *testing.T) {
	mail := startSMTP(t)
	s, b, axe := signedInAt(t, "alerts", "the alerts page, live",
		`/No alert is open/.test(document.getElementById("alerts-status")?.textContent) && `+liveOn, mail.flags()...)
	const to = "facilities@example.com"
	place, code := alertPlace(t, s, "Washroom, ground floor")
	rule := lowRatingsRule("Dirty washrooms", to)
	rule.LocationID = &place.ID
	if _, err := s.api.CreateAlertRule(t.Context(), rule); err != nil {
		t.Fatalf("create the rule: %v", err)
	}
	start, err := s.api.Events(t.Context(), 0, feedback.MaxEventLimit)
	if err != nil {
		t.Fatalf("events: %v", err)
	}
	b.do(chromedp.Evaluate[chromedp.Void](watchAlerts))
	turnOnSoundAndNotices(t, s, b)

	pressed, acked := sendLowRatings(t, s.base+"/q/"+code, b, 3)
	b.waitFor("the alert on the dashboard", `alertSeen > 0`, 10*time.Second)
	seen := time.UnixMilli(int64(eval[float64](b, `alertSeen`)))
	t.Logf("the alert showed on the dashboard %v after the visitor page acknowledged the third rating (%v after Send was pressed)",
		seen.Sub(acked).Round(time.Millisecond), seen.Sub(pressed).Round(time.Millisecond))
	id := strings.TrimPrefix(eval[string](b, `alertSeenID`), "alert-")
	if n := eval[int](b, activeAlerts+`.length`); n != 1 {
		t.Errorf("%d unresolved alerts show, want 1", n)
	}
	row := eval[string](b, `document.getElementById("alert-`+id+`").innerText`)
	for _, want := range []string{"Dirty washrooms", place.Name, "Open", "Acknowledge", "Resolve"} {
		if !strings.Contains(row, want) {
			t.Errorf("the alert's row does not say %q:\n%s", want, row)
		}
	}
	if got := eval[[]string](b, `shownNotices`); len(got) != 1 || got[0] != "Alert: Dirty washrooms" {
		t.Errorf("the browser notifications shown are %q, want one for the alert", got)
	}
	b.waitFor("the navigation's count", `document.getElementById("alerts-badge")?.innerText.startsWith("1")`, 10*time.Second)
	pageShots(t, b, axe, "alerts", "")

	b.do(chromedp.Click(chromedp.ID("ack-" + id)))
	b.waitFor("the alert acknowledged", `document.getElementById("alert-`+id+`")?.dataset.state === "acknowledged"`, 10*time.Second)
	checkAcknowledgedEvent(t, s, start.Next, id)

	msg := mail.wait(t, to, 20*time.Second)
	link := s.base + demoDashboard + "alerts/" + id
	if !strings.Contains(msg, link) {
		t.Errorf("the email holds no link to %s:\n%s", link, msg)
	}
	b.do(chromedp.Navigate(link))
	b.waitFor("the alert's page", `/Acknowledged by/.test(document.getElementById("alert-timeline")?.innerText)`, 30*time.Second)
	if text := b.pageText(); !strings.Contains(text, "Dirty washrooms") || !strings.Contains(text, "Triggered") {
		t.Errorf("the alert's page does not show the alert:\n%s", text)
	}
	pageShots(t, b, axe, "alert", "")
	resolveByKeyboard(t, b, id, "Cleaned, soap refilled")
	b.waitFor("the alert resolved", `/Resolved by .*Note: Cleaned, soap refilled/.test(document.getElementById("alert-timeline")?.innerText)`, 10*time.Second)
	if eval[bool](b, `!!document.getElementById("ack-`+id+`") || !!document.getElementById("resolve-`+id+`")`) {
		t.Error("a resolved alert still offers Acknowledge or Resolve")
	}
	b.waitFor("the count gone", `!document.getElementById("alerts-badge")`, 10*time.Second)
	checkOthersActions(t, s, b, axe)
}

// checkOthersActions opens the alerts page, raises a second alert
// through the API, and acknowledges it through the API as someone else:
// the alert appears and changes in place, live; resolved on the page, it
// moves to the history, which passes axe-core (screenshots). The page
// of an alert that does not exist says so; the alerts' live line goes
// with the alerts pages.
func checkOthersActions(t *testing.T, s *server, b *browser, axe string) {
	t.Helper()
	b.do(chromedp.Navigate(s.base + demoDashboard + "alerts"))
	b.waitFor("the alerts page, live", `/No alert is open/.test(document.getElementById("alerts-status")?.textContent) && `+liveOn, 30*time.Second)
	place, code := alertPlace(t, s, "Washroom, 2nd floor")
	rule := lowRatingsRule("Second floor")
	rule.LocationID = &place.ID
	if _, err := s.api.CreateAlertRule(t.Context(), rule); err != nil {
		t.Fatalf("create the rule: %v", err)
	}
	for range 3 {
		one := 1
		if _, _, err := s.api.Submit(t.Context(), code, feedback.Submission{ID: feedback.NewID(), Rating: &one}); err != nil {
			t.Fatalf("submit: %v", err)
		}
	}
	b.waitFor("the second alert", activeAlerts+`.length === 1 && /2nd floor/.test(document.getElementById("active-alerts").innerText)`, 10*time.Second)
	id := strings.TrimPrefix(eval[string](b, activeAlerts+`[0].id`), "alert-")
	if _, err := s.api.AcknowledgeAlert(t.Context(), id); err != nil {
		t.Fatalf("acknowledge: %v", err)
	}
	b.waitFor("the row acknowledged by the token", `document.getElementById("alert-`+id+`")?.dataset.state === "acknowledged" && `+
		`/Acknowledged by token:/.test(document.getElementById("alert-`+id+`").innerText)`, 10*time.Second)
	resolveByKeyboard(t, b, id, "Mopped")
	b.waitFor("the alert in the history", `!document.getElementById("alert-`+id+`") && /Resolved/.test(document.getElementById("history-`+id+`")?.innerText)`, 10*time.Second)
	b.waitFor("both alerts in the history", `document.querySelectorAll("#alert-history tbody tr").length === 2`, 10*time.Second)
	b.waitFor("the response times of both locations", `document.querySelectorAll("#alert-times tbody tr").length === 2`, 10*time.Second)
	times := eval[string](b, `document.getElementById("alert-times").innerText`)
	for _, want := range []string{"Washroom, ground floor", place.Name} {
		if !regexp.MustCompile(regexp.QuoteMeta(want) + `\s+1\s+0\s+\d+ (s|min)\s+\d+ (s|min)`).MatchString(times) {
			t.Errorf("the response times do not give %s 1 alert, 0 open and both averages:\n%s", want, times)
		}
	}
	pageShots(t, b, axe, "alerts-history", "history-title")

	b.do(chromedp.Navigate(s.base + demoDashboard + "alerts/" + feedback.NewID()))
	b.waitFor("an unknown alert said so", `/no such alert/.test(document.getElementById("alert-status")?.textContent)`, 30*time.Second)
	b.do(chromedp.Click(chromedp.ID("nav-hygiene")))
	b.waitFor("the hygiene page without the alerts' live line", `!!document.getElementById("hygiene-status") && document.getElementById("live-status").textContent === ""`, 10*time.Second)
}

// alertPlace makes a location of its own, which the demo's ratings
// (random, the latest at the server's start) do not reach, with a
// hygiene poster, and returns it and the poster's code.
func alertPlace(t *testing.T, s *server, name string) (loc *feedback.Location, code string) {
	t.Helper()
	loc, err := s.api.CreateLocation(t.Context(), name, "")
	if err != nil {
		t.Fatalf("create a location: %v", err)
	}
	p, err := s.api.CreatePoster(t.Context(), loc.ID, feedback.PosterInput{FormRef: feedback.FormRef{Form: feedback.FormHygiene}, Label: "Door"})
	if err != nil {
		t.Fatalf("create a poster: %v", err)
	}
	return loc, p.Code
}

// turnOnSoundAndNotices turns on the sound and the browser
// notifications, the permission granted through the DevTools protocol
// for the page's origin, and records each notification the page shows
// in window.shownNotices (a subclass of the browser's Notification).
func turnOnSoundAndNotices(t *testing.T, s *server, b *browser) {
	t.Helper()
	b.do(chromedp.Click(chromedp.ID("alert-sound")))
	b.waitFor("the sound on", `/A sound plays/.test(document.getElementById("prefs-status").textContent) && localStorage.getItem("alerts.sound") === "true"`, 10*time.Second)
	if eval[string](b, `Notification.permission`) != "default" {
		t.Errorf("the page asked for the notification permission before the click: %s", eval[string](b, `Notification.permission`))
	}
	if _, err := chromedp.Call(b.ctx, cdpbrowser.SetPermission, cdpbrowser.SetPermissionParams{
		Permission: &cdpbrowser.PermissionDescriptor{Name: "notifications"}, Setting: cdpbrowser.PermissionSettingGranted, Origin: s.base}); err != nil {
		t.Fatalf("Browser.setPermission: %v", err)
	}
	b.do(chromedp.Evaluate[chromedp.Void](`window.shownNotices = [];
  window.Notification = class extends Notification { constructor(title, opts) { super(title, opts); shownNotices.push(title); } };`))
	b.do(chromedp.Click(chromedp.ID("alert-notify")))
	b.waitFor("the notifications on", `/shows a notification/.test(document.getElementById("prefs-status").textContent) && document.getElementById("alert-notify").checked`, 10*time.Second)
}

// sendLowRatings sends n ratings of 1 on the hygiene visitor page at
// url, in a tab of b's browser, and returns when the page acknowledged
// the last.
func sendLowRatings(t *testing.T, url string, b *browser, n int) (pressed, acked time.Time) {
	t.Helper()
	v := newTab(b)
	for i := range n {
		v.do(chromedp.Navigate(url))
		v.waitWasm()
		fillHygiene(v, 1, fmt.Sprintf("Dirty, report %d", i+1))
		v.do(chromedp.Evaluate[chromedp.Void](watchSent))
		v.do(chromedp.Click(chromedp.CSS(submitButton)))
		v.waitText(i18n.T("en", "sent"), 20*time.Second)
		pressed, acked = time.UnixMilli(int64(eval[float64](v, `pressedAt`))), time.UnixMilli(int64(eval[float64](v, `sentAt`)))
	}
	return pressed, acked
}

// watchSent records in the visitor page when it first says that the
// feedback was sent (the server's acknowledgement), window.sentAt, and
// when Send was pressed, window.pressedAt (each a Date.now).
var watchSent = `(() => {
  window.sentAt = 0; window.pressedAt = 0;
  document.addEventListener("click", () => { if (!pressedAt) pressedAt = Date.now(); }, true);
  const look = () => { if (!sentAt && document.body.innerText.includes(` + jsString(i18n.T("en", "sent")) + `)) sentAt = Date.now(); };
  new MutationObserver(look).observe(document.body, {childList: true, subtree: true, characterData: true});
})()`

// checkAcknowledgedEvent reads the events after position after until
// alert.acknowledged of alert id shows, naming who acknowledged it.
func checkAcknowledgedEvent(t *testing.T, s *server, after int64, id string) {
	t.Helper()
	var types []string
	waitUntil(t, "the alert.acknowledged event", 10*time.Second, func() bool {
		list, err := s.api.Events(t.Context(), after, feedback.MaxEventLimit)
		if err != nil {
			t.Fatalf("events: %v", err)
		}
		types = types[:0]
		for _, ev := range list.Data {
			types = append(types, ev.Type)
			var a feedback.Alert
			if ev.Type == feedback.EventAlertAcknowledged && json.Unmarshal(ev.Data, &a) == nil && a.ID == id {
				if a.AcknowledgedBy == nil || *a.AcknowledgedBy != opEmail {
					t.Errorf("acknowledged by %v, want %s", a.AcknowledgedBy, opEmail)
				}
				return true
			}
		}
		return false
	})
	t.Logf("events after the rule: %v", types)
}

// resolveByKeyboard resolves alert id with a note by keyboard: Enter on
// Resolve moves the focus to the note, Tab goes on to the button that
// resolves.
func resolveByKeyboard(t *testing.T, b *browser, id, note string) {
	t.Helper()
	b.do(chromedp.Focus(chromedp.ID("resolve-"+id)), chromedp.KeyEvent(kb.Enter))
	b.waitFor("the note focused", `document.activeElement?.id === "note-`+id+`"`, 10*time.Second)
	b.do(chromedp.KeyEvent(note), chromedp.KeyEvent("\t"))
	if got := eval[string](b, `document.activeElement?.id`); got != "resolve-yes-"+id {
		t.Fatalf("Tab after the note focuses %q, want the button that resolves", got)
	}
	b.do(chromedp.KeyEvent(kb.Enter))
}

// openAlert raises an alert through the API: a rule at a location of
// its own, and three ratings of 1 there. It returns the alert's id once
// the rule raised it.
func openAlert(t *testing.T, s *server) string {
	t.Helper()
	place, code := alertPlace(t, s, "Washroom, basement")
	rule := lowRatingsRule("Basement washroom")
	rule.LocationID = &place.ID
	r, err := s.api.CreateAlertRule(t.Context(), rule)
	if err != nil {
		t.Fatalf("create an alert rule: %v", err)
	}
	for range 3 {
		one := 1
		if _, _, err := s.api.Submit(t.Context(), code, feedback.Submission{ID: feedback.NewID(), Rating: &one}); err != nil {
			t.Fatalf("submit: %v", err)
		}
	}
	var id string
	waitUntil(t, "the rule's alert", 10*time.Second, func() bool {
		page, err := s.api.Alerts(t.Context(), allPages, feedback.AlertFilter{RuleID: r.ID})
		if err != nil {
			t.Fatalf("alerts: %v", err)
		}
		if len(page.Data) > 0 {
			id = page.Data[0].ID
		}
		return id != ""
	})
	return id
}
