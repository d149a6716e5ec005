package dashboard

import (
	"fmt"
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/feedbackhq/feedback/shared/feedback"
	"github.com/feedbackhq/feedback/shared/i18n"
)

// The preview of the visitor form. The visitor page's own component
// (app/visitor) cannot be mounted here: it owns the document's ids
// ("main", the form's fields), the device's queue of submissions and
// the language links, so the preview is a copy of its survey markup
// (app/visitor/survey.go: a fieldset per question, the same scale,
// choice and check classes of web/style.css, the same words from
// shared/i18n), without the sending.

// renderPreview shows the edited questions as a visitor sees them, in
// the language chosen.
func (p *surveyEditor) renderPreview() app.UI {
	return app.Div().ID("preview").Class("preview").Role("region").Aria("labelledby", "preview-title").Body(
		app.H2().ID("preview-title").Text("Preview"),
		app.Div().Class("filters").Body(app.Div().Body(
			app.Label().For("preview-lang").Text("Language of the preview"),
			app.Select().ID("preview-lang").OnChange(func(ctx app.Context, e app.Event) { p.lang = chosen(ctx) }).Body(
				app.Range(i18n.Languages).Slice(func(k int) app.UI {
					l := i18n.Languages[k]
					return option(l, i18n.Name(l), p.lang == l)
				}),
			),
		)),
		app.Div().Class("visitor-preview").Lang(p.lang).Body(
			app.P().Class("hint").Text("What a visitor sees; answers given here are not sent."),
			app.H3().Text(p.survey.Title),
			app.Range(p.qs).Slice(func(i int) app.UI { return previewQuestion(p.qs[i], i, p.lang) }),
			app.Button().Type("button").Class("primary").Disabled(true).Text(i18n.T(p.lang, "submit")),
		),
	)
}

// previewQuestion renders question q (at place i) as the visitor form
// does, in lang.
func previewQuestion(q feedback.Question, i int, lang string) app.UI {
	name := fmt.Sprintf("pv%d", i)
	label := q.Labels.Label(lang)
	if label == "" {
		label = "(No text yet)"
	}
	if q.Required {
		label += " (" + i18n.T(lang, "required") + ")"
	}
	switch q.Type {
	case feedback.QuestionText:
		return app.P().Body(app.Label().For(name).Text(label),
			app.Textarea().ID(name).Rows(3).MaxLength(feedback.MaxAnswerText))
	case feedback.QuestionMultiChoice:
		return app.FieldSet().Body(app.Legend().Text(label),
			app.Range(q.Options).Slice(func(j int) app.UI {
				id := name + "-" + strconv.Itoa(j)
				return app.Div().Class("check").Body(app.Input().Type("checkbox").ID(id).Name(name),
					app.Label().For(id).Text(optionText(q.Options[j], lang)))
			}))
	}
	cls := "choices"
	if q.Type == feedback.QuestionRating || q.Type == feedback.QuestionNPS {
		cls = "scale"
	}
	cs := previewChoices(q, lang)
	return app.FieldSet().Body(app.Legend().Text(label),
		app.Div().Class(cls).Body(app.Range(cs).Slice(func(j int) app.UI {
			id := name + "-" + strconv.Itoa(j)
			return app.Div().Class("choice").Body(app.Input().Type("radio").ID(id).Name(name),
				app.Label().For(id).Body(app.Span().Text(cs[j])))
		})))
}

// previewChoices are the texts of a one-answer question's choices.
func previewChoices(q feedback.Question, lang string) []string {
	var out []string
	switch q.Type {
	case feedback.QuestionRating:
		for n := 1; n <= 5; n++ {
			out = append(out, strconv.Itoa(n))
		}
	case feedback.QuestionNPS:
		for n := 0; n <= 10; n++ {
			out = append(out, strconv.Itoa(n))
		}
	case feedback.QuestionYesNo:
		out = []string{i18n.T(lang, "yes"), i18n.T(lang, "no")}
	case feedback.QuestionSingleChoice:
		for _, o := range q.Options {
			out = append(out, optionText(o, lang))
		}
	}
	return out
}

// optionText is a choice's text in lang, or a placeholder.
func optionText(o feedback.Option, lang string) string {
	if s := o.Labels.Label(lang); s != "" {
		return s
	}
	return "(No text yet)"
}
