package e2e_test

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestDashboardHygiene reads the hygiene reports as a person would: the
// list says how many there are as the API counts them, a location
// filter narrows it, and so do the rating and tag filters, the CSV download of the filtered list has its rows
// in its order, and a day with no report says so. The page passes
// axe-core and fits a desktop's and a phone's screen.
func TestDashboardHygiene(t *testing.T) {
	_, b, axe := signedInAt(t, "hygiene", "the reports",
		`document.querySelectorAll("#hygiene-list tbody tr").length > 0`)

	apiTotal := func(query string) int {
		return eval[int](b, `fetch("/api/v1/hygiene?`+query+`", {headers: {"Feedback-Workspace": "demo"}}).then((r) => r.json()).then((p) => p.meta.total)`)
	}
	total := apiTotal("")
	if got := eval[string](b, `document.getElementById("hygiene-status").textContent`); !strings.HasSuffix(got, " of "+strconv.Itoa(total)+".") {
		t.Errorf("the status reads %q, want the API's total %d", got, total)
	}
	pageShots(t, b, axe, "hygiene", "")

	loc := eval[string](b, `[...document.querySelectorAll("#hygiene-location option")].find((o) => o.textContent === "Restroom, 1st floor").value`)
	b.do(chromedp.SetValue(chromedp.ID("hygiene-location"), loc),
		chromedp.Evaluate[chromedp.Void](`document.getElementById("hygiene-location").dispatchEvent(new Event("change"))`))
	want := apiTotal("location_id=" + loc)
	b.waitFor("the filtered list", `document.getElementById("hygiene-status").textContent.endsWith(" of `+strconv.Itoa(want)+`.") &&
		[...document.querySelectorAll("#hygiene-list tbody tr")].every((r) => r.children[1].textContent === "Restroom, 1st floor")`, 10*time.Second)

	csv := eval[string](b, `fetch(document.getElementById("export-csv").getAttribute("href")).then(async (r) =>
		r.status + " " + r.headers.get("Content-Type") + "\n" + await r.text())`)
	status, body, _ := strings.Cut(csv, "\n")
	lines := strings.Split(strings.TrimSuffix(body, "\n"), "\n")
	first := eval[string](b, `fetch("/api/v1/hygiene?per_page=1&location_id=`+loc+`", {headers: {"Feedback-Workspace": "demo"}}).then((r) => r.json()).then((p) => p.data[0].id)`)
	if !strings.HasPrefix(status, "200 text/csv") || len(lines) != want+1 || !strings.HasPrefix(lines[1], first+",") {
		t.Errorf("the CSV download answers %q with %d lines, first row %q; want %d rows, the first %s", status, len(lines), lines[min(1, len(lines)-1)], want, first)
	}

	pick := func(id, value string) {
		b.do(chromedp.SetValue(chromedp.ID(id), value),
			chromedp.Evaluate[chromedp.Void](`document.getElementById("`+id+`").dispatchEvent(new Event("change"))`))
	}
	pick("hygiene-rating", "low")
	low := apiTotal("location_id=" + loc + "&rating=1,2")
	if low == 0 {
		t.Fatal("the demo has no low rating at the location: the rating filter is not tested")
	}
	b.waitFor("the low ratings", `document.getElementById("hygiene-status").textContent.endsWith(" of `+strconv.Itoa(low)+`.") &&
		[...document.querySelectorAll("#hygiene-list tbody tr")].every((r) => ["1 of 5", "2 of 5"].includes(r.children[2].textContent))`, 10*time.Second)
	if href := eval[string](b, `document.getElementById("export-csv").getAttribute("href")`); !strings.Contains(href, "rating=1%2C2") {
		t.Errorf("the download %s does not take the rating filter", href)
	}
	pick("hygiene-tag", "no_soap")
	soap := apiTotal("location_id=" + loc + "&rating=1,2&tag=no_soap")
	b.waitFor("the low ratings without soap", `(`+strconv.Itoa(soap)+` === 0 ? document.getElementById("hygiene-status").textContent === "No hygiene report matches these filters." :
		document.getElementById("hygiene-status").textContent.endsWith(" of `+strconv.Itoa(soap)+`.")) &&
		[...document.querySelectorAll("#hygiene-list tbody tr")].every((r) => r.children[3].textContent.includes("No soap"))`, 10*time.Second)
	pick("hygiene-rating", "all")
	pick("hygiene-tag", "all")

	tomorrow := time.Now().AddDate(0, 0, 1).Format(time.DateOnly)
	b.do(chromedp.SetValue(chromedp.ID("hygiene-from"), tomorrow),
		chromedp.Evaluate[chromedp.Void](`document.getElementById("hygiene-from").dispatchEvent(new Event("change"))`))
	b.waitFor("the empty list", `document.getElementById("hygiene-status").textContent === "No hygiene report matches these filters." &&
		!document.getElementById("hygiene-list")`, 10*time.Second)
}
