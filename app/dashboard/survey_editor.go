package dashboard

import (
	"context"
	"fmt"
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/feedbackhq/feedback/shared/client"
	"github.com/feedbackhq/feedback/shared/feedback"
	"github.com/feedbackhq/feedback/shared/i18n"
)

// surveyEditor is the question editor of a survey at
// /w/{slug}/survey?id=ID: while the survey is a draft, its questions of
// every type with their texts in each language of the visitor form, the
// required flag, the choices of choice questions and their order, beside
// a preview of the visitor form; once active, the questions read only.
type surveyEditor struct {
	app.Compo
	requests
	Shell     *Shell
	Workspace *feedback.Membership

	api     *client.Client
	id      string
	survey  *feedback.Survey
	qs      []feedback.Question // the questions being edited
	lang    string              // the language of the preview
	problem string              // why the survey could not be read
	notice  string
	dirty   bool       // qs differs from what was saved
	guard   leaveGuard // asks before leaving while dirty
	leaving string     // the link followed while dirty, to confirm

	saving  bool
	errs    map[string]string // the service's reasons, by field name
	saveMsg string
}

// questionTypes are the types a question can have, in the order offered,
// with their names for people.
var questionTypes = []struct {
	t    feedback.QuestionType
	name string
}{
	{feedback.QuestionRating, "Rating, 1 to 5"},
	{feedback.QuestionNPS, "Recommendation, 0 to 10"},
	{feedback.QuestionSingleChoice, "One choice"},
	{feedback.QuestionMultiChoice, "Several choices"},
	{feedback.QuestionYesNo, "Yes or no"},
	{feedback.QuestionText, "Free text"},
}

// OnMount reads the survey named by ?id=.
func (p *surveyEditor) OnMount(ctx app.Context) {
	p.mount(ctx)
	p.lang = i18n.Default
	if !app.IsClient || p.Workspace == nil {
		return
	}
	p.api = workspaceAPI(p.Workspace)
	p.id = ctx.Page().URL().Query().Get("id")
	p.load()
}

// OnDismount cancels the page's requests and lets the tab go.
func (p *surveyEditor) OnDismount() {
	p.dismount()
	p.guard.disarm()
}

// load reads the survey and starts the edit from its questions.
func (p *surveyEditor) load() {
	id := p.id
	p.async(func(c context.Context) func(app.Context) {
		s, err := p.api.Survey(c, id)
		err = explain(err)
		return func(ctx app.Context) {
			switch {
			case p.Shell.gone(err):
			case err != nil:
				p.problem = "The survey could not be loaded: " + err.Error()
			default:
				p.survey, p.qs, p.problem = s, copyQuestions(s.Questions), ""
				p.saved()
				p.syncInputs(ctx)
			}
		}
	})
}

// editable reports whether the questions can be changed: only a
// draft's, by a role that may change the workspace.
func (p *surveyEditor) editable() bool {
	return p.survey != nil && p.survey.Status == feedback.StatusDraft && canWrite(p.Workspace)
}

// copyQuestions is a deep copy of qs, for editing.
func copyQuestions(qs []feedback.Question) []feedback.Question {
	out := make([]feedback.Question, len(qs))
	for i, q := range qs {
		out[i] = q
		out[i].Labels = copyLabels(q.Labels)
		out[i].Options = make([]feedback.Option, len(q.Options))
		for j, o := range q.Options {
			out[i].Options[j] = feedback.Option{ID: o.ID, Labels: copyLabels(o.Labels)}
		}
	}
	return out
}

func copyLabels(l feedback.Labels) feedback.Labels {
	out := feedback.Labels{}
	for k, v := range l {
		out[k] = v
	}
	return out
}

// changed marks the edit unsaved: leaving the page asks first.
func (p *surveyEditor) changed() {
	p.dirty, p.notice = true, ""
	p.guard.arm(p.ui, p.askLeave)
}

// reshaped marks the edit unsaved after questions or choices moved, were
// added or removed: the reasons of a refusal name places that no longer
// hold what they held.
func (p *surveyEditor) reshaped() { p.changed(); p.errs, p.saveMsg = nil, "" }

// add appends a question of type t with a fresh id.
func (p *surveyEditor) add(ctx app.Context, t feedback.QuestionType) {
	q := feedback.Question{ID: freshID("q", len(p.qs), func(id string) bool { return p.hasQuestion(id) }),
		Type: t, Labels: feedback.Labels{}}
	p.qs = append(p.qs, q)
	p.setType(len(p.qs)-1, t)
	p.reshaped()
	p.notice = "Added question " + strconv.Itoa(len(p.qs)) + "."
	p.syncInputs(ctx)
	focusLater(ctx, labelID(len(p.qs)-1, i18n.Default))
}

func (p *surveyEditor) hasQuestion(id string) bool {
	for _, q := range p.qs {
		if q.ID == id {
			return true
		}
	}
	return false
}

// freshID is prefix and the smallest number above n not taken: ids of
// questions and options stay unique whatever was moved or removed.
func freshID(prefix string, n int, taken func(string) bool) string {
	for i := n + 1; ; i++ {
		if id := prefix + strconv.Itoa(i); !taken(id) {
			return id
		}
	}
}

// setType changes question i to type t: a choice question gets two empty
// choices when it has none, any other loses its choices.
func (p *surveyEditor) setType(i int, t feedback.QuestionType) {
	q := &p.qs[i]
	q.Type = t
	if t != feedback.QuestionSingleChoice && t != feedback.QuestionMultiChoice {
		q.Options = nil
		return
	}
	for len(q.Options) < 2 {
		p.addOption(i)
	}
}

// addOption appends an empty choice to question i.
func (p *surveyEditor) addOption(i int) {
	q := &p.qs[i]
	id := freshID("o", len(q.Options), func(id string) bool {
		for _, o := range q.Options {
			if o.ID == id {
				return true
			}
		}
		return false
	})
	q.Options = append(q.Options, feedback.Option{ID: id, Labels: feedback.Labels{}})
}

// move moves question i by d (-1 up, +1 down) and keeps the focus on the
// button pressed, on the question's new place.
func (p *surveyEditor) move(ctx app.Context, i, d int) {
	j := i + d
	if j < 0 || j >= len(p.qs) {
		return
	}
	p.qs[i], p.qs[j] = p.qs[j], p.qs[i]
	p.reshaped()
	p.notice = fmt.Sprintf("Moved question %d to place %d.", i+1, j+1)
	p.syncInputs(ctx)
	btn := moveID(j, d)
	if j == 0 || j == len(p.qs)-1 {
		btn = moveID(j, -d) // the pressed one is disabled there
	}
	focusLater(ctx, btn)
}

// remove deletes question i.
func (p *surveyEditor) remove(ctx app.Context, i int) {
	p.qs = append(p.qs[:i:i], p.qs[i+1:]...)
	p.reshaped()
	p.notice = "Removed question " + strconv.Itoa(i+1) + ". Save the questions to keep the change."
	p.syncInputs(ctx)
	focusLater(ctx, statusID)
}

// removeOption deletes choice j of question i.
func (p *surveyEditor) removeOption(ctx app.Context, i, j int) {
	q := &p.qs[i]
	q.Options = append(q.Options[:j:j], q.Options[j+1:]...)
	p.reshaped()
	p.syncInputs(ctx)
	focusLater(ctx, fmt.Sprintf("q%d-add-option", i))
}

// setLabel sets the text of question i (option j, or -1) in lang.
func (p *surveyEditor) setLabel(i, j int, lang, text string) {
	l := p.qs[i].Labels
	if j >= 0 {
		l = p.qs[i].Options[j].Labels
	}
	if text == "" {
		delete(l, lang)
	} else {
		l[lang] = text
	}
	p.changed()
}

// save replaces the survey's questions with the edited ones.
func (p *surveyEditor) save(ctx app.Context) {
	if p.saving || !p.editable() {
		return
	}
	p.saving, p.errs, p.saveMsg, p.notice = true, nil, "", ""
	qs := copyQuestions(p.qs)
	p.async(func(c context.Context) func(app.Context) {
		s, err := p.api.UpdateSurvey(c, p.id, feedback.SurveyInput{Questions: &qs})
		return func(ctx app.Context) {
			p.saving = false
			if err != nil {
				p.errs = fieldErrors(err)
				p.Shell.refused(explain(err), "The questions were not saved: ", func(msg string) {
					p.saveMsg = msg
					if len(p.errs) > 0 {
						p.saveMsg += " See the fields marked below."
					}
					focusLater(ctx, "save-problem")
				})
				return
			}
			p.survey, p.qs = s, copyQuestions(s.Questions)
			p.saved()
			p.notice = "Saved " + plural(len(s.Questions), "question", "questions") + "."
			p.syncInputs(ctx)
			focusLater(ctx, statusID)
		}
	})
}

// syncInputs writes the edited texts and choices into the inputs after
// the next render: go-app diffs the list by place, and an input a
// person typed in keeps its text when only its attribute changes
// (GOAPP.md section 6), so a moved or removed question would leave its
// texts behind.
func (p *surveyEditor) syncInputs(ctx app.Context) {
	ctx.Defer(func(app.Context) {
		doc := app.Window().Get("document")
		set := func(id, prop string, v any) {
			if el := doc.Call("getElementById", id); el.Truthy() {
				el.Set(prop, v)
			}
		}
		for i, q := range p.qs {
			set(fmt.Sprintf("q%d-type", i), "value", string(q.Type))
			set(fmt.Sprintf("q%d-required", i), "checked", q.Required)
			for _, lang := range i18n.Languages {
				set(labelID(i, lang), "value", q.Labels[lang])
				for j, o := range q.Options {
					set(optionID(i, j, lang), "value", o.Labels[lang])
				}
			}
		}
	})
}

// The ids of the editor's inputs, and the names the service gives their
// values in a refusal.
func labelID(i int, lang string) string     { return fmt.Sprintf("q%d-label-%s", i, lang) }
func optionID(i, j int, lang string) string { return fmt.Sprintf("q%d-o%d-%s", i, j, lang) }
func moveID(i, d int) string {
	if d < 0 {
		return fmt.Sprintf("q%d-up", i)
	}
	return fmt.Sprintf("q%d-down", i)
}
func questionName(i int) string  { return fmt.Sprintf("questions[%d]", i) }
func optionName(i, j int) string { return fmt.Sprintf("questions[%d].options[%d]", i, j) }
