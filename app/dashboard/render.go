package dashboard

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// IDs of the elements that the focus moves to and that tests look for.
const (
	titleID  = "page-title"
	statusID = "sessions-status"
)

// Render renders the page: a header, then the main content for what the
// page knows about the user.
func (p *Page) Render() app.UI {
	return app.Div().ID("dashboard").Class("dashboard").Body(
		p.renderHeader(),
		app.Main().ID("main").Body(p.renderMain()),
	)
}

func (p *Page) renderMain() app.UI {
	switch p.status {
	case signedOut:
		return p.renderSignedOut()
	case failed:
		return p.renderFailed()
	case ready:
		return p.renderReady()
	}
	return app.Section().Body(
		title("Dashboard"),
		app.P().Role("status").Text("Loading the dashboard…"),
		app.NoScript().Body(app.P().Text("The dashboard needs JavaScript. Turn it on, then reload the page.")),
	)
}

// title is the page's heading, which the focus moves to after an in-app
// navigation.
func title(text string) app.UI {
	return app.H1().ID(titleID).TabIndex(-1).Text(text)
}

// renderFailed says why the dashboard could not load and offers to try
// again.
func (p *Page) renderFailed() app.UI {
	return app.Section().Body(
		title("The dashboard could not load"),
		app.Div().Class("errors").Role("alert").Body(app.P().ID("load-error").Text(p.problem)),
		app.Button().ID("retry").Type("button").Class("primary").Text("Try again").
			OnClick(func(ctx app.Context, e app.Event) { p.loadMe() }),
	)
}

func (p *Page) renderReady() app.UI {
	return app.Div().Body(p.renderSection())
}

func (p *Page) renderSection() app.UI {
	switch {
	case p.section == security:
		return p.renderSecurity()
	case p.section == missing && p.slug == "":
		return p.renderMissing()
	case p.workspace() == nil:
		return p.renderNoAccess()
	case p.section == missing:
		return p.renderMissing()
	}
	return p.renderOverview()
}
