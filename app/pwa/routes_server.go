//go:build !(js && wasm)

package pwa

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/feedbackhq/feedback/app/components"
)

// register registers the pages go-app's handler prerenders on the server.
// The kiosk is its loading shell, which the wasm replaces: the server
// links no kiosk, offline queue or browser code.
func register() {
	app.Route(HomePath, func() app.Composer { return &home{} })
	app.Route(KioskPath, func() app.Composer { return &kioskShell{} })
}

// Start does nothing on the server.
func Start() {}

// kioskShell is the kiosk as the server prerenders it.
type kioskShell struct {
	app.Compo
}

// Render renders the loading screen in the kiosk's frame.
func (k *kioskShell) Render() app.UI {
	return app.Div().ID("kiosk").Class("kiosk").Body(components.KioskLoading())
}
