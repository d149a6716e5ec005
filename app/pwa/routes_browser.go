//go:build js && wasm

package pwa

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/feedbackhq/feedback/app/dashboard"
	"github.com/feedbackhq/feedback/app/kiosk"
	"github.com/feedbackhq/feedback/app/visitor"
)

// register registers every page the wasm mounts.
func register() {
	app.RouteWithRegexp(VisitorPattern, func() app.Composer { return &visitor.Page{} })
	app.RouteWithRegexp(ThanksPattern, func() app.Composer { return &visitor.Thanks{} })
	app.Route(KioskPath, func() app.Composer { return &kiosk.Page{} })
	app.Route(HomePath, func() app.Composer { return &home{} })
	// One component type for both: go-app keeps it mounted, with the
	// signed-in user, when the person moves between them.
	app.RouteWithRegexp(dashboard.WorkspacePattern, func() app.Composer { return &dashboard.Page{} })
	app.RouteWithRegexp(dashboard.SettingsPattern, func() app.Composer { return &dashboard.Page{} })
}
