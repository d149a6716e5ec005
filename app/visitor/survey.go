package visitor

import (
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/feedbackhq/feedback/shared/feedback"
)

func (p *Page) surveyFields() app.UI {
	qs := p.View.Survey.Questions
	return app.Div().Body(
		app.Range(qs).Slice(func(i int) app.UI { return p.question(qs[i]) }),
	)
}

// question renders one survey question as the input its type needs.
func (p *Page) question(q feedback.Question) app.UI {
	name := feedback.AnswerFieldPrefix + q.ID
	label := q.Labels.Label(p.Lang)
	answer := p.Values.Answers[q.ID]
	set := func(vals []string) {
		if p.Values.Answers == nil {
			p.Values.Answers = map[string][]string{}
		}
		p.Values.Answers[q.ID] = vals
	}
	switch q.Type {
	case feedback.QuestionText:
		text := ""
		if len(answer) > 0 {
			text = answer[0]
		}
		return p.textarea(name, label+requiredMark(p, q.Required), feedback.MaxAnswerText, text, q.Required,
			func(s string) { set([]string{s}) })
	case feedback.QuestionMultiChoice:
		return p.group(q, label, app.Range(q.Options).Slice(func(i int) app.UI {
			o := q.Options[i]
			return p.checkbox("q-"+q.ID+"-"+o.ID, name, o.ID, o.Labels.Label(p.Lang), has(answer, o.ID),
				func(on bool) { set(toggle(p.Values.Answers[q.ID], o.ID, on)) })
		}))
	}
	choices := p.choices(q)
	return p.group(q, label, app.Div().Class(scaleClass(q.Type)).Body(
		app.Range(choices).Slice(func(i int) app.UI {
			c := choices[i]
			return p.radio("q-"+q.ID+"-"+c.value, name, c.value, q.Required, has(answer, c.value),
				func() { set([]string{c.value}) }, app.Span().Text(c.label))
		}),
	))
}

func scaleClass(t feedback.QuestionType) string {
	if t == feedback.QuestionRating || t == feedback.QuestionNPS {
		return "scale"
	}
	return "choices"
}

type choice struct{ value, label string }

// choices lists the values of a one-answer question.
func (p *Page) choices(q feedback.Question) []choice {
	var out []choice
	switch q.Type {
	case feedback.QuestionRating:
		for n := 1; n <= 5; n++ {
			out = append(out, choice{strconv.Itoa(n), strconv.Itoa(n)})
		}
	case feedback.QuestionNPS:
		for n := 0; n <= 10; n++ {
			out = append(out, choice{strconv.Itoa(n), strconv.Itoa(n)})
		}
	case feedback.QuestionYesNo:
		out = []choice{{"yes", p.t("yes")}, {"no", p.t("no")}}
	case feedback.QuestionSingleChoice:
		for _, o := range q.Options {
			out = append(out, choice{o.ID, o.Labels.Label(p.Lang)})
		}
	}
	return out
}

// group wraps the choices of a question in a fieldset with its legend.
func (p *Page) group(q feedback.Question, label string, body app.UI) app.UI {
	return app.FieldSet().Body(
		app.Legend().Text(label+requiredMark(p, q.Required)),
		body,
	)
}

func requiredMark(p *Page, required bool) string {
	if !required {
		return ""
	}
	return " (" + p.t("required") + ")"
}
