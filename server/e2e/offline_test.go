package e2e_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/feedbackhq/feedback/shared/feedback"
	"github.com/feedbackhq/feedback/shared/i18n"
)

// againButton is the outcome screen's "Give more feedback" button.
const againButton = `section.message button`

// openHygieneForm starts a server and a browser for t, opens the demo's
// hygiene form and waits for the wasm. before holds the ids of the
// hygiene submissions the server had.
func openHygieneForm(t *testing.T) (s *server, b *browser, before map[string]bool) {
	t.Helper()
	s, b = startServer(t), newBrowser(t)
	before = s.hygieneIDs()
	b.do(chromedp.Navigate(s.visitorURL(feedback.FormHygiene)))
	b.waitWasm()
	return s, b, before
}

// TestOfflineQueueDeliversExactlyOnce queues three submissions offline,
// reloads the page offline from the service worker, and expects the
// three on the server exactly once after the browser is back online.
func TestOfflineQueueDeliversExactlyOnce(t *testing.T) {
	needBrowser(t)
	t.Parallel()
	s, b, before := openHygieneForm(t)
	b.waitServiceWorker()
	cutOff(b, s)

	var comments []string
	for i := 1; i <= 3; i++ {
		comments = append(comments, fmt.Sprintf("queued offline %d", i))
		fillHygiene(b, i, comments[i-1])
		b.do(chromedp.Click(chromedp.CSS(submitButton)))
		b.waitText(i18n.T("en", "saved"), 10*time.Second)
		b.waitText(i18n.Tf("en", "waiting", i), 10*time.Second)
		b.do(chromedp.Click(chromedp.CSS(againButton)))
		b.waitFor("a fresh form", `!!document.getElementById("feedback-form") && document.getElementById("field-comment").value === ""`, 10*time.Second)
	}
	b.waitQueue(3, 10*time.Second)

	b.do(chromedp.Reload()) // offline: only the service worker can answer
	b.waitWasm()
	if q := b.queue(); q.Pending != 3 || q.Dead != 0 {
		t.Fatalf("after the offline reload the outbox holds %+v, want 3 pending", q)
	}

	reconnect(b, s)
	got := s.waitNewHygiene(before, 3, 60*time.Second)
	b.waitQueue(0, 30*time.Second)
	checkDelivered(t, got, feedback.SourceQR, func(h feedback.HygieneSubmission) string { return h.Comment }, comments)
	s.checkNewHygiene(before, 3, "once the queue drained")
}

// TestFirstVisitReloadsOffline opens a poster's page exactly once and
// loses the network: that page was loaded before the service worker
// existed, so the worker never saw it. A submission made offline waits;
// the page reloads offline with its form and the count of what waits,
// the wasm does not crash, and the submission arrives exactly once when
// the network is back.
func TestFirstVisitReloadsOffline(t *testing.T) {
	needBrowser(t)
	t.Parallel()
	s, b, before := openHygieneForm(t)
	b.waitWorkerActive()
	if eval[bool](b, `!!navigator.serviceWorker.controller`) {
		t.Fatal("the first visit is controlled by the service worker; the test needs the first visit")
	}
	cutOff(b, s)
	comment := "first visit, then offline"
	fillHygiene(b, 2, comment)
	b.do(chromedp.Click(chromedp.CSS(submitButton)))
	b.waitText(i18n.T("en", "saved"), 10*time.Second)
	b.waitQueue(1, 10*time.Second)

	b.do(chromedp.Reload()) // offline: only the service worker can answer
	b.waitWasm()
	b.waitFor("the form after the offline reload", formShown, 30*time.Second)
	b.waitText(i18n.Tf("en", "waiting", 1), 10*time.Second)
	if console := b.consoleText(); strings.Contains(console, "panic") {
		t.Errorf("the wasm crashed after the offline reload:\n%s", console)
	}
	if !eval[bool](b, `fetch("/web/icon.svg").then((r) => r.ok, () => false)`) {
		t.Error("/web/icon.svg is not served offline")
	}

	reconnect(b, s)
	got := s.waitNewHygiene(before, 1, 60*time.Second)[0]
	b.waitQueue(0, 30*time.Second)
	if got.Comment != comment || got.Rating != 2 {
		t.Errorf("stored %+v, want rating 2, comment %q", got, comment)
	}
	s.checkNewHygiene(before, 1, "once the queue drained")
}

// formShown is true when the page shows the visitor form.
const formShown = `!!document.querySelector("#feedback-form button[type=submit]")`

// TestServerOutageIsNotOffline stops the server while the browser stays
// online: the submission waits on the device, and the queue's own timer
// delivers it once the server is back, without any online event.
func TestServerOutageIsNotOffline(t *testing.T) {
	needBrowser(t)
	t.Parallel()
	s, b, before := openHygieneForm(t)
	b.do(chromedp.Evaluate[chromedp.Void](`window.onlineEvents = 0; window.addEventListener("online", () => window.onlineEvents++)`))

	s.stop()
	comment := "sent during an outage"
	fillHygiene(b, 3, comment)
	b.do(chromedp.Click(chromedp.CSS(submitButton)))
	b.waitText(i18n.T("en", "saved"), 10*time.Second)
	b.waitText(i18n.Tf("en", "waiting", 1), 10*time.Second)

	s.restart(env.webA)
	back := time.Now()
	got := s.waitNewHygiene(before, 1, 60*time.Second)[0]
	delay := time.Since(back)
	t.Logf("outage: the queued submission arrived %v after the server came back", delay.Round(100*time.Millisecond))
	if got.Comment != comment || got.Rating != 3 {
		t.Errorf("stored %+v, want rating 3, comment %q", got, comment)
	}
	b.waitText(i18n.T("en", "sent"), 10*time.Second)
	if n := eval[int](b, `window.onlineEvents`); n != 0 || !eval[bool](b, `navigator.onLine`) {
		t.Errorf("the browser saw %d online events (navigator.onLine %v); the outage must not look like offline",
			n, eval[bool](b, `navigator.onLine`))
	}
}
