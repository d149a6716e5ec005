package dashboard

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// Render renders the shell: the header, the live status, then the main
// content for what the shell knows about the user.
func (s *Shell) Render() app.UI {
	return app.Div().ID("dashboard").Class("dashboard").Body(
		s.renderHeader(),
		app.Div().Class("dash-body").Body(
			s.renderNav(),
			app.Div().Class("dash-page").Body(
				s.renderLive(),
				app.Main().ID("main").TabIndex(-1).Body(s.renderMain()),
			),
		),
	)
}

// renderLive is the live status line, present (empty) when no page has
// one so that screen readers announce it when it changes.
func (s *Shell) renderLive() app.UI {
	p := app.P().ID("live-status").Role("status").Aria("live", "polite").Text(s.live)
	if s.live != "" {
		p = p.Class("live-status", liveClass[s.liveState])
	}
	return p
}

// liveClass styles the status line of each state.
var liveClass = map[liveState]string{liveConnecting: "live-connecting", liveOn: "live-on", liveRetrying: "live-retrying",
	liveOffline: "live-offline", liveEnded: "live-ended"}

func (s *Shell) renderMain() app.UI {
	switch s.status {
	case signedOut:
		return s.renderSignedOut()
	case failed:
		return s.renderFailed()
	case ready:
		return app.Div().Body(s.page())
	}
	return app.Section().Body(
		title("Dashboard"),
		app.P().Role("status").Text("Loading the dashboard…"),
		app.NoScript().Body(app.P().Text("The dashboard needs JavaScript. Turn it on, then reload the page.")),
	)
}

// renderFailed says why the dashboard could not load and offers to try
// again.
func (s *Shell) renderFailed() app.UI {
	return app.Section().Body(
		title("The dashboard could not load"),
		app.Div().Class("errors").Role("alert").Body(app.P().ID("load-error").Text(s.problem)),
		app.Button().ID("retry").Type("button").Class("primary").Text("Try again").
			OnClick(func(ctx app.Context, e app.Event) { s.loadMe() }),
	)
}

// page returns the component of the path's page for a signed-in user:
// the route's, or the answers for a workspace they cannot open and for a
// place that has no page.
func (s *Shell) page() app.UI {
	switch {
	case s.route != nil && !s.route.workspace:
		return s.route.page(s)
	case s.route == nil && s.slug == "":
		return &missingPage{}
	case s.workspace() == nil:
		return &noAccessPage{Slug: s.slug, Workspaces: s.me.Workspaces}
	case s.route == nil:
		return &missingPage{Slug: s.slug}
	}
	return s.route.page(s)
}
