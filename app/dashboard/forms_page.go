package dashboard

import (
	"context"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/feedbackhq/feedback/shared/client"
	"github.com/feedbackhq/feedback/shared/feedback"
)

// formsPage is a workspace's reviews at /w/{slug}/reviews or its surveys
// at /w/{slug}/surveys (Kind): the list with each form's state, a form
// that creates one from a title, the status moves the state machine
// allows (those that cannot be undone confirmed first), and links to the
// responses and, for a draft survey, to its questions.
type formsPage struct {
	app.Compo
	requests
	Shell     *Shell
	Workspace *feedback.Membership
	Kind      feedback.FormKind // FormReview or FormSurvey

	api     *client.Client
	items   []formItem
	loaded  bool
	loading bool
	notice  string
	problem string

	newTitle  string
	creating  bool
	createErr map[string]string
	createMsg string

	move formMove // the status change asked for
}

// formItem is a review or a survey as the list shows it.
type formItem struct {
	id, title string
	status    feedback.Status
	questions int // a survey's; -1 for a review
	created   feedback.Time
}

// OnMount reads the list.
func (p *formsPage) OnMount(ctx app.Context) {
	p.mount(ctx)
	if !app.IsClient || p.Workspace == nil {
		return
	}
	p.api = workspaceAPI(p.Workspace)
	p.load()
}

// OnDismount cancels the page's requests.
func (p *formsPage) OnDismount() { p.dismount() }

// noun is what the page lists, in the singular.
func (p *formsPage) noun() string {
	if p.Kind == feedback.FormSurvey {
		return "survey"
	}
	return "review"
}

// load reads the forms (a page of the most recent).
func (p *formsPage) load() {
	if p.loading {
		return
	}
	p.loading = true
	p.async(func(c context.Context) func(app.Context) {
		items, err := p.read(c)
		return func(ctx app.Context) {
			p.loading = false
			if p.failed(err) {
				return
			}
			p.items, p.loaded, p.problem = items, true, ""
		}
	})
}

// read lists the forms of the page's kind.
func (p *formsPage) read(c context.Context) ([]formItem, error) {
	var out []formItem
	if p.Kind == feedback.FormSurvey {
		page, err := p.api.Surveys(c, allOf)
		if err != nil {
			return nil, explain(err)
		}
		for _, s := range page.Data {
			out = append(out, formItem{s.ID, s.Title, s.Status, len(s.Questions), s.CreatedAt})
		}
		return out, nil
	}
	page, err := p.api.Reviews(c, allOf)
	if err != nil {
		return nil, explain(err)
	}
	for _, r := range page.Data {
		out = append(out, formItem{r.ID, r.Title, r.Status, -1, r.CreatedAt})
	}
	return out, nil
}

// failed handles a read's error and reports whether there was one.
func (p *formsPage) failed(err error) bool {
	return p.Shell.refused(err, "The "+p.noun()+"s could not be loaded: ", func(msg string) { p.problem = msg })
}

// starterQuestion is the one question a new survey starts with, since a
// survey holds at least one; the editor changes it.
func starterQuestion() []feedback.Question {
	return []feedback.Question{{ID: "q1", Type: feedback.QuestionRating, Required: true,
		Labels: feedback.Labels{"en": "Overall, how satisfied are you?"}}}
}

// create adds a draft form with the title typed.
func (p *formsPage) create(ctx app.Context) {
	if p.creating {
		return
	}
	p.creating, p.createErr, p.createMsg, p.notice = true, nil, "", ""
	title, kind := p.newTitle, p.Kind
	p.async(func(c context.Context) func(app.Context) {
		var id string
		var err error
		if kind == feedback.FormSurvey {
			var s *feedback.Survey
			if s, err = p.api.CreateSurvey(c, title, starterQuestion()); err == nil {
				id = s.ID
			}
		} else {
			var r *feedback.Review
			if r, err = p.api.CreateReview(c, title); err == nil {
				id = r.ID
			}
		}
		return func(ctx app.Context) { p.created(ctx, id, err) }
	})
}

// created tells what became of a creation.
func (p *formsPage) created(ctx app.Context, id string, err error) {
	p.creating = false
	if err != nil {
		p.Shell.refusedForm(ctx, err, "The "+p.noun()+" was not created: ", "new-form-title", &p.createErr, &p.createMsg)
		return
	}
	p.newTitle = ""
	clearInput("new-form-title")
	p.notice = "Created the " + p.noun() + " as a draft. Activate it when it is ready for visitors."
	if p.Kind == feedback.FormSurvey {
		p.notice = "Created the survey as a draft, with one rating question. Edit its questions, then activate it."
	}
	focusLater(ctx, statusID)
	p.load()
}

// ask asks for the move of item to next, at once unless it is final.
func (p *formsPage) ask(ctx app.Context, it formItem, next feedback.Status) {
	p.move, p.notice = formMove{id: it.id, to: next}, ""
	if final(next) {
		focusLater(ctx, "confirm-move")
		return
	}
	p.changeStatus(ctx, it)
}

// changeStatus sends the move asked for.
func (p *formsPage) changeStatus(ctx app.Context, it formItem) {
	if p.move.busy {
		return
	}
	p.move.busy = true
	to, kind := p.move.to, p.Kind
	p.async(func(c context.Context) func(app.Context) {
		var err error
		if kind == feedback.FormSurvey {
			_, err = p.api.UpdateSurvey(c, it.id, feedback.SurveyInput{Status: &to})
		} else {
			_, err = p.api.UpdateReview(c, it.id, feedback.ReviewInput{Status: &to})
		}
		err = explain(err)
		return func(ctx app.Context) {
			p.move = formMove{}
			switch {
			case p.Shell.gone(err):
				return
			case err != nil:
				p.notice = "The " + p.noun() + " " + it.title + " was not changed: " + err.Error()
			default:
				p.notice = it.title + " is now " + lower(statusNames[to]) + ". " + statusNotes[to]
			}
			focusLater(ctx, statusID)
			p.load()
		}
	})
}

// lower is s with its first letter in lower case (the names are ASCII).
func lower(s string) string {
	if s == "" || s[0] < 'A' || s[0] > 'Z' {
		return s
	}
	return string(s[0]+'a'-'A') + s[1:]
}
