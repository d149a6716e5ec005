// Command app is the browser half of the service: the go-app PWA (visitor
// form, kiosk) compiled with GOOS=js GOARCH=wasm into web/app.wasm. The
// server prerenders the same components (see app/pwa), so every page is
// usable before this program has loaded.
package main

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/feedbackhq/feedback/app/pwa"
)

func main() {
	pwa.Register()
	pwa.Start()
	app.RunWhenOnBrowser()
}
