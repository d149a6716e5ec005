package visitor

import (
	"context"
	"encoding/json"
	"strings"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/feedbackhq/feedback/shared/feedback"
	"github.com/feedbackhq/feedback/shared/i18n"
)

// OnInit adopts the prerendered page in the browser: go-app replaces the
// server's DOM instead of hydrating it, so the form definition and
// whatever the visitor typed before the wasm loaded are read back here,
// before the old DOM goes away.
func (p *Page) OnInit() {
	if !app.IsClient || p.View != nil || p.Problem != "" {
		return
	}
	doc := app.Window().Get("document")
	u := app.Window().URL()
	p.Code = codeOf(u.Path)
	p.Lang = pageLanguage(u.Query().Get("lang"), doc.Get("documentElement").Get("lang").String())
	main := doc.Call("getElementById", "main")
	if main.Truthy() {
		if problem := main.Call("getAttribute", "data-problem"); problem.Truthy() {
			p.Problem = problem.String()
			return
		}
	}
	if el := doc.Call("getElementById", FormViewID); el.Truthy() {
		var v feedback.FormView
		if json.Unmarshal([]byte(el.Get("textContent").String()), &v) == nil {
			p.View = &v
		}
	}
	if el := doc.Call("getElementById", ErrorsID); el.Truthy() {
		p.Errors = parseErrors(el.Get("textContent").String())
	}
	p.adoptForm(doc.Call("getElementById", "feedback-form"))
	if p.ID == "" || used(p.ID) {
		p.ID = feedback.NewID() // a cached page must not reuse a sent id
	}
}

// pageLanguage picks the page's language: the URL's ?lang= first, then
// the language the page was rendered in. A page the service worker
// answered with the app's shell was rendered in the default language,
// but its URL still names the visitor's.
func pageLanguage(query, rendered string) string {
	for _, l := range []string{query, rendered} {
		if lang, ok := i18n.Normalize(l); ok {
			return lang
		}
	}
	return i18n.Default
}

// codeOf returns the poster code of a /q/{code} path.
func codeOf(path string) string {
	rest := strings.TrimPrefix(path, "/q/")
	code, _, _ := strings.Cut(rest, "/")
	return code
}

// adoptForm reads every field of the prerendered form.
func (p *Page) adoptForm(form app.Value) {
	if !form.Truthy() {
		return
	}
	fields := form.Get("elements")
	f := map[string][]string{}
	for i := 0; i < fields.Length(); i++ {
		el := fields.Index(i)
		name, typ := el.Get("name").String(), el.Get("type").String()
		if name == "" || ((typ == "radio" || typ == "checkbox") && !el.Get("checked").Bool()) {
			continue
		}
		if v := el.Get("value").String(); v != "" {
			f[name] = append(f[name], v)
		}
	}
	if ids := f[feedback.FieldID]; len(ids) > 0 {
		p.ID = ids[0]
	}
	if sub, err := feedback.SubmissionFromForm(f, p.surveyDef()); err == nil {
		p.Values = ValuesOf(&sub)
	}
	if p.Values.Answers == nil {
		p.Values.Answers = map[string][]string{}
	}
}

func (p *Page) surveyDef() *feedback.Survey {
	if p.View == nil {
		return nil
	}
	return p.View.Survey
}

// OnMount follows the outbox, so the outcome line stays current.
func (p *Page) OnMount(ctx app.Context) {
	p.mounted = &ctx
	if outbox == nil {
		return
	}
	p.stopWatch = outbox.Watch(func() { ctx.Dispatch(func(app.Context) { p.refresh() }) })
	p.refresh()
}

// OnDismount stops following the outbox.
func (p *Page) OnDismount() {
	if p.stopWatch != nil {
		p.stopWatch()
	}
}

// refresh reads the queue's state for the outcome line.
func (p *Page) refresh() {
	if outbox == nil {
		return
	}
	p.queued, p.refused = outbox.Pending(), outbox.Refused()
	if p.sentID != "" {
		p.state = outbox.State(p.sentID)
	}
}

// onSubmit validates with the server's own rules, stores the submission in
// the outbox before any network attempt, and shows the outcome. Without an
// outbox, or when storing fails, the browser posts the form as it would
// without the wasm, so nothing is lost.
func (p *Page) onSubmit(ctx app.Context, e app.Event) {
	if outbox == nil && p.Submitted == nil {
		return // the form posts itself
	}
	e.PreventDefault()
	body, ok := p.validSubmission()
	if !ok {
		return
	}
	if p.Submitted != nil {
		p.Submitted(p.ID, body)
		return
	}
	// Answer through the page's context, not the event's: go-app drops a
	// dispatch whose element is gone, and the form can be re-rendered
	// while the submission is stored.
	page := ctx
	if p.mounted != nil {
		page = *p.mounted
	}
	id, url := p.ID, "/q/"+p.Code
	ctx.Async(func() {
		err := outbox.Submit(context.Background(), url, id, body)
		page.Dispatch(func(app.Context) {
			if err != nil {
				app.Log("the submission could not be stored on the device; posting the form:", err)
				postNatively() // the server dedupes by id
				return
			}
			markUsed(id)
			p.sent, p.sentID, p.Errors = true, id, nil
			p.refresh()
		})
	})
}

// postNatively posts the form as the browser would without the wasm.
func postNatively() {
	if form := app.Window().GetElementByID("feedback-form"); form.Truthy() {
		form.Call("submit")
	}
}

// validSubmission builds the submission from the form's values with the
// server's own decoder and rules, and reports whether it is valid; the
// problems are shown above the form otherwise.
func (p *Page) validSubmission() ([]byte, bool) {
	now := time.Now()
	sub, err := feedback.SubmissionFromForm(p.Values.Form(p.ID, p.Lang), p.surveyDef())
	if err == nil {
		at := feedback.NewTime(now)
		sub.CapturedAt = &at
		err = sub.Validate(p.View.Form, p.surveyDef(), now)
	}
	if err != nil {
		p.Errors = feedback.ErrorParams(err)
		return nil, false
	}
	body, _ := json.Marshal(sub)
	return body, true
}

// again resets the page for another submission with a fresh id.
func (p *Page) again(ctx app.Context, e app.Event) {
	p.sent, p.sentID, p.ID = false, "", feedback.NewID()
	p.Values = Values{Answers: map[string][]string{}}
}

// OnNav follows the language links in the browser: go-app keeps this
// component for ?lang= on the same path, so the language changes in place
// and what the visitor typed stays.
func (p *Page) OnNav(ctx app.Context) {
	if !app.IsClient {
		return
	}
	if l, ok := i18n.Normalize(ctx.Page().URL().Query().Get("lang")); ok && l != p.Lang {
		p.Lang = l
		app.Window().Get("document").Get("documentElement").Set("lang", l)
	}
}
