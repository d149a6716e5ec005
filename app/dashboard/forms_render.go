package dashboard

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// Render renders the page: the form that creates one, then the list.
func (p *formsPage) Render() app.UI {
	heading, intro := "Reviews", "A review asks visitors for a star rating and a comment."
	if p.Kind == feedback.FormSurvey {
		heading, intro = "Surveys", "A survey asks visitors a list of questions. Its questions can be edited while it is a draft."
	}
	return app.Section().Class("places", "forms").Body(
		title(heading),
		app.P().Text(intro+" Only an active one takes answers; put it on a poster or a kiosk for visitors to find."),
		writeOr(p.Workspace, "forms-readonly", "Viewers can read the "+p.noun()+"s and their responses; an admin can create them or change their status.", p.renderCreate),
		app.H2().ID("forms-title").Text("Your "+p.noun()+"s"),
		app.P().ID(statusID).Role("status").TabIndex(-1).Text(p.statusText()),
		app.If(p.problem != "", func() app.UI {
			return app.Div().Class("errors").Role("alert").Body(
				app.P().ID("forms-problem").Text(p.problem),
				app.Button().ID("forms-retry").Type("button").Class("inline").Text("Load the "+p.noun()+"s again").
					OnClick(func(ctx app.Context, e app.Event) { p.problem = ""; p.load() }),
			)
		}),
		app.If(p.loaded && len(p.items) > 0, func() app.UI {
			return app.Ul().ID("forms").Class("cards").Body(
				app.Range(p.items).Slice(func(i int) app.UI { return p.renderItem(p.items[i]) }),
			)
		}),
	)
}

func (p *formsPage) statusText() string {
	switch {
	case p.notice != "":
		return p.notice
	case !p.loaded && p.loading:
		return "Loading the " + p.noun() + "s…"
	case p.loaded && len(p.items) == 0:
		if !canWrite(p.Workspace) {
			return "No " + p.noun() + " yet."
		}
		return "No " + p.noun() + " yet. Create the first one above."
	}
	return ""
}

// renderCreate is the form that creates a draft from a title.
func (p *formsPage) renderCreate() app.UI {
	b := app.Button().ID("create-form").Type("submit").Class("primary", "inline").Text("Create the " + p.noun())
	if p.creating {
		b = b.Disabled(true).Text("Creating…")
	}
	hint := "For example: How was your visit?"
	if p.Kind == feedback.FormSurvey {
		hint = "For example: Lobby survey. Visitors see it above the questions."
	}
	return app.Form().ID("new-form").Class("create-form").Aria("labelledby", "new-form-heading").
		OnSubmit(func(ctx app.Context, e app.Event) { e.PreventDefault(); p.create(ctx) }).Body(
		app.H2().ID("new-form-heading").Text("New "+p.noun()),
		problemBox("create-problem", p.createMsg),
		field("new-form-title", "Title", hint, p.createErr["title"], feedback.MaxTitle, func(v string) { p.newTitle = v }),
		b,
	)
}

// renderItem is one form: its title and state, its links and moves.
func (p *formsPage) renderItem(it formItem) app.UI {
	slug := p.Workspace.Slug
	meta := statusNotes[it.status] + " Created " + dateOf(it.created.Time) + "."
	if it.questions >= 0 {
		meta = plural(it.questions, "question", "questions") + " · " + meta
	}
	links := []app.UI{app.A().Class("button", "inline").Href(responsesPath(slug, p.Kind, it.id)).
		Aria("label", "Responses to "+it.title).Text("Responses")}
	if p.Kind == feedback.FormSurvey {
		text := "Questions"
		if it.status == feedback.StatusDraft && canWrite(p.Workspace) {
			text = "Edit the questions"
		}
		links = append(links, app.A().ID("edit-"+it.id).Class("button", "inline").Href(surveyEditPath(slug, it.id)).
			Aria("label", text+" of "+it.title).Text(text))
	}
	ask := func(ctx app.Context, next feedback.Status) { p.ask(ctx, it, next) }
	if canWrite(p.Workspace) {
		links = append(links, moveButtons(it.id, it.title, it.status, ask)...)
	}
	return app.Li().ID("form-"+it.id).Class("card").DataSet("status", string(it.status)).Body(
		app.H3().Body(app.Text(it.title+" "), statusBadge(it.status)),
		app.P().Class("hint").Text(meta),
		app.Div().Class("buttons").Body(links...),
		app.If(p.move.id == it.id && final(p.move.to), func() app.UI {
			return renderMoveConfirm(it.title, p.move,
				func(ctx app.Context) { p.changeStatus(ctx, it) },
				func(ctx app.Context) { p.move = formMove{}; focusLater(ctx, statusID) })
		}),
	)
}
