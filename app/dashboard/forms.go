package dashboard

import (
	"net/url"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// What the reviews and surveys pages share: the states a form moves
// through, named for people, and the buttons that move it.

// statusOrder is every state, in the order of a form's life.
var statusOrder = []feedback.Status{feedback.StatusDraft, feedback.StatusActive, feedback.StatusPaused,
	feedback.StatusClosed, feedback.StatusArchived}

// statusNames names each state for people.
var statusNames = map[feedback.Status]string{
	feedback.StatusDraft:    "Draft",
	feedback.StatusActive:   "Active",
	feedback.StatusPaused:   "Paused",
	feedback.StatusClosed:   "Closed",
	feedback.StatusArchived: "Archived",
}

// statusNotes says what each state means for visitors.
var statusNotes = map[feedback.Status]string{
	feedback.StatusDraft:    "Not shown to visitors yet.",
	feedback.StatusActive:   "Visitors can answer it.",
	feedback.StatusPaused:   "Visitors cannot answer it until it is activated again.",
	feedback.StatusClosed:   "Takes no more answers. It can only be archived.",
	feedback.StatusArchived: "Kept for its responses only.",
}

// moveVerbs is the text of the button that moves a form to a state.
var moveVerbs = map[feedback.Status]string{
	feedback.StatusActive:   "Activate",
	feedback.StatusPaused:   "Pause",
	feedback.StatusClosed:   "Close",
	feedback.StatusArchived: "Archive",
}

// moves returns the states a form in state s may move to, as the state
// machine of shared/feedback allows.
func moves(s feedback.Status) []feedback.Status {
	var out []feedback.Status
	for _, next := range statusOrder {
		if s.CanBecome(next) {
			out = append(out, next)
		}
	}
	return out
}

// final reports whether a move to next cannot be undone, so that it is
// confirmed first: a closed form never takes answers again, and an
// archived one never leaves the archive.
func final(next feedback.Status) bool {
	return next == feedback.StatusClosed || next == feedback.StatusArchived
}

// formMove is a status change asked for or under way.
type formMove struct {
	id   string // the form's id
	to   feedback.Status
	busy bool
}

// moveButtons are the buttons that move the form id, named name, out of
// state s; ask is called with the state chosen.
func moveButtons(id, name string, s feedback.Status, ask func(ctx app.Context, to feedback.Status)) []app.UI {
	var out []app.UI
	for _, next := range moves(s) {
		b := app.Button().ID("move-"+id+"-"+string(next)).Type("button").Class("inline").
			Aria("label", moveVerbs[next]+" "+name).Text(moveVerbs[next])
		if final(next) {
			b = b.Class("danger")
		}
		// The scope: go-app keeps a handler of the same code on an element
		// the list reuses for another form, with the old form inside.
		out = append(out, b.OnClick(func(ctx app.Context, e app.Event) { ask(ctx, next) }, app.EventScope(id, next)))
	}
	return out
}

// renderMoveConfirm asks to confirm a move that cannot be undone.
func renderMoveConfirm(name string, m formMove, yes, no func(ctx app.Context)) app.UI {
	text := "Closing it stops all answers at once, and a closed form cannot be activated again; its responses stay."
	if m.to == feedback.StatusArchived {
		text = "Archiving it stops all answers at once and cannot be undone; its responses stay."
	}
	return app.Div().ID("confirm-move").Class("confirm").Role("group").Aria("labelledby", "confirm-move-title").TabIndex(-1).Body(
		app.H3().ID("confirm-move-title").Text(moveVerbs[m.to]+" "+name+"?"),
		app.P().ID("confirm-move-text").Text(text),
		app.Div().Class("buttons").Body(
			disabledIf(app.Button().ID("confirm-move-yes").Type("button").Class("danger", "inline").Text(moveVerbs[m.to]+" "+name), m.busy).
				OnClick(func(ctx app.Context, e app.Event) { yes(ctx) }, app.EventScope(m.id, m.to)),
			app.Button().ID("confirm-move-no").Type("button").Class("inline").Text("Cancel").
				OnClick(func(ctx app.Context, e app.Event) { no(ctx) }, app.EventScope(m.id, m.to)),
		),
	)
}

// statusBadge shows a form's state and what it means.
func statusBadge(s feedback.Status) app.UI {
	return app.Span().Class("form-status", "status-"+string(s)).Text(statusNames[s])
}

// responsesPath returns the responses page of a review or survey.
func responsesPath(slug string, kind feedback.FormKind, id string) string {
	return overviewPath(slug) + "responses?" + string(kind) + "=" + url.QueryEscape(id)
}

// surveyEditPath returns the question editor of survey id.
func surveyEditPath(slug, id string) string {
	return overviewPath(slug) + "survey?id=" + url.QueryEscape(id)
}
