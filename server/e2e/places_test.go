package e2e_test

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/feedbackhq/feedback/shared/client"
	"github.com/feedbackhq/feedback/shared/feedback"
)

// TestDashboardPlaces manages a location as a person would in the
// dashboard: creates one (after a refused empty name), makes a poster
// there whose PDF link answers a PDF, pairs a kiosk with the code the
// page shows and sees it online, then deletes the location after a
// confirmation that says what it revokes. Each page passes axe-core and
// fits a desktop's and a phone's screen.
func TestDashboardPlaces(t *testing.T) {
	s, b, axe := signedInAt(t, "locations", "the locations",
		`document.querySelectorAll("#locations tbody tr").length > 0`)

	b.do(chromedp.Click(chromedp.ID("create-location")))
	b.waitFor("the reason the empty name is refused", `!!document.getElementById("new-location-name-error")`, 10*time.Second)
	if got := eval[string](b, `document.getElementById("new-location-name-error").textContent`); !strings.HasPrefix(got, "Name ") {
		t.Errorf("the refused name reads %q, want the service's reason for the name", got)
	}
	name := "E2E Atrium"
	b.do(chromedp.SendKeys(chromedp.ID("new-location-name"), name), chromedp.Click(chromedp.ID("create-location")))
	row := `[...document.querySelectorAll("#locations tbody tr")].find((r) => r.querySelector("th").textContent === ` + jsString(name) + `)`
	b.waitFor("the new location in the list", `!!`+row+` && !document.getElementById("new-location-name-error")`, 10*time.Second)
	pageShots(t, b, axe, "locations", "")

	// A poster for the hygiene form, and its PDF.
	b.do(chromedp.Evaluate[chromedp.Void](row + `.querySelector("a").click()`))
	b.waitFor("the location's posters", `document.getElementById("sessions-status")?.textContent.includes("no poster yet")`, 20*time.Second)
	b.do(chromedp.SendKeys(chromedp.ID("poster-label"), "Entrance"), chromedp.Click(chromedp.ID("create-poster")))
	b.waitFor("the new poster", `document.querySelectorAll("#posters li.card").length === 1`, 10*time.Second)
	pdf := eval[string](b, `document.querySelector("#posters a[id^=pdf-open-]").getAttribute("href")`)
	got := eval[string](b, `fetch(`+jsString(pdf)+`, {headers: {"Feedback-Workspace": "demo"}}).then(async (r) =>
		r.status + " " + r.headers.get("Content-Type") + " " + new TextDecoder().decode((await r.arrayBuffer()).slice(0, 5)))`)
	if got != "200 application/pdf %PDF-" {
		t.Errorf("the poster's PDF link answers %q, want 200 application/pdf %%PDF-", got)
	}
	svg := eval[string](b, `fetch(document.querySelector("#posters a[id^=qr-svg-]").getAttribute("href"), {headers: {"Feedback-Workspace": "demo"}}).then(async (r) =>
		r.status + " " + r.headers.get("Content-Type") + " " + (await r.text()).slice(0, 4))`)
	if svg != "200 image/svg+xml <svg" {
		t.Errorf("the poster's SVG link answers %q, want 200 image/svg+xml <svg", svg)
	}
	all := eval[string](b, `fetch(document.getElementById("print-all").getAttribute("href"), {headers: {"Feedback-Workspace": "demo"}}).then(async (r) =>
		r.status + " " + r.headers.get("Content-Type") + " " + document.getElementById("print-all").textContent)`)
	if all != "200 application/pdf Print 1 active poster (one PDF)" {
		t.Errorf("the print-all link answers %q, want a PDF of the one active poster", all)
	}
	pageShots(t, b, axe, "posters", "posters-title")

	// A kiosk paired with the code the page shows, for the new location.
	b.do(chromedp.Click(chromedp.ID("nav-kiosks")))
	b.waitFor("the pairing form", `document.querySelectorAll("#kiosk-location option").length > 1`, 20*time.Second)
	b.do(chromedp.SetValue(chromedp.ID("kiosk-location"), eval[string](b, `[...document.querySelectorAll("#kiosk-location option")].find((o) => o.textContent === `+jsString(name)+`).value`)),
		chromedp.Evaluate[chromedp.Void](`document.getElementById("kiosk-location").dispatchEvent(new Event("change"))`),
		chromedp.SendKeys(chromedp.ID("kiosk-name"), "Atrium tablet"),
		chromedp.Click(chromedp.ID("create-code")))
	b.waitFor("the pairing code", `/^[A-Z0-9]{4}-[A-Z0-9]{4}$/.test(document.getElementById("pairing-code")?.textContent ?? "")`, 10*time.Second)
	code := eval[string](b, `document.getElementById("pairing-code").textContent`)
	if e := eval[string](b, `document.getElementById("pairing-expiry").textContent`); !strings.Contains(e, "expires in 9:") && !strings.Contains(e, "expires in 10:") {
		t.Errorf("the code's expiry reads %q, want about ten minutes", e)
	}
	kiosk := client.New(s.base, "")
	pairing, err := kiosk.Pair(t.Context(), code)
	if err != nil {
		t.Fatalf("pair a kiosk with the code the page shows: %v", err)
	}
	kiosk.Token = pairing.Credential
	if err := kiosk.Heartbeat(t.Context(), feedback.Heartbeat{QueueDepth: 3, AppVersion: "e2e-1"}); err != nil {
		t.Fatalf("heartbeat: %v", err)
	}
	kioskRow := `document.querySelector('#kiosk-list tr[data-kiosk="` + pairing.Kiosk.ID + `"]')`
	b.waitFor("the kiosk listed online", `(() => { const r = `+kioskRow+`; return !!r && r.innerText.includes("Online") &&
		r.innerText.includes("3 reports waiting") && r.innerText.includes("e2e-1") && r.innerText.includes(`+jsString(name)+`); })()`, 10*time.Second)
	pageShots(t, b, axe, "kiosks", "pairing")

	// Deleting the location says what it revokes, and does it.
	b.do(chromedp.Click(chromedp.ID("nav-locations")))
	b.waitFor("the locations", `!!`+row, 20*time.Second)
	b.do(chromedp.Evaluate[chromedp.Void](row + `.querySelector("button.danger").click()`))
	b.waitFor("the confirmation", `document.getElementById("confirm-delete-yes")?.disabled === false`, 10*time.Second)
	confirm := eval[string](b, `document.getElementById("confirm-delete-text").textContent`)
	for _, want := range []string{"1 active poster", "1 kiosk", "7 days"} {
		if !strings.Contains(confirm, want) {
			t.Errorf("the confirmation reads %q, want it to say %q", confirm, want)
		}
	}
	b.phone()
	pageShots(t, b, axe, "locations-confirm", "confirm-delete")
	b.do(chromedp.Click(chromedp.ID("confirm-delete-yes")))
	b.waitFor("the location gone", `!`+row+` && document.getElementById("sessions-status").textContent.includes("Deleted the location")`, 10*time.Second)
	if err := kiosk.Heartbeat(t.Context(), feedback.Heartbeat{AppVersion: "e2e-1"}); err == nil {
		t.Error("the kiosk of the deleted location still sends heartbeats")
	}
}
