package dashboard

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// saved marks the edit as what the service holds: leaving asks no more.
func (p *surveyEditor) saved() {
	p.dirty, p.leaving = false, ""
	p.guard.disarm()
}

// askLeave shows the confirmation of leaving for href with the changes
// unsaved.
func (p *surveyEditor) askLeave(ctx app.Context, href string) {
	p.leaving = href
	focusLater(ctx, "confirm-leave")
}

// leave drops the unsaved changes and follows the link.
func (p *surveyEditor) leave(ctx app.Context) {
	href := p.leaving
	p.saved()
	ctx.Navigate(href)
}

// stay keeps the person on the page with their changes.
func (p *surveyEditor) stay(ctx app.Context) {
	p.leaving = ""
	focusLater(ctx, "save-questions")
}

// renderLeave asks to confirm leaving with unsaved changes.
func (p *surveyEditor) renderLeave() app.UI {
	if p.leaving == "" {
		return app.If(false, nil)
	}
	return app.Div().ID("confirm-leave").Class("confirm").Role("group").Aria("labelledby", "confirm-leave-title").TabIndex(-1).Body(
		app.H2().ID("confirm-leave-title").Text("Leave without saving?"),
		app.P().ID("confirm-leave-text").Text("The questions have changes that are not saved. Leaving the page loses them."),
		app.Div().Class("buttons").Body(
			app.Button().ID("confirm-leave-yes").Type("button").Class("danger", "inline").Text("Leave without saving").
				OnClick(func(ctx app.Context, e app.Event) { p.leave(ctx) }),
			app.Button().ID("confirm-leave-no").Type("button").Class("inline").Text("Stay and keep editing").
				OnClick(func(ctx app.Context, e app.Event) { p.stay(ctx) }),
		),
	)
}

// renderUnsaved says beside the Save button that the edit is not saved.
func (p *surveyEditor) renderUnsaved() app.UI {
	return app.If(p.dirty, func() app.UI {
		return app.Span().ID("unsaved").Class("unsaved").Text("Unsaved changes")
	})
}
