package e2e_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/feedbackhq/feedback/app/dashboard"
	"github.com/feedbackhq/feedback/shared/client"
	"github.com/feedbackhq/feedback/shared/feedback"
)

// viewerPage is a workspace page the viewer opens: its path below
// /w/demo/ (with the query a page reached from another needs), a
// script that is true once it shows what it loaded, and the words that
// tell the viewer why a section is not there ("" for none).
type viewerPage struct {
	path, ready, note string
}

// viewerControlsJS lists every control of the page that the viewer's
// allow-list (a regular expression on ids) does not name: each button,
// input, select, textarea and form, and anything else a person can
// press. A control without an id is never allowed. The survey preview's
// answers are allowed, as its only button is disabled: it sends nothing.
const viewerControlsJS = `((allow) => {
  const re = new RegExp("^(" + allow.join("|") + ")$"), bad = [];
  for (const el of document.querySelectorAll("button, input, select, textarea, form, [role=button], [contenteditable], [onclick]")) {
    if (el.closest(".visitor-preview") && !el.closest(".visitor-preview").querySelector("button:not([disabled])")) continue;
    if (el.id && re.test(el.id)) continue;
    bad.push(el.tagName.toLowerCase() + (el.id ? "#" + el.id : "") + " " + JSON.stringify((el.textContent || el.value || "").trim().slice(0, 40)));
  }
  return bad;
})`

// viewerAllowed are the ids of the controls that change nothing: the
// menu, the way out, retrying a load, filters, paging, the language of
// the preview, the size of the QR images, and opening a delivery log.
var viewerAllowed = []string{
	"menu-toggle", "sign-out", "sign-out-form", "workspace-switch", "workspace-select", "workspace-open",
	"[a-z-]*retry",
	"filter-location", "filter-kind", "show-older", "insights-(location|days)",
	"hygiene-(location|rating|tag|from|to|prev|next)",
	"poster-location", "qr-size",
	"responses-(filter|location|from|to|show|newer|older)",
	"audit-(filters|from|to|per-page|apply|newer|older)",
	"preview-lang",
	"history-(state|location|rule|newer|older)", "alert-(sound|notify)",
	"log-[A-Za-z0-9_-]+",
}

// TestDashboardViewer signs a viewer in and opens every workspace page
// of the dashboard's route table: once each has loaded, the page has no
// control that changes anything (each control is checked against an
// allow-list of read-only ones), says so where a section went away, and
// passes axe-core at a desktop's and a phone's size; the API refuses the
// viewer's browser a write anyway.
func TestDashboardViewer(t *testing.T) {
	s, b, axe := signedInAt(t, "people", "the people page",
		`document.getElementById("sessions-status")?.textContent.startsWith("No member yet")`,
		"--webhook-allow", "127.0.0.0/8") // the webhook's receiver: the server itself, never called
	draft, code, alert := viewerFixtures(t, s)
	b.do(chromedp.Click(chromedp.ID("create-invite")))
	b.waitFor("the invitation link", `!!document.getElementById("invite-link")?.value`, 10*time.Second)
	guest := acceptInvite(t, b, eval[string](b, `document.getElementById("invite-link").value`))
	if _, err := client.New(s.base, "").Pair(t.Context(), code); err != nil {
		t.Fatalf("pair a kiosk: %v", err)
	}

	const only = "Only a platform owner"
	pages := map[string]viewerPage{
		"":                      {"", `document.querySelectorAll("#feed li").length > 0`, ""},
		"hygiene":               {"hygiene", `document.querySelectorAll("#hygiene-list tbody tr").length > 0`, ""},
		"locations":             {"locations", `document.querySelectorAll("#locations tbody tr").length > 0`, "Viewers can read the locations"},
		"posters":               {"posters", `document.querySelectorAll("#posters li.card").length > 0`, "Viewers can open and download the posters"},
		"kiosks":                {"kiosks", `document.querySelectorAll("tr[data-kiosk]").length > 0`, "Viewers can see the kiosks"},
		"reviews":               {"reviews", `document.querySelectorAll("#forms li.card").length > 0`, "Viewers can read the reviews"},
		"surveys":               {"surveys", `document.querySelectorAll("#forms li.card").length > 1`, "Viewers can read the surveys"},
		"survey":                {"survey?id=" + draft, `document.querySelectorAll("#preview fieldset").length === 1`, "Viewers can read the questions"},
		"responses":             {"responses?survey=" + draft, `!!document.getElementById("responses-title")`, ""},
		"integrations/tokens":   {"integrations/tokens", `!!document.getElementById("tokens-status")`, only},
		"integrations/webhooks": {"integrations/webhooks", `document.querySelectorAll("#webhooks li.webhook").length === 1`, "You can read the webhooks"},
		"alerts":                {"alerts", `document.querySelectorAll("#active-alerts li.alert-card").length === 1`, ""},
		"alerts/rules":          {"alerts/rules", `document.querySelectorAll("#rules li.rule").length === 1`, "You can read the rules"},
		"alerts/{id}":           {"alerts/" + alert, `document.querySelectorAll("#alert-timeline li").length === 1`, "Triggered"},
		"people":                {"people", `document.getElementById("sessions-status")?.textContent.startsWith(` + jsString(only) + `)`, only},
		"settings":              {"settings", `!!document.getElementById("settings-readonly")`, "Viewers can read the settings"},
		"audit":                 {"audit", `document.getElementById("sessions-status")?.textContent.startsWith(` + jsString(only) + `)`, only},
	}
	routes := dashboard.WorkspacePages()
	for _, p := range routes {
		if _, ok := pages[p]; !ok {
			t.Errorf("the route table has the workspace page %q, which this test does not open: add it to pages", p)
		}
	}
	if len(pages) != len(routes) {
		t.Errorf("the test opens %d pages, the route table has %d", len(pages), len(routes))
	}
	checkViewerNav(t, guest, routes)

	shots := map[string]string{"locations": "viewer-locations", "survey": "viewer-survey", "kiosks": "viewer-kiosks"}
	for _, route := range routes {
		p := pages[route]
		guest.do(chromedp.Navigate(s.base + demoDashboard + p.path))
		guest.waitFor("the viewer's "+route+" page", p.ready+` && !/Loading/.test(document.getElementById("main")?.innerText ?? "Loading")`, 60*time.Second)
		checkViewerControls(t, guest, "/"+p.path)
		if text := guest.pageText(); !strings.Contains(text, p.note) {
			t.Errorf("the viewer's /%s does not say %q:\n%s", p.path, p.note, text)
		}
		if name, ok := shots[route]; ok {
			pageShots(t, guest, axe, name, "")
			continue
		}
		checkA11y(t, guest, axe, "the viewer's /"+p.path+" at 1280 px")
		guest.phone()
		checkViewerControls(t, guest, "/"+p.path+" on a phone")
		checkA11y(t, guest, axe, "the viewer's /"+p.path+" at 390 px")
		checkFits(t, guest, "the viewer's /"+p.path+" at 390 px")
		guest.do(chromedp.EmulateViewport(1280, 800))
	}

	checkViewerRefused(t, guest)
}

// viewerFixtures makes, as the workspace's owner through the API, what
// the viewer's pages list besides the demo's data: a draft survey with
// one question, a webhook, a pairing code for a kiosk, and an open
// alert (see openAlert). It returns the survey's id, the code and the
// alert's id.
func viewerFixtures(t *testing.T, s *server) (draft, code, alert string) {
	t.Helper()
	q := []feedback.Question{{ID: "q1", Type: feedback.QuestionYesNo, Labels: feedback.Labels{"en": "Was it clean?"}}}
	sv, err := s.api.CreateSurvey(t.Context(), "Viewer's draft", q)
	if err != nil {
		t.Fatalf("create a draft survey: %v", err)
	}
	if _, err := s.api.CreateWebhook(t.Context(), feedback.WebhookInput{URL: s.base + "/hooks/viewer",
		Events: []string{feedback.EventReviewStatusChanged}}); err != nil {
		t.Fatalf("create a webhook: %v", err)
	}
	return sv.ID, s.pairingCode(feedback.DefaultKioskTiming), openAlert(t, s)
}

// checkViewerNav fails t unless the viewer's navigation links to
// exactly the route table's pages that have a link: a page added to the
// table with a link but not to the test, or missing from the
// navigation, is caught.
func checkViewerNav(t *testing.T, b *browser, routes []string) {
	t.Helper()
	got := strings.Split(eval[string](b, `[...document.querySelectorAll("#dash-nav a")].map((a) => a.pathname).join("\n")`), "\n")
	for _, path := range got {
		if strings.HasPrefix(path, demoDashboard) && !slices.Contains(routes, strings.TrimPrefix(path, demoDashboard)) {
			t.Errorf("the navigation links to %s, which is not a workspace page of the route table", path)
		}
	}
	for _, want := range []string{"", "hygiene", "locations", "posters", "kiosks", "reviews", "surveys",
		"integrations/tokens", "integrations/webhooks", "people", "audit"} {
		if !slices.Contains(got, demoDashboard+want) {
			t.Errorf("the viewer's navigation has no link to %s%s", demoDashboard, want)
		}
	}
}

// checkViewerControls fails t for each control of the page that could
// change something.
func checkViewerControls(t *testing.T, b *browser, page string) {
	t.Helper()
	allow := `["` + strings.Join(viewerAllowed, `","`) + `"]`
	for _, bad := range eval[[]string](b, viewerControlsJS+`(`+allow+`)`) {
		t.Errorf("the viewer's %s has a control that is not read-only: %s", page, bad)
	}
}

// checkViewerRefused posts a new location from the viewer's browser
// session, as a forged page would: the API answers 403 with a problem
// and stores nothing.
func checkViewerRefused(t *testing.T, b *browser) {
	t.Helper()
	got := eval[string](b, `fetch("/api/v1/locations", {method: "POST", headers: {"Content-Type": "application/json",
	  "Feedback-Workspace": "demo"}, body: JSON.stringify({name: "Viewer's own"})}).
	  then(async (r) => r.status + " " + r.headers.get("Content-Type") + " " + (await r.json()).status)`)
	if got != "403 application/problem+json 403" {
		t.Errorf("the viewer's POST /api/v1/locations answered %q, want 403 with a problem", got)
	}
	names := eval[string](b, `fetch("/api/v1/locations?per_page=100", {headers: {"Feedback-Workspace": "demo"}}).
	  then((r) => r.json()).then((j) => j.data.map((l) => l.name).join("\n"))`)
	if strings.Contains(names, "Viewer's own") {
		t.Error("the refused location was stored")
	}
}
