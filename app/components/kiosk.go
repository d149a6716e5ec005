package components

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/feedbackhq/feedback/shared/i18n"
)

// KioskLoading is the kiosk's screen before the wasm runs: the server
// prerenders it at /kiosk, and the kiosk shows it until it has read its
// settings.
func KioskLoading() app.UI {
	return app.Main().Class("kiosk-screen").Body(
		app.H1().Text(i18n.T(i18n.Default, "kiosk_loading")),
		app.NoScript().Body(app.P().Text(i18n.T(i18n.Default, "kiosk_needs_js"))),
	)
}
