package e2e_test

import (
	"context"
	encodingcsv "encoding/csv"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/feedbackhq/feedback/shared/feedback"
	"github.com/feedbackhq/feedback/shared/i18n"
)

// formCard finds the card of the review or survey titled title.
func formCard(title string) string {
	return `[...document.querySelectorAll("#forms li.card")].find((li) => li.querySelector("h3").textContent.startsWith(` +
		jsString(title+" ") + `))`
}

// surveyQuestions are what the test types into the editor, by the
// question's place: its type and its English text (and choices).
var surveyQuestions = []struct {
	add     feedback.QuestionType // "" for the survey's starter question
	text    string
	choices []string
}{
	{"", "Overall, how satisfied are you?", nil},
	{feedback.QuestionNPS, "Would you recommend the lobby?", nil},
	{feedback.QuestionSingleChoice, "Why did you come?", []string{"Work", "Leisure"}},
	{feedback.QuestionMultiChoice, "What did you use?", []string{"Lifts", "Café", "Lockers"}},
	{feedback.QuestionYesNo, "Was it clean?", nil},
	{feedback.QuestionText, "Anything else?", nil},
}

// TestDashboardSurvey builds a survey as a person would in the
// dashboard: creates it from a title, adds a question of every type with
// its texts and choices, sees a refused empty choice marked at its
// field, reorders with the keyboard's buttons, checks the preview in
// another language, saves and activates it; a visitor answers it on a
// poster made through the API, and the response is listed in full on
// the responses page. Each page passes axe-core and fits both screens.
func TestDashboardSurvey(t *testing.T) {
	s, b, axe := signedInAt(t, "surveys", "the surveys",
		`document.querySelectorAll("#forms li.card").length > 0`)

	b.do(chromedp.Click(chromedp.ID("create-form")))
	b.waitFor("the reason the empty title is refused", `!!document.getElementById("new-form-title-error")`, 10*time.Second)
	title := "E2E Lobby survey"
	b.do(chromedp.SendKeys(chromedp.ID("new-form-title"), title), chromedp.Click(chromedp.ID("create-form")))
	card := formCard(title)
	b.waitFor("the new draft survey", ``+card+`?.dataset.status === "draft"`, 10*time.Second)
	pageShots(t, b, axe, "surveys", "")
	id := strings.TrimPrefix(eval[string](b, card+`.id`), "form-")

	b.do(chromedp.Click(chromedp.ID("edit-" + id)))
	b.waitFor("the editor", `document.querySelectorAll("#questions li.question").length === 1`, 20*time.Second)
	buildQuestions(t, b)
	pageShots(t, b, axe, "survey-editor-error", "save-problem")
	b.do(chromedp.SendKeys(chromedp.ID("q2-o1-en"), surveyQuestions[2].choices[1]), chromedp.Click(chromedp.ID("save-questions")))
	b.waitFor("the questions saved", `document.getElementById("sessions-status").textContent === "Saved 6 questions."`, 10*time.Second)
	checkReorder(t, b)
	checkPreview(t, b)
	pageShots(t, b, axe, "survey-editor", "")
	pageShots(t, b, axe, "survey-preview", "preview")

	b.do(chromedp.Click(chromedp.ID("back-to-surveys")))
	b.waitFor("the surveys", `!!`+card, 20*time.Second)
	b.do(chromedp.Click(chromedp.ID("move-" + id + "-active")))
	b.waitFor("the survey active", card+`?.dataset.status === "active"`, 10*time.Second)
	b.do(chromedp.Click(chromedp.ID("edit-" + id)))
	b.waitFor("the questions, read only", `document.getElementById("preview")?.innerText.includes("Anything else?") &&
		!document.getElementById("questions-form")`, 20*time.Second)

	answerSurvey(t, s, b, id)

	b.do(chromedp.Navigate(s.base + demoDashboard + "surveys"))
	b.waitFor("the surveys", `!!`+card, 60*time.Second)
	b.do(chromedp.Evaluate[chromedp.Void](card + `.querySelector("a").click()`))
	b.waitFor("the response", `document.querySelectorAll("#responses li.response").length === 1`, 20*time.Second)
	got := eval[string](b, `document.querySelector("#responses li.response").innerText`)
	for _, want := range []string{"Overall, how satisfied are you?\n4 of 5", "Would you recommend the lobby?\n9 of 10",
		"Why did you come?\nLeisure", "What did you use?\nLifts, Lockers", "Was it clean?\nYes",
		"Anything else?\nThe plants are lovely.", hygieneLocation, "from a poster"} {
		if !strings.Contains(got, want) {
			t.Errorf("the response reads %q, want it to show %q", got, want)
		}
	}
	pageShots(t, b, axe, "survey-responses", "responses-title")

	// The CSV download has the response as the API lists it, one column
	// per question.
	csv := eval[string](b, `fetch(document.getElementById("export-csv").getAttribute("href")).then(async (r) =>
		r.status + " " + r.headers.get("Content-Type") + "\n" + await r.text())`)
	listed := eval[string](b, `fetch(document.getElementById("export-ndjson").getAttribute("href").split("?")[0].replace("/export", ""),
		{headers: {"Feedback-Workspace": "demo"}}).then((r) => r.json()).then((p) => p.meta.total + " " + p.data[0].id)`)
	questions := eval[int](b, `fetch("/api/v1/surveys/" + document.getElementById("export-csv").getAttribute("href").match(/surveys\/([^/]+)/)[1],
		{headers: {"Feedback-Workspace": "demo"}}).then((r) => r.json()).then((s) => s.questions.length)`)
	status, body, _ := strings.Cut(csv, "\n")
	rows, err := encodingcsv.NewReader(strings.NewReader(body)).ReadAll()
	total, first, _ := strings.Cut(listed, " ")
	if err != nil || !strings.HasPrefix(status, "200 text/csv") || strconv.Itoa(len(rows)-1) != total || rows[len(rows)-1][0] != first ||
		len(rows[0]) != 9+questions {
		t.Errorf("the CSV download: %s, %v, %d rows, header %q; the API lists %s and %d questions", status, err, len(rows), rows[0], listed, questions)
	}

	// Another location has none of the responses.
	other := eval[string](b, `[...document.querySelectorAll("#responses-location option")].find((o) => o.value !== "all" &&
		o.textContent !== `+jsString(hygieneLocation)+`).value`)
	b.do(chromedp.SetValue(chromedp.ID("responses-location"), other),
		chromedp.Evaluate[chromedp.Void](`document.getElementById("responses-location").dispatchEvent(new Event("change"))`),
		chromedp.Click(chromedp.ID("responses-show")))
	b.waitFor("no response at another location", `document.querySelectorAll("#responses li.response").length === 0 &&
		document.getElementById("sessions-status").textContent.startsWith("No response matches these filters")`, 10*time.Second)

	b.do(chromedp.SetValue(chromedp.ID("responses-location"), "all"),
		chromedp.Evaluate[chromedp.Void](`document.getElementById("responses-location").dispatchEvent(new Event("change"))`),
		chromedp.Click(chromedp.ID("responses-show")))
	b.waitFor("the response at every location", `document.querySelectorAll("#responses li.response").length === 1`, 10*time.Second)

	// A day with no response, then days the wrong way round.
	tomorrow := time.Now().AddDate(0, 0, 1).Format("2006-01-02")
	setDay(b, "responses-from", tomorrow)
	b.do(chromedp.Click(chromedp.ID("responses-show")))
	b.waitFor("no response from tomorrow on", `document.getElementById("sessions-status").textContent.startsWith("No response matches these filters")`, 10*time.Second)
	setDay(b, "responses-to", time.Now().AddDate(0, 0, -1).Format("2006-01-02"))
	b.do(chromedp.Click(chromedp.ID("responses-show")))
	b.waitFor("the refused days", `!!document.getElementById("responses-from-error")`, 10*time.Second)
	pageShots(t, b, axe, "survey-responses-refused", "")
}

// buildQuestions adds a question of every type after the starter one,
// with its texts, a German text for the first and required flags, then
// saves with the second choice of the single-choice question empty:
// the service's reason shows at that choice.
func buildQuestions(t *testing.T, b *browser) {
	t.Helper()
	for i, q := range surveyQuestions {
		if q.add != "" {
			b.do(chromedp.Click(chromedp.ID("add-" + string(q.add))))
			b.waitFor(fmt.Sprintf("question %d", i+1), fmt.Sprintf(`document.activeElement?.id === "q%d-label-en"`, i), 10*time.Second)
			b.do(chromedp.SendKeys(chromedp.ID(fmt.Sprintf("q%d-label-en", i)), q.text))
		}
		for j, c := range q.choices {
			if j >= 2 {
				b.do(chromedp.Click(chromedp.ID(fmt.Sprintf("q%d-add-option", i))))
				b.waitFor("a third choice", fmt.Sprintf(`!!document.getElementById("q%d-o%d-en")`, i, j), 10*time.Second)
			}
			if i == 2 && j == 1 {
				continue // left empty: refused below
			}
			b.do(chromedp.SendKeys(chromedp.ID(fmt.Sprintf("q%d-o%d-en", i, j)), c))
		}
	}
	b.do(chromedp.SendKeys(chromedp.ID("q0-label-de"), "Wie zufrieden sind Sie insgesamt?"),
		chromedp.Click(chromedp.ID("q4-required")), chromedp.Click(chromedp.ID("save-questions")))
	b.waitFor("the refused empty choice", `!!document.getElementById("q2-o1-error")`, 10*time.Second)
	if got := eval[string](b, `document.getElementById("q2-o1-error").textContent`); !strings.Contains(got, "at least one language") {
		t.Errorf("the empty choice's reason reads %q, want the service's", got)
	}
}

// checkReorder moves the last question up and back down with the
// buttons, the focus following the question.
func checkReorder(t *testing.T, b *browser) {
	t.Helper()
	b.do(chromedp.Click(chromedp.ID("q5-up")))
	b.waitFor("the text question fifth", `document.getElementById("q4-label-en").value === "Anything else?" &&
		document.getElementById("q5-label-en").value === "Was it clean?" && document.getElementById("q5-required").checked`, 10*time.Second)
	if got := eval[string](b, `document.activeElement.id`); got != "q4-up" {
		t.Errorf("after moving question 6 up the focus is on %q, want its Up button in place 5", got)
	}
	b.do(chromedp.Evaluate[chromedp.Void](`document.getElementById("q4-down").focus()`),
		chromedp.KeyEvent("\r"))
	b.waitFor("the text question last again", `document.getElementById("q5-label-en").value === "Anything else?" &&
		document.activeElement.id === "q5-up"`, 10*time.Second)
	b.do(chromedp.Click(chromedp.ID("save-questions")))
	b.waitFor("the order saved", `document.getElementById("sessions-status").textContent === "Saved 6 questions."`, 10*time.Second)
}

// checkPreview reads the preview in English and in German.
func checkPreview(t *testing.T, b *browser) {
	t.Helper()
	got := eval[string](b, `document.getElementById("preview").innerText`)
	for _, q := range surveyQuestions {
		if !strings.Contains(got, q.text) {
			t.Errorf("the preview lacks %q:\n%s", q.text, got)
		}
	}
	b.do(chromedp.SetValue(chromedp.ID("preview-lang"), "de"),
		chromedp.Evaluate[chromedp.Void](`document.getElementById("preview-lang").dispatchEvent(new Event("change"))`))
	b.waitFor("the German preview", `document.getElementById("preview").innerText.includes("Wie zufrieden sind Sie insgesamt? (`+
		i18n.T("de", "required")+`)")`, 10*time.Second)
	if got := eval[string](b, `document.getElementById("preview").innerText`); !strings.Contains(got, i18n.T("de", "yes")) ||
		!strings.Contains(got, "Was it clean? ("+i18n.T("de", "required")+")") {
		t.Errorf("the German preview reads %q, want Ja and the English text where there is no German one", got)
	}
}

// answerSurvey makes a poster for the survey through the API and answers
// every question on the visitor page, as plain HTML.
func answerSurvey(t *testing.T, s *server, b *browser, id string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	ps, err := s.api.CreatePoster(ctx, s.locationID(hygieneLocation), feedback.PosterInput{
		FormRef: feedback.FormRef{Form: feedback.FormSurvey, SurveyID: id}})
	if err != nil {
		t.Fatalf("make a poster for the survey: %v", err)
	}
	b.openWithoutWasm(s.base + "/q/" + ps.Code)
	for _, label := range []string{"q-q1-4", "q-q2-9", "q-q3-o2", "q-q4-o1", "q-q4-o3", "q-q5-yes"} {
		b.do(chromedp.Click(chromedp.CSS(`label[for="` + label + `"]`)))
	}
	b.do(chromedp.Evaluate[chromedp.Void](`document.getElementById("field-q.q6").value = "The plants are lovely."`),
		chromedp.Click(chromedp.CSS(submitButton)))
	b.waitText(i18n.T("en", "thanks_body"), 10*time.Second)
}

// setDay types day into the date input id.
func setDay(b *browser, id, day string) {
	b.t.Helper()
	b.do(chromedp.SetValue(chromedp.ID(id), day),
		chromedp.Evaluate[chromedp.Void](`document.getElementById(`+jsString(id)+`).dispatchEvent(new Event("input"))`))
}

// TestDashboardReviews creates a review, moves it through its states
// with only the valid moves offered, confirms the one that cannot be
// undone, and reads the demo review's responses.
func TestDashboardReviews(t *testing.T) {
	s, b, axe := signedInAt(t, "reviews", "the reviews",
		`document.querySelectorAll("#forms li.card").length > 0`)

	title := "E2E Front desk"
	b.do(chromedp.SendKeys(chromedp.ID("new-form-title"), title), chromedp.Click(chromedp.ID("create-form")))
	card := formCard(title)
	moves := func() string {
		return eval[string](b, `[...`+card+`.querySelectorAll("button[id^=move-]")].map((b) => b.textContent).join(",")`)
	}
	for _, step := range []struct {
		click, status, offered string
	}{
		{"", "draft", "Activate,Archive"},
		{"active", "active", "Pause,Close,Archive"},
		{"paused", "paused", "Activate,Close,Archive"},
	} {
		if step.click != "" {
			b.do(chromedp.Evaluate[chromedp.Void](card + `.querySelector("button[id$=-` + step.click + `]").click()`))
		}
		b.waitFor("the review "+step.status, card+`?.dataset.status === `+jsString(step.status), 10*time.Second)
		if got := moves(); got != step.offered {
			t.Errorf("a %s review offers %q, want %q", step.status, got, step.offered)
		}
	}
	b.do(chromedp.Evaluate[chromedp.Void](card + `.querySelector("button[id$=-closed]").click()`))
	b.waitFor("the confirmation", `document.activeElement?.id === "confirm-move"`, 10*time.Second)
	if got := eval[string](b, card+`.dataset.status`); got != "paused" {
		t.Errorf("before the confirmation the review is %s, want still paused", got)
	}
	pageShots(t, b, axe, "reviews-confirm", "confirm-move")
	b.do(chromedp.Click(chromedp.ID("confirm-move-yes")))
	b.waitFor("the review closed", card+`?.dataset.status === "closed"`, 10*time.Second)
	if got := moves(); got != "Archive" {
		t.Errorf("a closed review offers %q, want only Archive", got)
	}
	pageShots(t, b, axe, "reviews", "")

	submitReviews(t, s, 21)
	demo := `[...document.querySelectorAll("#forms li.card")].find((li) => li.dataset.status === "active")`
	b.do(chromedp.Evaluate[chromedp.Void](demo + `.querySelector("a").click()`))
	b.waitFor("the demo review's responses", `document.querySelectorAll("#responses li.response").length === 20`, 20*time.Second)
	if got := eval[string](b, `document.querySelector("#responses li.response").innerText`); !strings.Contains(got, "Comment\nPaging 21") ||
		!strings.Contains(got, "pager@example.com (may be contacted)") {
		t.Errorf("the newest review response reads %q, want its comment and email", got)
	}
	pageShots(t, b, axe, "review-responses", "")
	status := `document.getElementById("sessions-status").textContent`
	if got := eval[string](b, status); !strings.HasPrefix(got, "Page 1 of 2 · ") {
		t.Errorf("the first page says %q, want Page 1 of 2", got)
	}
	b.do(chromedp.Click(chromedp.ID("responses-older")))
	b.waitFor("the second page", status+`.startsWith("Page 2 of 2 · ") && document.getElementById("responses-older").disabled`, 10*time.Second)
	pageShots(t, b, axe, "review-responses-page2", "responses-title")
	b.do(chromedp.Click(chromedp.ID("responses-newer")))
	b.waitFor("the first page again", status+`.startsWith("Page 1 of 2 · ") && document.getElementById("responses-newer").disabled`, 10*time.Second)
}

// submitReviews sends n responses to the demo review, as visitors' phones
// do, the last with an email that may be contacted.
func submitReviews(t *testing.T, s *server, n int) {
	t.Helper()
	for i := 1; i <= n; i++ {
		rating, comment, consent, email := 1+i%5, fmt.Sprintf("Paging %d", i), i == n, "pager@example.com"
		sub := feedback.Submission{ID: feedback.NewID(), Rating: &rating, Comment: &comment}
		if consent {
			sub.ContactEmail, sub.ContactConsent = &email, &consent
		}
		if _, _, err := s.api.Submit(t.Context(), s.codes[feedback.FormReview], sub); err != nil {
			t.Fatalf("submit a review response: %v", err)
		}
	}
}
