package dashboard

import (
	"fmt"
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/feedbackhq/feedback/shared/feedback"
	"github.com/feedbackhq/feedback/shared/i18n"
)

// Render renders the editor beside the preview.
func (p *surveyEditor) Render() app.UI {
	heading := "Survey"
	if p.survey != nil {
		heading = "Survey: " + p.survey.Title
	}
	return app.Section().Class("places", "editor").Body(
		title(heading),
		app.P().Body(app.A().ID("back-to-surveys").Href(overviewPath(p.Workspace.Slug)+"surveys").Text("All surveys")),
		problemBox("survey-problem", p.problem),
		app.If(p.survey == nil && p.problem == "", func() app.UI {
			return app.P().Role("status").Text("Loading the survey…")
		}),
		app.If(p.survey != nil, p.renderBody),
	)
}

// renderBody is the survey's state, its questions and the preview.
func (p *surveyEditor) renderBody() app.UI {
	s := p.survey
	note := "Its questions can be changed while it is a draft. Visitors see each text in their language, or in English when it has none in theirs."
	switch {
	case s.Status != feedback.StatusDraft:
		note = "It is " + lower(statusNames[s.Status]) + ": its questions can no longer change, so that the answers always match them."
	case !canWrite(p.Workspace):
		note = "Viewers can read the questions, in the preview below; an admin can change them while the survey is a draft."
	}
	return app.Div().Body(
		app.P().Body(statusBadge(s.Status), app.Text(" "+note)),
		app.P().Body(app.A().Href(responsesPath(p.Workspace.Slug, feedback.FormSurvey, s.ID)).Text("Responses to this survey")),
		app.P().ID(statusID).Role("status").TabIndex(-1).Text(p.statusText()),
		p.renderLeave(),
		app.Div().Class("editor-columns").Body(
			app.If(p.editable(), p.renderEditor),
			p.renderPreview(),
		),
	)
}

func (p *surveyEditor) statusText() string {
	switch {
	case p.notice != "":
		return p.notice
	case p.dirty:
		return "Unsaved changes."
	}
	return ""
}

// renderEditor is the form of the questions.
func (p *surveyEditor) renderEditor() app.UI {
	save := app.Button().ID("save-questions").Type("submit").Class("primary", "inline").Text("Save the questions")
	if p.saving {
		save = save.Disabled(true).Text("Saving…")
	}
	return app.Form().ID("questions-form").Class("questions").Aria("labelledby", "questions-title").
		OnSubmit(func(ctx app.Context, e app.Event) { e.PreventDefault(); p.save(ctx) }).Body(
		app.H2().ID("questions-title").Text("Questions"),
		problemBox("save-problem", p.saveMsg),
		p.fieldError("questions", "questions-error", "The questions"),
		app.Ol().ID("questions").Class("cards").Body(
			app.Range(p.qs).Slice(func(i int) app.UI { return p.renderQuestion(i) }),
		),
		p.renderAdd(),
		app.Div().Class("buttons").Body(save, p.renderUnsaved()),
	)
}

// fieldError is the service's reason for the field name, if any.
func (p *surveyEditor) fieldError(name, id, what string) app.UI {
	reason := p.errs[name]
	return app.If(reason != "", func() app.UI {
		return app.P().ID(id).Class("field-error").Text(what + " " + reason + ".")
	})
}

// renderAdd adds a question of the type chosen.
func (p *surveyEditor) renderAdd() app.UI {
	return app.Div().Class("add-question").Body(
		app.H3().Text("Add a question"),
		app.Div().Class("buttons").Body(app.Range(questionTypes).Slice(func(k int) app.UI {
			qt := questionTypes[k]
			return app.Button().ID("add-"+string(qt.t)).Type("button").Class("inline").Text(qt.name).
				Aria("label", "Add a question: "+qt.name).
				OnClick(func(ctx app.Context, e app.Event) { p.add(ctx, qt.t) }, app.EventScope(qt.t))
		})),
	)
}

// renderQuestion is question i: its type, its texts, whether it is
// required, its choices, and the buttons that move and remove it.
func (p *surveyEditor) renderQuestion(i int) app.UI {
	q := p.qs[i]
	n := strconv.Itoa(i + 1)
	name := questionName(i)
	return app.Li().ID(fmt.Sprintf("question-%d", i)).Class("card", "question").DataSet("question", q.ID).Body(
		app.H3().ID(fmt.Sprintf("q%d-title", i)).Text("Question "+n),
		app.Div().Class("field").Body(
			app.Label().For(fmt.Sprintf("q%d-type", i)).Text("Type of answer"),
			app.Select().ID(fmt.Sprintf("q%d-type", i)).OnChange(func(ctx app.Context, e app.Event) {
				p.setType(i, feedback.QuestionType(chosen(ctx)))
				p.reshaped()
				p.syncInputs(ctx)
			}, app.EventScope(i)).Body(app.Range(questionTypes).Slice(func(k int) app.UI {
				return option(string(questionTypes[k].t), questionTypes[k].name, q.Type == questionTypes[k].t)
			})),
			p.fieldError(name+".type", fmt.Sprintf("q%d-type-error", i), "The type"),
		),
		p.renderLabels(fmt.Sprintf("q%d-texts", i), "Text of question "+n, name+".labels", q.Labels,
			func(lang string) string { return labelID(i, lang) },
			func(lang, v string) { p.setLabel(i, -1, lang, v) }),
		p.renderRequired(i, q),
		app.If(len(q.Options) > 0 || p.errs[name+".options"] != "", func() app.UI { return p.renderOptions(i, q) }),
		p.renderMoves(i, n),
	)
}

// renderRequired is the required flag of question i.
func (p *surveyEditor) renderRequired(i int, q feedback.Question) app.UI {
	id := fmt.Sprintf("q%d-required", i)
	in := app.Input().Type("checkbox").ID(id).OnChange(func(ctx app.Context, e app.Event) {
		p.qs[i].Required = ctx.JSSrc().Get("checked").Bool()
		p.changed()
	}, app.EventScope(id))
	if q.Required {
		in = in.Checked(true)
	}
	return app.Div().Class("check").Body(in, app.Label().For(id).Text("Visitors must answer it"))
}

// renderLabels is a text in each language of the visitor form: a
// fieldset with an input per language, and the service's reasons.
func (p *surveyEditor) renderLabels(id, legend, name string, l feedback.Labels, inputID func(string) string,
	set func(lang, v string)) app.UI {
	return app.FieldSet().ID(id).Class("labels").Body(
		app.Legend().Text(legend),
		p.fieldError(name, id+"-error", "The text"),
		app.Div().Class("label-grid").Body(app.Range(i18n.Languages).Slice(func(k int) app.UI {
			lang := i18n.Languages[k]
			in := app.Input().Type("text").ID(inputID(lang)).Lang(lang).MaxLength(feedback.MaxLabel).Value(l[lang]).
				OnInput(func(ctx app.Context, e app.Event) { set(lang, ctx.JSSrc().Get("value").String()) }, app.EventScope(inputID(lang)))
			reason := p.errs[name+"."+lang]
			if reason != "" {
				in = in.Aria("invalid", "true").Aria("describedby", inputID(lang)+"-error")
			}
			return app.Div().Class("field").Body(
				app.Label().For(inputID(lang)).Text(i18n.Name(lang)),
				in,
				app.If(reason != "", func() app.UI {
					return app.P().ID(inputID(lang) + "-error").Class("field-error").Text("The " + i18n.Name(lang) + " text " + reason + ".")
				}),
			)
		})),
	)
}

// renderOptions is the choices of question i.
func (p *surveyEditor) renderOptions(i int, q feedback.Question) app.UI {
	n := strconv.Itoa(i + 1)
	return app.Div().Class("options").Body(
		app.H4().Text("Choices of question "+n),
		p.fieldError(questionName(i)+".options", fmt.Sprintf("q%d-options-error", i), "The choices"),
		app.Range(q.Options).Slice(func(j int) app.UI {
			m := strconv.Itoa(j + 1)
			return app.Div().Class("option").Body(
				p.renderLabels(fmt.Sprintf("q%d-o%d", i, j), "Choice "+m+" of question "+n, optionName(i, j)+".labels",
					q.Options[j].Labels, func(lang string) string { return optionID(i, j, lang) },
					func(lang, v string) { p.setLabel(i, j, lang, v) }),
				app.Button().ID(fmt.Sprintf("q%d-o%d-remove", i, j)).Type("button").Class("inline", "danger").
					Text("Remove choice "+m).OnClick(func(ctx app.Context, e app.Event) { p.removeOption(ctx, i, j) }, app.EventScope(i, j)),
			)
		}),
		disabledIf(app.Button().ID(fmt.Sprintf("q%d-add-option", i)).Type("button").Class("inline").
			Text("Add a choice to question "+n), len(q.Options) >= feedback.MaxOptions).
			OnClick(func(ctx app.Context, e app.Event) {
				p.addOption(i)
				p.reshaped()
				p.syncInputs(ctx)
				focusLater(ctx, optionID(i, len(p.qs[i].Options)-1, i18n.Default))
			}, app.EventScope(i)),
	)
}

// renderMoves are the buttons that move question i up and down and
// remove it.
func (p *surveyEditor) renderMoves(i int, n string) app.UI {
	return app.Div().Class("buttons").Body(
		disabledIf(app.Button().ID(moveID(i, -1)).Type("button").Class("inline").Aria("label", "Move question "+n+" up").
			Text("↑ Up"), i == 0).OnClick(func(ctx app.Context, e app.Event) { p.move(ctx, i, -1) }, app.EventScope(moveID(i, -1))),
		disabledIf(app.Button().ID(moveID(i, 1)).Type("button").Class("inline").Aria("label", "Move question "+n+" down").
			Text("↓ Down"), i == len(p.qs)-1).OnClick(func(ctx app.Context, e app.Event) { p.move(ctx, i, 1) }, app.EventScope(moveID(i, 1))),
		disabledIf(app.Button().ID(fmt.Sprintf("q%d-remove", i)).Type("button").Class("inline", "danger").
			Text("Remove question "+n), len(p.qs) == 1).OnClick(func(ctx app.Context, e app.Event) { p.remove(ctx, i) }, app.EventScope("remove", i)),
	)
}
