//go:build js && wasm

package pwa

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/feedbackhq/feedback/app/kiosk"
	"github.com/feedbackhq/feedback/app/visitor"
)

// register registers every page the visitors' and kiosks' wasm mounts;
// the dashboard has a build of its own (app/cmd/dashboard).
func register() {
	app.RouteWithRegexp(VisitorPattern, func() app.Composer { return &visitor.Page{} })
	app.RouteWithRegexp(ThanksPattern, func() app.Composer { return &visitor.Thanks{} })
	app.Route(KioskPath, func() app.Composer { return &kiosk.Page{} })
	app.Route(HomePath, func() app.Composer { return &home{} })
}
