package e2e_test

import (
	"context"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/feedbackhq/feedback/shared/feedback"
	"github.com/feedbackhq/feedback/shared/i18n"
)

// kioskPIN is the exit PIN the tests pair kiosks with.
const kioskPIN = "2468"

// Kiosk screens, by an element only they show.
const (
	attractScreen = `!!document.getElementById("kiosk-start")`
	formScreen    = `!!document.getElementById("feedback-form")`
	adminScreen   = `!!document.getElementById("kiosk-pending")`
)

// pairKiosk opens /kiosk at origin (the server's or a proxy's), pairs it
// to the demo's hygiene form with a fresh pairing code, and waits for the
// attract screen.
func pairKiosk(b *browser, s *server, origin string, timing feedback.KioskTiming) {
	b.t.Helper()
	code := s.pairingCode(timing)
	b.do(chromedp.Navigate(origin + "/kiosk"))
	b.waitFor("the pairing form", `!!document.getElementById("pair-code")`, 60*time.Second)
	b.do(chromedp.SendKeys(chromedp.ID("pair-code"), code),
		chromedp.SendKeys(chromedp.ID("pair-pin"), kioskPIN),
		chromedp.Click(chromedp.CSS(`#pair-form button[type=submit]`)))
	b.waitFor("the attract screen after pairing", attractScreen, 30*time.Second)
}

// kioskSubmit starts the form, rates, submits, and waits for the
// thank-you screen. It returns the time just before the submit.
func kioskSubmit(b *browser, rating int) (submitted time.Time) {
	b.t.Helper()
	b.do(chromedp.Click(chromedp.ID("kiosk-start")))
	b.waitFor("the kiosk form", formScreen, 10*time.Second)
	b.do(chromedp.Click(chromedp.CSS(`label[for="rating-` + strconv.Itoa(rating) + `"]`)))
	submitted = time.Now()
	b.do(chromedp.Click(chromedp.CSS(submitButton)))
	b.waitText(i18n.T("en", "thanks_title"), 10*time.Second)
	return submitted
}

// TestKiosk pairs a kiosk and walks it through a visitor's submission and
// auto-reset, an abandoned form's idle reset, the exit PIN, an offline
// submission, an offline reload, and the sync once back online.
func TestKiosk(t *testing.T) {
	needBrowser(t)
	t.Parallel()
	s, b := startServer(t), newBrowser(t)
	b.recordRequests()
	before := s.hygieneIDs()
	pairKiosk(b, s, s.base, feedback.KioskTiming{ResetSeconds: 2, IdleSeconds: 6, IntervalSeconds: 0})

	// A visitor submits; the thank-you screen resets by itself.
	submitted := kioskSubmit(b, 5)
	b.waitFor("the attract screen after the thank-you", attractScreen, 15*time.Second)
	after := time.Since(submitted)
	t.Logf("back to the attract screen %v after the submit (reset_seconds 2)", after.Round(100*time.Millisecond))
	if after < 1900*time.Millisecond {
		t.Errorf("the thank-you screen went after %v, want 2s", after)
	}
	got := s.waitNewHygiene(before, 1, 30*time.Second)[0]
	if got.Rating != 5 || got.Source != feedback.SourceKiosk {
		t.Errorf("stored %+v, want rating 5 from the kiosk", got)
	}
	before[got.ID] = true

	// A visitor walks away from a half-filled form: it is discarded.
	b.do(chromedp.Click(chromedp.ID("kiosk-start")))
	b.waitFor("the kiosk form", formScreen, 10*time.Second)
	touched := time.Now()
	b.do(chromedp.Click(chromedp.CSS(`label[for="rating-1"]`)))
	b.waitFor("the idle reset", attractScreen, 30*time.Second)
	idle := time.Since(touched)
	t.Logf("an abandoned form went back to the attract screen %v after the last tap (idle_seconds 6)", idle.Round(100*time.Millisecond))
	if idle < 5900*time.Millisecond {
		t.Errorf("the idle reset came after %v, want about 6s", idle)
	}
	if q := b.queue(); q.Pending != 0 || q.Dead != 0 {
		t.Errorf("the abandoned form left %+v in the outbox", q)
	}
	s.checkNewHygiene(before, 0, "after an abandoned form")

	// The way out needs the exit PIN.
	b.do(chromedp.Click(chromedp.ID("kiosk-exit")))
	b.waitFor("the PIN form", `!!document.getElementById("exit-pin")`, 10*time.Second)
	b.do(chromedp.SendKeys(chromedp.ID("exit-pin"), "1357"), chromedp.Click(chromedp.CSS(`#pin-form button[type=submit]`)))
	b.waitText(i18n.T("en", "kiosk_pin_wrong"), 10*time.Second)
	if eval[bool](b, adminScreen) {
		t.Fatal("a wrong PIN opened the admin screen")
	}
	b.do(chromedp.Evaluate[chromedp.Void](`document.getElementById("exit-pin").value = ""`),
		chromedp.SendKeys(chromedp.ID("exit-pin"), kioskPIN), chromedp.Click(chromedp.CSS(`#pin-form button[type=submit]`)))
	b.waitFor("the admin screen", adminScreen, 10*time.Second)
	if got := eval[string](b, `document.getElementById("kiosk-pending").textContent`); got != "0" {
		t.Errorf("the admin screen shows %q pending, want 0", got)
	}
	b.do(chromedp.Click(chromedp.ID("kiosk-resume")))
	b.waitFor("the attract screen", attractScreen, 10*time.Second)

	// Offline, a submission waits on the device, also across a reload
	// that only the service worker can answer.
	b.waitWorkerActive()
	cutOff(b, s)
	kioskSubmit(b, 2)
	b.waitFor("the attract screen", attractScreen, 15*time.Second)
	b.waitText(i18n.Tf("en", "kiosk_pending", 1), 10*time.Second)
	b.waitQueue(1, 10*time.Second)

	b.do(chromedp.Reload()) // offline: only the service worker can answer
	b.waitFor("the attract screen after an offline reload", attractScreen, 60*time.Second)
	b.waitText(i18n.Tf("en", "kiosk_pending", 1), 10*time.Second)
	if q := b.queue(); q.Pending != 1 || q.Dead != 0 {
		t.Fatalf("after the offline reload the outbox holds %+v, want 1 pending", q)
	}

	// Online again, the kiosk syncs it, once.
	reconnect(b, s)
	synced := s.waitNewHygiene(before, 1, 60*time.Second)[0]
	if synced.Rating != 2 || synced.Source != feedback.SourceKiosk {
		t.Errorf("stored %+v, want rating 2 from the kiosk", synced)
	}
	b.waitQueue(0, 30*time.Second)
	b.waitText(i18n.Tf("en", "kiosk_pending", 0), 10*time.Second)
	if n := b.requested("POST " + s.base + "/kiosk/sync"); n == 0 {
		t.Error("no POST /kiosk/sync was seen")
	}
	s.checkNewHygiene(before, 1, "once the queue drained")
}

// TestAppUpdateKeepsQueue deploys a new app build while a kiosk holds
// submissions it could not send: the kiosk updates itself, and the new
// version delivers them, each exactly once. The browser reaches the
// server through a proxy that holds the kiosk sync back until the update
// has landed.
func TestAppUpdateKeepsQueue(t *testing.T) {
	needBrowser(t)
	t.Parallel()
	s, b := startServer(t), newBrowser(t)
	p := startProxy(t, s)
	b.recordRequests()
	pairKiosk(b, s, p.base, feedback.KioskTiming{ResetSeconds: 1, IdleSeconds: 60, IntervalSeconds: 0})
	b.waitServiceWorker()
	b.waitFor("the attract screen", attractScreen, 30*time.Second)
	if v := eval[string](b, `goappGetenv("GOAPP_VERSION")`); v != env.versionA {
		t.Fatalf("the kiosk runs version %q, want %q", v, env.versionA)
	}
	before := s.hygieneIDs()

	// Offline, two visitors submit: the kiosk queues them.
	p.blockSync.Store(true)
	b.goOffline()
	for _, rating := range []int{1, 4} {
		kioskSubmit(b, rating)
		b.waitFor("the attract screen", attractScreen, 15*time.Second)
	}
	b.waitQueue(2, 10*time.Second)

	// Deploy build B and come back online: the kiosk tries to sync at
	// once and is refused, so the submissions wait for the update.
	s.restart(env.webB)
	sync := "POST " + p.base + "/kiosk/sync"
	tried := b.requested(sync)
	b.goOnline()
	waitUntil(t, "a sync attempt after the online event", 10*time.Second, func() bool { return b.requested(sync) > tried })
	b.waitQueue(2, 10*time.Second)

	// Ask for the update as the 15-minute timer of the kiosk would: the
	// new service worker activates, go-app calls OnAppUpdate, and the idle
	// kiosk reloads itself into build B.
	b.do(chromedp.Evaluate[chromedp.Void](`window.oldVersion = true`))
	asked := time.Now()
	b.do(chromedp.Evaluate[chromedp.Void](`navigator.serviceWorker.getRegistration().then((r) => r.update())`, chromedp.EvalAwaitPromise))
	b.waitFor("the kiosk to reload into the new version",
		`!window.oldVersion && goappGetenv("GOAPP_VERSION") === `+jsString(env.versionB)+` && `+attractScreen, 60*time.Second)
	t.Logf("the kiosk reloaded into the new build %v after the update check", time.Since(asked).Round(100*time.Millisecond))
	if keys := eval[[]string](b, `caches.keys()`); !slices.Equal(keys, []string{"app-" + env.versionB}) {
		t.Errorf("service worker caches %q, want only the new build's", keys)
	}
	b.waitQueue(2, 10*time.Second)
	s.checkNewHygiene(before, 0, "while the sync was held back")

	// The new version delivers what the old one queued.
	p.blockSync.Store(false)
	got := s.waitNewHygiene(before, 2, 60*time.Second)
	b.waitQueue(0, 30*time.Second)
	checkDelivered(t, got, feedback.SourceKiosk, func(h feedback.HygieneSubmission) int { return h.Rating }, []int{1, 4})
	s.checkNewHygiene(before, 2, "once the queue drained")
}

// TestKioskHeartbeat: a paired kiosk reports itself alive with its app
// version, so the dashboard's kiosk list shows it online.
func TestKioskHeartbeat(t *testing.T) {
	needBrowser(t)
	t.Parallel()
	s, b := startServer(t), newBrowser(t)
	pairKiosk(b, s, s.base, feedback.DefaultKioskTiming)
	version := eval[string](b, `goappGetenv("GOAPP_VERSION")`)
	deadline := time.Now().Add(20 * time.Second)
	for {
		var page feedback.Page[feedback.Kiosk]
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		_, err := s.api.Do(ctx, "GET", "/api/v1/kiosks", nil, &page)
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		if len(page.Data) == 1 && page.Data[0].Online && page.Data[0].LastSeenAt != nil {
			if k := page.Data[0]; k.AppVersion != version || version == "" || k.QueueDepth != 0 {
				t.Errorf("heartbeat reported version %q, depth %d; want %q and 0", k.AppVersion, k.QueueDepth, version)
			}
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("no heartbeat within 20 s: %+v", page.Data)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// TestKioskFitsNarrowScreen runs a kiosk on a screen 390 px wide: the
// attract screen and the form fit it, language buttons included, and the
// staff screens do not offer the way to themselves.
func TestKioskFitsNarrowScreen(t *testing.T) {
	needBrowser(t)
	t.Parallel()
	s, b := startServer(t), newBrowser(t)
	b.phone()
	pairKiosk(b, s, s.base, feedback.KioskTiming{ResetSeconds: 60, IdleSeconds: 120, IntervalSeconds: 0})
	checkFits(t, b, "kiosk attract")
	b.do(chromedp.Click(chromedp.ID("kiosk-start")))
	b.waitFor("the kiosk form", formScreen, 10*time.Second)
	checkFits(t, b, "kiosk form")

	staffButton := `!!document.getElementById("kiosk-exit")`
	b.do(chromedp.Click(chromedp.ID("kiosk-exit")))
	b.waitFor("the PIN form", `!!document.getElementById("exit-pin")`, 10*time.Second)
	if eval[bool](b, staffButton) {
		t.Error("the PIN screen offers the Staff button")
	}
	b.do(chromedp.SendKeys(chromedp.ID("exit-pin"), kioskPIN), chromedp.Click(chromedp.CSS(`#pin-form button[type=submit]`)))
	b.waitFor("the admin screen", adminScreen, 10*time.Second)
	if eval[bool](b, staffButton) {
		t.Error("the admin screen offers the Staff button")
	}
	checkFits(t, b, "kiosk admin")
}
