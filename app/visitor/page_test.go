package visitor_test

import (
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/feedbackhq/feedback/app/visitor"
	"github.com/feedbackhq/feedback/shared/feedback"
)

const code = "AaIA6bRfeMuYUGN4HJpZ-cijtwIJFNb5lzYvl9vsN9o"

// render mounts c in go-app's test engine and returns its HTML.
func render(t *testing.T, c app.Composer) string {
	t.Helper()
	e := app.NewTestEngine()
	if err := e.Load(c); err != nil {
		t.Fatal(err)
	}
	e.ConsumeAll()
	return app.HTMLString(c)
}

func hygiene() *feedback.FormView {
	return &feedback.FormView{Form: feedback.FormHygiene, LocationName: "Restroom <1st floor>"}
}

func TestPageHygiene(t *testing.T) {
	p := &visitor.Page{Code: code, Lang: "de", ID: feedback.NewID(), View: hygiene()}
	html := render(t, p)
	for _, want := range []string{
		"Wie sauber ist es hier?", "Restroom &lt;1st floor&gt;", `action="/q/` + code + `?lang=de"`, `method="post"`,
		`value="` + p.ID + `"`, "Sehr schmutzig", "Sehr sauber", `value="no_soap"`, "Keine Seife",
		`name="comment"`, "Deutsch", `id="form-view"`,
	} {
		if !strings.Contains(html, want) {
			t.Errorf("the hygiene page lacks %q", want)
		}
	}
	if n := strings.Count(html, `type="radio"`); n != 5 {
		t.Errorf("%d rating buttons; want 5", n)
	}
	if strings.Contains(html, "checked") {
		t.Error("a fresh form has a checked input")
	}
	if err := app.Match(app.Main().ID("main").Class("visitor"), p.Render()); err != nil {
		t.Errorf("the page is not a <main>: %v", err)
	}
}

func TestPageKeepsValues(t *testing.T) {
	email := "ann@example.com"
	p := &visitor.Page{Code: code, Lang: "en", ID: feedback.NewID(),
		View:   &feedback.FormView{Form: feedback.FormReview, Review: &feedback.Review{Title: "Coffee"}},
		Errors: []feedback.InvalidParam{{Name: "rating", Reason: "is required"}},
		Values: visitor.Values{Rating: 4, Comment: "Great <b>coffee</b>", Email: email, Consent: true}}
	html := render(t, p)
	for _, want := range []string{"Rating: is required", "Great &lt;b&gt;coffee&lt;/b&gt;", `value="` + email + `"`} {
		if !strings.Contains(html, want) {
			t.Errorf("the re-rendered form lacks %q", want)
		}
	}
	if strings.Count(html, "checked") != 2 { // the fourth star and the consent box
		t.Errorf("want 2 checked inputs:\n%s", html)
	}
}

// TestPageAttributesAreSafe: go-app writes attribute values with
// strconv.Quote, not HTML escaping, so visitor text must never reach an
// attribute unchecked.
func TestPageAttributesAreSafe(t *testing.T) {
	evil := `x" autofocus onfocus="alert(1)`
	p := &visitor.Page{Code: code, Lang: "en", ID: evil,
		View:   &feedback.FormView{Form: feedback.FormReview, Review: &feedback.Review{Title: evil}},
		Values: visitor.Values{Email: evil, Comment: evil}}
	html := render(t, p)
	if strings.Contains(html, `onfocus="`) {
		t.Errorf("visitor text reached an attribute:\n%s", html)
	}
}

func TestPageSurvey(t *testing.T) {
	en := func(s string) feedback.Labels { return feedback.Labels{"en": s, "fr": s + " (fr)"} }
	sv := &feedback.Survey{Title: "Survey", Questions: []feedback.Question{
		{ID: "r", Type: feedback.QuestionRating, Required: true, Labels: en("Rate")},
		{ID: "n", Type: feedback.QuestionNPS, Labels: en("Recommend")},
		{ID: "s", Type: feedback.QuestionSingleChoice, Labels: en("One"), Options: []feedback.Option{{ID: "a", Labels: en("A")}, {ID: "b", Labels: en("B")}}},
		{ID: "m", Type: feedback.QuestionMultiChoice, Labels: en("Many"), Options: []feedback.Option{{ID: "a", Labels: en("A")}, {ID: "b", Labels: en("B")}}},
		{ID: "t", Type: feedback.QuestionText, Required: true, Labels: en("Text")},
		{ID: "y", Type: feedback.QuestionYesNo, Labels: en("Yes?")},
	}}
	p := &visitor.Page{Code: code, Lang: "fr", ID: feedback.NewID(), View: &feedback.FormView{Form: feedback.FormSurvey, Survey: sv},
		Values: visitor.Values{Answers: map[string][]string{"m": {"b"}, "n": {"10"}}}}
	html := render(t, p)
	checks := map[string]int{`name="q.r"`: 5, `name="q.n"`: 11, `name="q.s"`: 2, `name="q.m"`: 2, `name="q.t"`: 1, `name="q.y"`: 2}
	for name, n := range checks {
		if got := strings.Count(html, name); got != n {
			t.Errorf("%s appears %d times; want %d", name, got, n)
		}
	}
	for _, want := range []string{"Rate (fr)", "Oui", `type="checkbox"`, "(obligatoire)"} {
		if !strings.Contains(html, want) {
			t.Errorf("the survey lacks %q", want)
		}
	}
	if strings.Count(html, "checked") != 2 {
		t.Errorf("want the answers m=b and n=10 checked")
	}
}

func TestPageProblem(t *testing.T) {
	for code, want := range map[string]string{
		feedback.ENotFound:      "This QR code is not valid",
		feedback.EPosterRevoked: "no longer in use",
		feedback.EFormNotActive: "not accepting feedback",
		feedback.ERateLimited:   "Too many submissions",
		feedback.EInternal:      "Something went wrong",
	} {
		html := render(t, &visitor.Page{Lang: "en", Problem: code})
		if !strings.Contains(html, want) || !strings.Contains(html, `data-problem="`+code+`"`) || strings.Contains(html, "<form") {
			t.Errorf("problem %s renders:\n%s", code, html)
		}
	}
}

func TestThanks(t *testing.T) {
	html := render(t, &visitor.Thanks{Code: code, Lang: "es"})
	if !strings.Contains(html, "¡Gracias!") || !strings.Contains(html, `href="/q/`+code+`?lang=es"`) {
		t.Errorf("thanks page:\n%s", html)
	}
}

func TestValuesRoundTrip(t *testing.T) {
	rating, comment, consent, email := 2, "c", true, "a@b.co"
	sub := feedback.Submission{ID: feedback.NewID(), Rating: &rating, Comment: &comment, ContactConsent: &consent, ContactEmail: &email}
	v := visitor.ValuesOf(&sub)
	back, err := feedback.SubmissionFromForm(v.Form(sub.ID, "en"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if *back.Rating != 2 || *back.Comment != "c" || !*back.ContactConsent || *back.ContactEmail != email || back.Language != "en" {
		t.Errorf("round trip lost values: %+v", back)
	}
}
