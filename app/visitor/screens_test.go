package visitor_test

import (
	"html"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/feedbackhq/feedback/app/visitor"
	"github.com/feedbackhq/feedback/shared/feedback"
	"github.com/feedbackhq/feedback/shared/i18n"
)

// TestPageRefusalInPageLanguage: the reasons the service's own rules give
// are listed in the page's language, field names included.
func TestPageRefusalInPageLanguage(t *testing.T) {
	rating := 2
	comment := strings.Repeat("x", 601)
	sub := feedback.Submission{ID: feedback.NewID(), Rating: &rating, Comment: &comment}
	err := sub.Validate(feedback.FormHygiene, nil, time.Now())
	p := &visitor.Page{Code: code, Lang: "de", ID: feedback.NewID(), View: hygiene(), Errors: feedback.ErrorParams(err)}
	html := render(t, p)
	for _, want := range []string{"Bitte prüfen Sie Ihre Angaben", "Kommentar: darf höchstens 500 Zeichen lang sein (jetzt 601)"} {
		if !strings.Contains(html, want) {
			t.Errorf("the German refusal lacks %q:\n%s", want, html)
		}
	}
	if alert := between(html, `role="alert"`, "</ul>"); strings.Contains(alert, "must be") || strings.Contains(alert, "comment:") {
		t.Errorf("the German refusal lists English:\n%s", alert)
	}

	sv := &feedback.Survey{Title: "Umfrage", Questions: []feedback.Question{
		{ID: "r", Type: feedback.QuestionRating, Required: true, Labels: feedback.Labels{"en": "Rate us", "es": "Valórenos"}}}}
	sub = feedback.Submission{ID: feedback.NewID()}
	err = sub.Validate(feedback.FormSurvey, sv, time.Now())
	html = render(t, &visitor.Page{Code: code, Lang: "es", ID: feedback.NewID(),
		View: &feedback.FormView{Form: feedback.FormSurvey, Survey: sv}, Errors: feedback.ErrorParams(err)})
	if !strings.Contains(html, "Valórenos: es obligatorio") {
		t.Errorf("a missing answer is not named by its question in Spanish:\n%s", between(html, `role="alert"`, "</ul>"))
	}
}

// TestPageFormPostsItsLanguage: without the wasm the browser posts the
// form to its action, which names the page's language.
func TestPageFormPostsItsLanguage(t *testing.T) {
	html := render(t, &visitor.Page{Code: code, Lang: "de", ID: feedback.NewID(), View: hygiene()})
	if !strings.Contains(html, `action="/q/`+code+`?lang=de"`) {
		t.Errorf("the German form posts to another address:\n%s", between(html, "<form", ">"))
	}
}

// TestOptionalQuestionsAreNotRequired: a browser refuses to submit a form
// with a required radio group left empty, so only required questions
// may be marked required.
func TestOptionalQuestionsAreNotRequired(t *testing.T) {
	labels := feedback.Labels{"en": "Q"}
	opts := []feedback.Option{{ID: "a", Labels: labels}, {ID: "b", Labels: labels}}
	var qs []feedback.Question
	for _, typ := range []feedback.QuestionType{feedback.QuestionRating, feedback.QuestionNPS, feedback.QuestionSingleChoice, feedback.QuestionYesNo, feedback.QuestionText} {
		for _, req := range []bool{true, false} {
			q := feedback.Question{ID: string(typ) + "-" + strconv.FormatBool(req), Type: typ, Required: req, Labels: labels}
			if typ == feedback.QuestionSingleChoice {
				q.Options = opts
			}
			qs = append(qs, q)
		}
	}
	p := &visitor.Page{Code: code, Lang: "en", ID: feedback.NewID(),
		View: &feedback.FormView{Form: feedback.FormSurvey, Survey: &feedback.Survey{Title: "S", Questions: qs}}}
	html := render(t, p)
	for _, q := range qs {
		for _, tag := range regexp.MustCompile(`<(?:input|textarea)[^>]*name="q\.`+regexp.QuoteMeta(q.ID)+`"[^>]*>`).FindAllString(html, -1) {
			if got := strings.Contains(tag, " required"); got != q.Required {
				t.Errorf("question %s (required %v) renders %s", q.ID, q.Required, tag)
			}
		}
	}
}

// TestPageWithoutForm: a page that has no form definition (an offline
// copy of the app's shell) says so instead of failing.
func TestPageWithoutForm(t *testing.T) {
	for _, v := range []*feedback.FormView{nil, {Form: feedback.FormSurvey}, {Form: feedback.FormReview}, {Form: "quiz"}} {
		html := render(t, &visitor.Page{Code: code, Lang: "fr", View: v})
		if !strings.Contains(html, "Ce formulaire n&#39;est pas encore sur cet appareil") || strings.Contains(html, "<form") {
			t.Errorf("a page with view %+v renders:\n%s", v, html)
		}
	}
}

// TestScalesAreDrawn: the faces and stars are inline SVG, never emoji or
// text glyphs a device may lack, and a review's stars are named with the
// right plural.
func TestScalesAreDrawn(t *testing.T) {
	hyg := render(t, &visitor.Page{Code: code, Lang: "en", ID: feedback.NewID(), View: hygiene()})
	rev := render(t, &visitor.Page{Code: code, Lang: "en", ID: feedback.NewID(),
		View: &feedback.FormView{Form: feedback.FormReview, Review: &feedback.Review{Title: "Coffee"}}})
	for name, html := range map[string]string{"hygiene": hyg, "review": rev} {
		for _, r := range html {
			if r >= 0x2600 && r != 0xFFFD {
				t.Errorf("the %s form draws with the character %q", name, r)
				break
			}
		}
		if n := strings.Count(between(html, `class="scale`, "</fieldset>"), "<svg"); n != 5 {
			t.Errorf("the %s scale has %d drawings, want 5", name, n)
		}
	}
	if !strings.Contains(rev, ">1 star<") || !strings.Contains(rev, ">4 stars<") || strings.Contains(rev, "1 stars") {
		t.Errorf("the review's stars are misnamed:\n%s", between(rev, `class="scale`, "</fieldset>"))
	}
}

// between returns the part of s from the first from to the next to.
func between(s, from, to string) string {
	_, rest, _ := strings.Cut(s, from)
	part, _, _ := strings.Cut(rest, to)
	return part
}

// TestOutcomeThanksOnce: the outcome of a submission thanks the visitor
// once, whatever became of it.
func TestOutcomeThanksOnce(t *testing.T) {
	for _, lang := range i18n.Languages {
		for _, state := range []visitor.SendState{visitor.Waiting, visitor.Sent, visitor.Failed} {
			p := &visitor.Page{Lang: lang, View: hygiene()}
			p.ShowOutcome(state)
			out := render(t, p)
			title := html.EscapeString(i18n.T(lang, "thanks_title"))
			if n := strings.Count(out, title); n != 1 {
				t.Errorf("%s, state %d: %q appears %d times:\n%s", lang, state, title, n, out)
			}
		}
	}
}

// TestQueueShownOnEveryScreen: what waits on the device is counted on the
// form and on a page without its form, as it is after a submission.
func TestQueueShownOnEveryScreen(t *testing.T) {
	want := i18n.Tf("de", "waiting", 2)
	form, bare, outcome := &visitor.Page{Lang: "de", View: hygiene()}, &visitor.Page{Lang: "de"}, &visitor.Page{Lang: "de"}
	outcome.ShowOutcome(visitor.Waiting)
	for name, p := range map[string]*visitor.Page{"form": form, "no form": bare, "outcome": outcome} {
		p.SetQueued(2)
		if out := render(t, p); strings.Count(out, want) != 1 {
			t.Errorf("the %s screen does not say %q once:\n%s", name, want, out)
		}
	}
	// The line is there when nothing waits, empty: the live region must
	// exist before its text changes, and a line that came and went would
	// make go-app remount the form below it.
	if out := render(t, &visitor.Page{Lang: "de", View: hygiene()}); !regexp.MustCompile(`<p [^>]*id="queued"[^>]*></p>`).MatchString(out) {
		t.Errorf("a page with nothing waiting has no empty queue line:\n%s", out)
	}
	kiosk := &visitor.Page{Lang: "de", Kiosk: true, View: hygiene()}
	kiosk.SetQueued(2)
	if strings.Contains(render(t, kiosk), want) {
		t.Error("the kiosk's form counts the queue; the kiosk's footer does")
	}
}
