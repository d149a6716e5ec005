// Command dashboard is the dashboard's own WebAssembly build,
// web/dashboard.wasm: the signed-in pages (app/dashboard) and nothing of
// the visitors' and kiosks' build (app), which therefore never download
// it. The server prerenders its shell (see app/pwa) and serves go-app's
// app.js for it at pwa.DashboardScript.
package main

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/feedbackhq/feedback/app/dashboard"
)

func main() {
	dashboard.Register()
	app.RunWhenOnBrowser()
}
