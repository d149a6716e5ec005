package visitor

import (
	"encoding/json"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/feedbackhq/feedback/shared/feedback"
	"github.com/feedbackhq/feedback/shared/i18n"
)

// Page is the visitor form of one poster. The server sets the exported
// fields and prerenders it; in the browser the wasm mounts a zero Page,
// which adopts them from the prerendered DOM in OnInit.
type Page struct {
	app.Compo

	Code    string             // the poster code of the URL
	Lang    string             // the page language, one of i18n.Languages
	ID      string             // the submission id made when the form was rendered
	View    *feedback.FormView // what the form asks
	Problem string             // an error code shown instead of the form
	Errors  []feedback.InvalidParam
	Values  Values

	// Kiosk renders the form for a kiosk: no language links and no post
	// to a poster; a valid submission goes to Submitted instead.
	Kiosk     bool
	Submitted func(id string, body []byte)

	sent      bool      // the browser stored a submission: show the outcome
	sentID    string    // the id of that submission
	state     SendState // what became of it
	queued    int       // submissions still waiting on this device
	refused   []Refusal // submissions the service refused
	stopWatch func()
	mounted   *app.Context // the page's own context, from OnMount
	// touched is set once the visitor changes a choice in the browser:
	// the inputs hold the choices from then on, and a render no longer
	// writes them. go-app runs a handler after its event, so a render
	// could write a choice the visitor's next key press has replaced:
	// three quick arrow presses chose the third face, not the fourth.
	touched bool
}

// CompoID makes go-app mount a fresh form, with fresh inputs, for every
// new submission id: an edited input cannot be cleared by a re-render.
func (p *Page) CompoID() string { return p.ID }

// FormViewID and ErrorsID are the ids of the hidden elements that carry
// the form definition and the reasons of a refusal as JSON text, for the
// wasm to read back.
const (
	FormViewID = "form-view"
	ErrorsID   = "form-errors"
)

// Render renders the page. Whatever it lacks, it never fails: a page
// without its form (an offline copy of another page) says so in words,
// and the device's queue is shown on every screen.
func (p *Page) Render() app.UI {
	main := app.Main().ID("main").Class("visitor")
	if p.Problem != "" {
		main = main.DataSet("problem", p.Problem) // an error code: the wasm shows the same message
	}
	return main.Body(
		app.If(!p.Kiosk, func() app.UI { return languageLinks(p.Lang, "/q/"+p.Code) }),
		app.If(!p.Kiosk, func() app.UI { return p.renderQueued() }),
		p.renderScreen(),
		app.If(len(p.refused) > 0, func() app.UI { return p.renderRefused() }),
	)
}

func (p *Page) renderScreen() app.UI {
	switch {
	case p.Problem != "":
		return p.renderProblem()
	case p.sent:
		return p.renderOutcome()
	case !p.hasForm():
		return p.renderUnavailable()
	}
	return p.renderForm()
}

// hasForm reports whether the page knows the form it shows.
func (p *Page) hasForm() bool {
	switch {
	case p.View == nil:
		return false
	case p.View.Form == feedback.FormReview:
		return p.View.Review != nil
	case p.View.Form == feedback.FormSurvey:
		return p.View.Survey != nil
	}
	return p.View.Form == feedback.FormHygiene
}

func (p *Page) t(key string) string { return i18n.T(p.Lang, key) }

func (p *Page) renderProblem() app.UI {
	return app.Section().Class("message").Body(
		app.H1().Text(p.t("problem_title")),
		app.P().Text(p.t(problemKey(p.Problem))),
	)
}

// problemKey maps an error code to the catalogue key of its message.
func problemKey(code string) string {
	switch code {
	case feedback.EPosterRevoked, feedback.EFormNotActive, feedback.ERateLimited:
		return code
	case feedback.ENotFound:
		return "invalid_code"
	}
	return "problem_body"
}

// renderUnavailable stands in for a form the page does not have: offline,
// the service worker answers a page it holds no copy of with the app's
// shell, which carries no form.
func (p *Page) renderUnavailable() app.UI {
	return app.Section().Class("message").Body(
		app.H1().Text(p.t("unavailable_title")),
		app.P().Text(p.t("unavailable_body")),
	)
}

// renderQueued says how many submissions wait on this device, unless the
// outcome of a submission says it. The line is always there, empty when
// nothing waits: a live region is announced only if it exists before its
// text changes, and go-app matches children by position, so a line that
// came and went would remount the form below it, focus and all.
func (p *Page) renderQueued() app.UI {
	text := ""
	if p.queued > 0 && !p.sent {
		text = i18n.Tf(p.Lang, "waiting", p.queued)
	}
	return app.P().ID("queued").Class("hint").Role("status").Text(text)
}

func (p *Page) renderForm() app.UI {
	heading := p.heading()
	return app.Div().Body(
		app.If(p.View.Form != feedback.FormSurvey, func() app.UI { return app.Raw(sprite) }),
		app.P().Class("place").Text(p.View.LocationName),
		app.H1().ID("form-title").Text(heading),
		app.If(len(p.Errors) > 0, func() app.UI { return p.errorList() }),
		app.Form().ID("feedback-form").Method("post").Action(p.action()).
			Aria("labelledby", "form-title").OnSubmit(p.onSubmit).Body(
			app.Input().Type("hidden").Name(feedback.FieldID).Value(attrSafe(p.ID)),
			app.Input().Type("hidden").Name(feedback.FieldLanguage).Value(p.Lang),
			p.renderFields(heading),
			app.P().Body(app.Button().Type("submit").Class("primary").Text(p.t("submit"))),
		),
		app.Div().ID(FormViewID).Hidden(true).Text(viewJSON(p.View)),
		app.If(len(p.Errors) > 0, func() app.UI { return app.Div().ID(ErrorsID).Hidden(true).Text(errorsJSON(p.Errors)) }),
	)
}

// action is where the form posts without the wasm: the page's language
// goes along, so that a refusal comes back in it.
func (p *Page) action() string {
	a := "/q/" + p.Code
	if l, ok := i18n.Normalize(p.Lang); ok {
		a += "?lang=" + l
	}
	return a
}

func (p *Page) heading() string {
	switch {
	case p.View.Review != nil:
		return p.View.Review.Title
	case p.View.Survey != nil:
		return p.View.Survey.Title
	}
	return p.t("hygiene_title")
}

func (p *Page) renderFields(heading string) app.UI {
	switch p.View.Form {
	case feedback.FormHygiene:
		return p.hygieneFields(heading)
	case feedback.FormReview:
		return p.reviewFields()
	}
	return p.surveyFields()
}

// viewJSON encodes the form definition for the hidden element; go-app
// escapes it as text, and the browser's textContent unescapes it.
func viewJSON(v *feedback.FormView) string {
	b, _ := json.Marshal(v)
	return string(b)
}
