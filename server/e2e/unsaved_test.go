package e2e_test

import (
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// unloadAskedJS reports whether leaving the tab would ask first: it
// sends the page a cancelable beforeunload event, as the browser does
// before closing or reloading it, and tells whether the page cancelled
// it.
const unloadAskedJS = `(() => { const e = new Event("beforeunload", {cancelable: true}); dispatchEvent(e); return e.defaultPrevented })()`

// TestDashboardSurveyUnsaved edits a draft survey's question and leaves
// the page by the navigation: the editor says the changes are unsaved
// beside the Save button, asks before leaving (Stay keeps the edit on
// the page, Leave goes and saves nothing), and holds the tab's unload
// only while the changes are unsaved; once saved, a link leaves at once.
func TestDashboardSurveyUnsaved(t *testing.T) {
	s, b, axe := signedInAt(t, "surveys", "the surveys", `document.querySelectorAll("#forms li.card").length > 0`)
	q := []feedback.Question{{ID: "q1", Type: feedback.QuestionYesNo, Labels: feedback.Labels{"en": "Was it clean?"}}}
	sv, err := s.api.CreateSurvey(t.Context(), "Unsaved draft", q)
	if err != nil {
		t.Fatalf("create a draft survey: %v", err)
	}
	editor := demoDashboard + "survey?id=" + sv.ID
	label := chromedp.ID("q0-label-en")
	open := func() {
		b.do(chromedp.Navigate(s.base + editor))
		b.waitFor("the editor", `document.getElementById("q0-label-en")?.value === "Was it clean?"`, 30*time.Second)
		if eval[bool](b, `!!document.getElementById("unsaved")`) || eval[bool](b, unloadAskedJS) {
			t.Error("the editor says or acts as if a change were unsaved before any")
		}
	}
	open()

	b.do(chromedp.SendKeys(label, " Really?"))
	b.waitFor("the unsaved status beside Save", `document.querySelector("#save-questions + #unsaved")?.textContent === "Unsaved changes"`, 10*time.Second)
	if !eval[bool](b, unloadAskedJS) {
		t.Error("closing the tab with unsaved changes does not ask first")
	}
	pageShots(t, b, axe, "survey-unsaved-save", "save-questions")

	// A link of the navigation asks; Stay keeps the edit.
	b.do(chromedp.Click(chromedp.ID("nav-locations")))
	b.waitFor("the confirmation", `!!document.getElementById("confirm-leave-yes")`, 10*time.Second)
	if got := eval[string](b, `location.pathname + location.search`); got != editor {
		t.Errorf("with the confirmation open the page is %s", got)
	}
	pageShots(t, b, axe, "survey-unsaved", "confirm-leave")
	b.do(chromedp.Click(chromedp.ID("confirm-leave-no")))
	b.waitFor("the confirmation gone", `!document.getElementById("confirm-leave")`, 10*time.Second)
	if got := eval[string](b, `location.pathname + location.search + " " + document.getElementById("q0-label-en").value + " " +
		!!document.getElementById("unsaved")`); got != editor+" Was it clean? Really? true" {
		t.Errorf("after Stay the page reads %q", got)
	}

	// Leave goes, and saves nothing.
	b.do(chromedp.Click(chromedp.ID("nav-locations")))
	b.waitFor("the confirmation", `!!document.getElementById("confirm-leave-yes")`, 10*time.Second)
	b.do(chromedp.Click(chromedp.ID("confirm-leave-yes")))
	b.waitFor("the locations", `location.pathname === "/w/demo/locations" && document.querySelectorAll("#locations tbody tr").length > 0`, 20*time.Second)
	if eval[bool](b, unloadAskedJS) {
		t.Error("the locations page still holds the tab's unload")
	}
	if got, err := s.api.Survey(t.Context(), sv.ID); err != nil || got.Questions[0].Labels["en"] != "Was it clean?" {
		t.Errorf("after leaving without saving the survey is %+v, %v", got, err)
	}

	// Once saved, a link leaves at once.
	open()
	b.do(chromedp.SendKeys(label, " Today?"), chromedp.Click(chromedp.ID("save-questions")))
	b.waitFor("the save", `document.getElementById("sessions-status")?.textContent === "Saved 1 question." && !document.getElementById("unsaved")`, 10*time.Second)
	if eval[bool](b, unloadAskedJS) {
		t.Error("closing the tab after saving asks first")
	}
	b.do(chromedp.Click(chromedp.ID("nav-locations")))
	b.waitFor("the locations", `location.pathname === "/w/demo/locations"`, 20*time.Second)
}
