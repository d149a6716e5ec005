package e2e_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"

	"github.com/feedbackhq/feedback/shared/client"
	"github.com/feedbackhq/feedback/shared/feedback"
	"github.com/feedbackhq/feedback/shared/i18n"
)

// The dashboard's live overview (app/dashboard): the elements the tests
// read.
const (
	liveOn    = `document.getElementById("live-status")?.classList.contains("live-on")`
	feedItems = `document.querySelectorAll("#feed li")`
)

// openLiveOverview signs the test user in on b and waits until the demo's
// overview shows its feedback and its stream is live.
func openLiveOverview(b *browser, s *server) {
	b.t.Helper()
	b.do(chromedp.Navigate(s.base + "/auth/login?return_to=" + demoDashboard))
	providerLogin(b)
	b.waitFor("the overview, live, with the demo's feedback", liveOn+` && `+feedItems+`.length > 0`, 60*time.Second)
}

// watchFeed records in the page when each item first shows in the feed
// (go-app reuses the list's elements, so an item shows when an element
// takes its id): window.feedSeen maps an item's element id to the time
// (Date.now) and its text.
const watchFeed = `(() => {
  window.feedSeen = {};
  const look = () => { for (const li of document.querySelectorAll("#feed li")) if (!(li.id in feedSeen)) feedSeen[li.id] = {at: Date.now(), text: li.innerText}; };
  look();
  new MutationObserver(look).observe(document.getElementById("feed"), {childList: true, subtree: true, attributes: true, characterData: true});
})()`

// seenItem is an item the page recorded.
type seenItem struct {
	At   float64 `json:"at"`
	Text string  `json:"text"`
}

// itemsWith returns the ids of the feed's items whose text holds s.
func itemsWith(b *browser, s string) []string {
	b.t.Helper()
	return eval[[]string](b, `[...document.querySelectorAll("#feed li")].filter((li) => li.innerText.includes(`+jsString(s)+`)).map((li) => li.id)`)
}

// newTab opens another tab in b's browser context (same cookies).
func newTab(b *browser) *browser {
	b.t.Helper()
	ctx, cancel := chromedp.NewContext(b.ctx)
	b.t.Cleanup(cancel)
	return &browser{t: b.t, ctx: ctx, workers: map[target.ID]context.Context{}}
}

// TestDashboardLive: with the overview open, a hygiene report sent on a
// visitor page appears at the top of the feed within a second, marked as
// new, once, and today's count at its location goes up; a kiosk that
// comes online shows so with its queue. The overview is
// then checked at a phone's and a desktop's size (screenshots, axe-core,
// fitting the width) and by keyboard.
func TestDashboardLive(t *testing.T) {
	needBrowser(t)
	axe := axeScript(t)
	t.Parallel()
	s := startSignInServer(t)
	sendHygiene(t, s, 60, "Earlier report") // more than a page: the feed offers older ones
	b := newBrowser(t)
	b.do(chromedp.EmulateViewport(1280, 800))
	openLiveOverview(b, s)
	loc := s.locationID(hygieneLocation)
	todayCount := `(document.querySelector('#today tr[data-location="` + loc + `"] td')?.textContent ?? "0").split(" ")[0]`
	b.waitFor("today's counts", `document.getElementById("today") || document.getElementById("today-none")`, 10*time.Second)
	before := eval[string](b, todayCount)
	b.do(chromedp.Evaluate[chromedp.Void](watchFeed))

	v := newTab(b)
	v.do(chromedp.Navigate(s.visitorURL(feedback.FormHygiene)))
	v.waitWasm()
	comment := fmt.Sprintf("Live from the visitor page %d", time.Now().UnixNano())
	fillHygiene(v, 2, comment)
	sent := time.Now()
	v.do(chromedp.Click(chromedp.CSS(submitButton)))
	v.waitText(i18n.T("en", "sent"), 20*time.Second)

	b.waitFor("the report in the feed", `Object.values(feedSeen).some((s) => s.text.includes(`+jsString(comment)+`))`, 10*time.Second)
	seen := eval[map[string]seenItem](b, `feedSeen`)
	for _, item := range seen {
		if strings.Contains(item.Text, comment) {
			after := time.UnixMilli(int64(item.At)).Sub(sent)
			t.Logf("the report showed on the overview %v after the visitor pressed Send", after.Round(time.Millisecond))
			if after > time.Second {
				t.Errorf("the report showed %v after it was sent, want within 1 s", after)
			}
		}
	}
	if ids := itemsWith(b, comment); len(ids) != 1 {
		t.Errorf("the report shows %d times in the feed, want once", len(ids))
	}
	top := eval[string](b, `document.querySelector("#feed li")?.innerText ?? ""`)
	if !strings.Contains(top, comment) || !strings.Contains(top, "New") || !strings.Contains(top, "Rated 2 of 5") {
		t.Errorf("the first item of the feed reads %q; want the new report, marked New, rated 2", top)
	}
	b.waitFor("today's count to go up", todayCount+` === String(`+jsString(before)+` - 0 + 1)`, 10*time.Second)

	// A kiosk's first heartbeat (kiosk.online) shows it online, with its queue.
	kiosk := client.New(s.base, "")
	pairing, err := kiosk.Pair(t.Context(), s.pairingCode(feedback.DefaultKioskTiming))
	if err != nil {
		t.Fatalf("pair a kiosk: %v", err)
	}
	kiosk.Token = pairing.Credential
	if err := kiosk.Heartbeat(t.Context(), feedback.Heartbeat{QueueDepth: 2, AppVersion: "e2e"}); err != nil {
		t.Fatalf("heartbeat: %v", err)
	}
	b.waitFor("the kiosk online with its queue", `(() => { const r = document.querySelector('#kiosks tr[data-kiosk="`+pairing.Kiosk.ID+
		`"]'); return !!r && r.innerText.includes("Online") && r.querySelectorAll("td")[1].textContent === "2"; })()`, 10*time.Second)

	shoot(t, b, "overview-1280")
	checkA11y(t, b, axe, "overview at 1280 px")
	checkKeyboard(t, b)

	// Enter on Show older (focused by the keyboard check) pages in the
	// next older items, each once.
	n := eval[int](b, feedItems+`.length`)
	b.do(chromedp.KeyEvent("\r"))
	b.waitFor("older feedback", fmt.Sprintf(`%s.length > %d`, feedItems, n), 10*time.Second)
	ids := eval[[]string](b, `[...document.querySelectorAll("#feed li")].map((li) => li.id)`)
	if len(slices.Compact(slices.Sorted(slices.Values(ids)))) != len(ids) {
		t.Errorf("the feed shows an item twice after Show older: %v", ids)
	}
	b.phone()
	b.waitFor("the phone layout", `document.documentElement.clientWidth === 390`, 5*time.Second)
	b.do(chromedp.Evaluate[chromedp.Void](`document.activeElement.blur(); window.scrollTo(0, 0)`))
	shoot(t, b, "overview-390")
	checkFits(t, b, "overview at 390 px")
	checkA11y(t, b, axe, "overview at 390 px")
}

// sendHygiene stores n hygiene reports with comments "prefix i" through
// the API, as visitors would.
func sendHygiene(t *testing.T, s *server, n int, prefix string) []string {
	t.Helper()
	var comments []string
	for i := range n {
		c, rating := fmt.Sprintf("%s %d", prefix, i), 1+i%5
		_, _, err := s.api.Submit(t.Context(), s.codes[feedback.FormHygiene], feedback.Submission{ID: feedback.NewID(), Rating: &rating, Comment: &c})
		if err != nil {
			t.Fatalf("submit: %v", err)
		}
		comments = append(comments, c)
	}
	return comments
}

// shoot saves a screenshot of what the screen shows in shotsDir as name.png.
func shoot(t *testing.T, b *browser, name string) {
	t.Helper()
	png, err := chromedp.Run(b.ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	saveShot(t, name, png)
}

// checkKeyboard tabs through the overview from its heading and checks
// that the filters and the Show older button take the focus, in that
// order, after the navigation.
func checkKeyboard(t *testing.T, b *browser) {
	t.Helper()
	b.do(chromedp.Evaluate[chromedp.Void](`document.body.focus(); window.scrollTo(0, 0)`))
	var order []string
	for range 40 {
		if _, err := chromedp.Run(b.ctx, chromedp.KeyEvent("\t")); err != nil {
			t.Fatalf("tab: %v", err)
		}
		id := eval[string](b, `document.activeElement?.id || document.activeElement?.tagName || ""`)
		if id == "show-older" {
			order = append(order, id)
			break
		}
		if id != "" && !slices.Contains(order, id) {
			order = append(order, id)
		}
	}
	want := []string{"sign-out", "nav-overview", "nav-security", "filter-location", "filter-kind", "show-older"}
	at := 0
	for _, id := range order {
		if at < len(want) && id == want[at] {
			at++
		}
	}
	if at != len(want) {
		t.Errorf("tabbing reached %v; want %v in that order", order, want)
	}
}

// TestDashboardRevoked: revoking the overview's session from another
// device closes its stream, and the open overview shows at once that it
// is signed out.
func TestDashboardRevoked(t *testing.T) {
	needBrowser(t)
	t.Parallel()
	s := startSignInServer(t)
	b := newBrowser(t)
	phone := signInElsewhere(t, b, s)
	openLiveOverview(b, s)

	status := eval[int](phone, `fetch("/api/v1/sessions").then((r) => r.json()).then((p) =>
	  fetch("/api/v1/sessions/" + p.data.find((s) => !s.current).id, {method: "DELETE"})).then((r) => r.status)`)
	if status != 204 {
		t.Fatalf("revoking the overview's session from the phone: %d", status)
	}
	b.waitFor("the overview to say it is signed out",
		`document.getElementById("signed-out")?.textContent.includes("session has ended") && `+signInLink, 15*time.Second)
	if eval[bool](b, `!!document.getElementById("feed")`) {
		t.Error("the feed is still shown after the session ended")
	}
}

// TestDashboardReconnects: offline the overview says so and is live again
// once online; while the server is down it says it is reconnecting, and
// once the server is back it resumes where it left off: feedback stored
// before it reconnected — sent through the API, and queued by a kiosk
// while the server was down — shows, each piece once.
func TestDashboardReconnects(t *testing.T) {
	needBrowser(t)
	t.Parallel()
	s := startSignInServer(t)
	b := newBrowser(t)
	openLiveOverview(b, s)
	before := eval[int](b, feedItems+`.length`)

	b.goOffline()
	b.waitFor("the overview to say it is offline", `document.getElementById("live-status")?.classList.contains("live-offline")`, 10*time.Second)
	b.goOnline()
	b.waitFor("the overview to be live again", liveOn, 30*time.Second)

	// A kiosk, paired before the server goes down, queues two reports
	// while it is down and sends them once it is back.
	k := newBrowser(t)
	pairKiosk(k, s, s.base, feedback.KioskTiming{ResetSeconds: 2, IdleSeconds: 30, IntervalSeconds: 0})
	k.waitWorkerActive()
	known := s.hygieneIDs()

	s.stop()
	b.waitFor("the overview to say it is reconnecting",
		`document.getElementById("live-status")?.classList.contains("live-retrying")`, 30*time.Second)
	for _, rating := range []int{4, 1} {
		kioskSubmit(k, rating)
		k.waitFor("the attract screen", attractScreen, 15*time.Second)
	}
	k.waitQueue(2, 10*time.Second)
	s.restart(env.webA)
	comments := sendHygiene(t, s, 2, "Sent while the overview reconnected")
	queued := s.waitNewHygiene(known, 4, 90*time.Second) // the two above and the kiosk's two
	b.waitFor("the overview to be live again with the four reports",
		liveOn+` && `+fmt.Sprintf(`%s.length >= %d`, feedItems, before+4), 60*time.Second)
	for _, c := range comments {
		if ids := itemsWith(b, c); len(ids) != 1 {
			t.Errorf("%q shows %d times, want once", c, len(ids))
		}
	}
	for _, h := range queued {
		if n := eval[int](b, `document.querySelectorAll("#item-`+h.ID+`").length`); n != 1 {
			t.Errorf("the report %s (from %s) shows %d times, want once", h.ID, h.Source, n)
		}
	}
	ids := eval[[]string](b, `[...document.querySelectorAll("#feed li")].map((li) => li.id)`)
	if len(slices.Compact(slices.Sorted(slices.Values(ids)))) != len(ids) {
		t.Errorf("the feed shows an item twice: %v", ids)
	}
}
