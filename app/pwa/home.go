package pwa

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/feedbackhq/feedback/shared/i18n"
)

// home is the root page: the shell the service worker falls back to, and
// what a visitor sees without a poster code.
type home struct {
	app.Compo
}

// Render renders the page.
func (h *home) Render() app.UI {
	return app.Main().ID("main").Class("visitor").Body(
		app.Section().Class("message").Body(
			app.H1().Text(i18n.T(i18n.Default, "home_title")),
			app.P().Text(i18n.T(i18n.Default, "home_body")),
		),
	)
}
