package pwa

import (
	"sync"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/feedbackhq/feedback/app/dashboard"
	"github.com/feedbackhq/feedback/app/kiosk"
	"github.com/feedbackhq/feedback/app/visitor"
)

// Route patterns. Poster codes are matched by an anchored pattern so that
// nothing else reaches a component (see GOAPP.md on attribute escaping).
const (
	VisitorPattern = `^/q/[A-Za-z0-9_-]{43}$`
	ThanksPattern  = `^/q/[A-Za-z0-9_-]{43}/thanks$`
	KioskPath      = "/kiosk"
	HomePath       = "/"
	// The dashboard: a workspace and every path below it, and the
	// user's security settings (see app/dashboard).
	WorkspacePattern = dashboard.WorkspacePattern
	SecurityPath     = dashboard.SecurityPath
	SettingsPattern  = dashboard.SettingsPattern
)

var once sync.Once

// Register registers every route of the app. The server and the wasm both
// call it; calling it again does nothing.
func Register() {
	once.Do(func() {
		app.RouteWithRegexp(VisitorPattern, func() app.Composer { return &visitor.Page{} })
		app.RouteWithRegexp(ThanksPattern, func() app.Composer { return &visitor.Thanks{} })
		app.Route(KioskPath, func() app.Composer { return &kiosk.Page{} })
		app.Route(HomePath, func() app.Composer { return &home{} })
		// One component type for both: go-app keeps it mounted, with the
		// signed-in user, when the person moves between them.
		app.RouteWithRegexp(WorkspacePattern, func() app.Composer { return &dashboard.Page{} })
		app.RouteWithRegexp(SettingsPattern, func() app.Composer { return &dashboard.Page{} })
	})
}
