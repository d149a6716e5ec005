package visitor

import (
	"encoding/json"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/feedbackhq/feedback/shared/feedback"
	"github.com/feedbackhq/feedback/shared/i18n"
)

// errorList says why a submission was refused, field by field, in the
// page's language.
func (p *Page) errorList() app.UI {
	return app.Div().Class("errors").Role("alert").Body(
		app.H2().Text(p.t("error_title")),
		app.Ul().Body(app.Range(p.Errors).Slice(func(i int) app.UI {
			return app.Li().Text(p.fieldName(p.Errors[i].Name) + ": " + p.reason(p.Errors[i]))
		})),
	)
}

// fieldName names a field of the submission in the page's language: a
// survey answer by its question, a tag ("tags[1]") as the tags.
func (p *Page) fieldName(name string) string {
	if id, ok := strings.CutPrefix(name, "answers."); ok {
		if q := p.questionByID(id); q != nil {
			return q.Labels.Label(p.Lang)
		}
	}
	base, _, _ := strings.Cut(name, "[")
	if key := "field_" + base; i18n.T(p.Lang, key) != key {
		return i18n.T(p.Lang, key)
	}
	return name
}

// reason says why param was refused in the page's language, or in
// English when its reason is not one of the rules.
func (p *Page) reason(param feedback.InvalidParam) string {
	key := "reason_" + param.Rule
	if param.Rule == "" || i18n.T(p.Lang, key) == key {
		return param.Reason
	}
	args := make([]any, len(param.Args))
	for i, a := range param.Args {
		args[i] = a
	}
	return i18n.Tf(p.Lang, key, args...)
}

func (p *Page) questionByID(id string) *feedback.Question {
	if sv := p.surveyDef(); sv != nil {
		for i := range sv.Questions {
			if sv.Questions[i].ID == id {
				return &sv.Questions[i]
			}
		}
	}
	return nil
}

// pageError is a refused field as the page carries it for the wasm,
// rule and arguments included, which the API never sends.
type pageError struct {
	Name   string   `json:"name"`
	Reason string   `json:"reason"`
	Rule   string   `json:"rule,omitempty"`
	Args   []string `json:"args,omitempty"`
}

// errorsJSON encodes the refused fields for the hidden element; go-app
// escapes it as text.
func errorsJSON(params []feedback.InvalidParam) string {
	out := make([]pageError, len(params))
	for i, e := range params {
		out[i] = pageError(e)
	}
	b, _ := json.Marshal(out)
	return string(b)
}

// parseErrors decodes what errorsJSON encoded.
func parseErrors(s string) []feedback.InvalidParam {
	var in []pageError
	if json.Unmarshal([]byte(s), &in) != nil {
		return nil
	}
	out := make([]feedback.InvalidParam, len(in))
	for i, e := range in {
		out[i] = feedback.InvalidParam(e)
	}
	return out
}
