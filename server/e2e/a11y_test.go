package e2e_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/feedbackhq/feedback/shared/feedback"
	"github.com/feedbackhq/feedback/shared/i18n"
)

// axeVersion is the axe-core release .ci/run installs.
const axeVersion = "4.10.3"

// axeScript returns axe.min.js from FEEDBACK_AXE_JS or the copy .ci/run
// installs under .ci/node. Without it the test skips with one line,
// unless CI=true.
func axeScript(t *testing.T) string {
	t.Helper()
	path := os.Getenv("FEEDBACK_AXE_JS")
	if path == "" {
		path = filepath.Join(env.root, ".ci", "node", "node_modules", "axe-core", "axe.min.js")
	}
	js, err := os.ReadFile(path)
	if err != nil {
		if ci() {
			t.Fatalf("CI=true requires axe-core: %v", err)
		}
		t.Skipf("axe-core not found (%v); skipping the accessibility checks (npm install --no-save --prefix .ci/node axe-core@%s, or set FEEDBACK_AXE_JS)", err, axeVersion)
	}
	return string(js)
}

// violation is one failed axe rule on a page.
type violation struct {
	ID     string `json:"id"`
	Impact string `json:"impact"`
	Help   string `json:"help"`
	Target string `json:"target"` // the first failing element
	Nodes  int    `json:"nodes"`  // how many elements fail
}

// axeRunJS checks the document against WCAG 2.2 A and AA.
const axeRunJS = `axe.run(document, {runOnly: {type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]}}).then((r) =>
  r.violations.map((v) => ({id: v.id, impact: v.impact || "", help: v.help, target: v.nodes.length ? String(v.nodes[0].target) : "", nodes: v.nodes.length})))`

// checkA11y runs axe-core in the page and reports every violation.
func checkA11y(t *testing.T, b *browser, axe, page string) {
	t.Helper()
	if !eval[bool](b, `typeof axe === "object"`) {
		b.do(chromedp.Evaluate[chromedp.Void](axe))
	}
	vs := eval[[]violation](b, axeRunJS)
	for _, v := range vs {
		t.Errorf("%s: %s (%s): %s; first of %d: %s", page, v.ID, v.Impact, v.Help, v.Nodes, v.Target)
	}
	t.Logf("%s: %d WCAG 2.2 AA violations", page, len(vs))
}

// TestAccessibility checks every screen a visitor or an installer sees
// against WCAG 2.2 AA with axe-core: the three visitor forms, the
// thank-you page, and the kiosk's pairing, attract and form screens.
func TestAccessibility(t *testing.T) {
	needBrowser(t)
	axe := axeScript(t)
	t.Parallel()
	s, b := startServer(t), newBrowser(t)

	for _, form := range []feedback.FormKind{feedback.FormHygiene, feedback.FormReview, feedback.FormSurvey} {
		b.do(chromedp.Navigate(s.visitorURL(form)))
		b.waitWasm()
		checkA11y(t, b, axe, "visitor form "+string(form))
	}
	b.do(chromedp.Navigate(s.visitorURL(feedback.FormHygiene) + "/thanks?lang=en"))
	b.waitWasm()
	checkA11y(t, b, axe, "thank-you page")

	b.do(chromedp.Navigate(s.base + "/kiosk"))
	b.waitFor("the pairing form", `!!document.getElementById("pair-code")`, 60*time.Second)
	checkA11y(t, b, axe, "kiosk pairing")
	pairKiosk(b, s, s.base, feedback.KioskTiming{ResetSeconds: 5, IdleSeconds: 120, IntervalSeconds: 0})
	checkA11y(t, b, axe, "kiosk attract")
	b.do(chromedp.Click(chromedp.ID("kiosk-start")))
	b.waitFor("the kiosk form", formScreen, 10*time.Second)
	checkA11y(t, b, axe, "kiosk form")

	// The checks can fail: an image without a text alternative is found.
	b.do(chromedp.Evaluate[chromedp.Void](`document.body.append(Object.assign(document.createElement("img"), {src: "/web/icon.svg"}))`))
	if vs := eval[[]violation](b, axeRunJS); len(vs) != 1 || vs[0].ID != "image-alt" {
		t.Errorf("axe-core found %+v on a page with an image without alt, want image-alt", vs)
	}
}

// TestAccessibilityOfStates checks the screens beyond a fresh form, on a
// phone and on a desktop: the forms with a choice made, a refusal as the
// server renders it and as the wasm does, the outcome of a submission,
// an unknown poster, the kiosk's thank-you, PIN and status screens, and
// a page offline without its form.
func TestAccessibilityOfStates(t *testing.T) {
	needBrowser(t)
	axe := axeScript(t)
	t.Parallel()
	s, b := startServer(t), newBrowser(t)
	check := func(page string) {
		t.Helper()
		b.phone()
		checkA11y(t, b, axe, page+" (390 px)")
		b.do(chromedp.EmulateViewport(1280, 800))
		checkA11y(t, b, axe, page+" (1280 px)")
	}
	for _, form := range []feedback.FormKind{feedback.FormHygiene, feedback.FormReview, feedback.FormSurvey} {
		b.do(chromedp.Navigate(s.visitorURL(form)))
		b.waitWasm()
		b.do(chromedp.Click(chromedp.CSS(`.choice label`)))
		check("visitor form " + string(form) + " with a choice")
	}

	b.openWithoutWasm(s.visitorURL(feedback.FormReview) + "?lang=de")
	b.do(chromedp.SendKeys(chromedp.ID(feedback.FieldContactEmail), "not an address"),
		chromedp.Evaluate[chromedp.Void](`document.getElementById("contact_email").type = "text"`),
		chromedp.Click(chromedp.CSS(`label[for="rating-5"]`)), chromedp.Click(chromedp.CSS(submitButton)))
	b.waitText(i18n.T("de", "error_title"), 10*time.Second)
	check("refusal without the wasm")
	b.waitWasm()
	b.waitText(i18n.T("de", "error_title"), 10*time.Second)
	check("refusal with the wasm")

	b.do(chromedp.Navigate(s.visitorURL(feedback.FormHygiene)))
	b.waitWasm()
	fillHygiene(b, 3, "checked by axe")
	b.do(chromedp.Click(chromedp.CSS(submitButton)))
	b.waitText(i18n.T("en", "sent"), 20*time.Second)
	check("outcome of a submission")

	b.do(chromedp.Navigate(s.base + "/q/" + strings.Repeat("A", 43)))
	b.waitWasm()
	b.waitText(i18n.T("en", "invalid_code"), 10*time.Second)
	check("unknown poster")

	pairKiosk(b, s, s.base, feedback.KioskTiming{ResetSeconds: 60, IdleSeconds: 120, IntervalSeconds: 0})
	b.do(chromedp.Click(chromedp.ID("kiosk-start")))
	b.waitFor("the kiosk form", formScreen, 10*time.Second)
	b.do(chromedp.Click(chromedp.CSS(`label[for="rating-4"]`)), chromedp.Click(chromedp.CSS(submitButton)))
	b.waitText(i18n.T("en", "thanks_body"), 10*time.Second)
	check("kiosk thank-you")
	b.do(chromedp.Click(chromedp.ID("kiosk-exit")))
	b.waitFor("the PIN form", `!!document.getElementById("exit-pin")`, 10*time.Second)
	check("kiosk PIN")
	b.do(chromedp.SendKeys(chromedp.ID("exit-pin"), kioskPIN), chromedp.Click(chromedp.CSS(`#pin-form button[type=submit]`)))
	b.waitFor("the admin screen", adminScreen, 10*time.Second)
	check("kiosk status")

	b.waitServiceWorker()
	cutOff(b, s)
	b.do(chromedp.Navigate(s.base + "/q/" + strings.Repeat("B", 43))) // never visited: not cached
	b.waitWasm()
	b.waitText(i18n.T("en", "unavailable_title"), 10*time.Second)
	check("a page offline without its form")
}
