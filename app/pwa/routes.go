package pwa

import "sync"

// Route patterns. Poster codes are matched by an anchored pattern so that
// nothing else reaches a component (see GOAPP.md on attribute escaping).
const (
	VisitorPattern = `^/q/[A-Za-z0-9_-]{43}$`
	ThanksPattern  = `^/q/[A-Za-z0-9_-]{43}/thanks$`
	KioskPath      = "/kiosk"
	HomePath       = "/"
)

var once sync.Once

// Register registers the routes of the app. The server and the wasm both
// call it (go-app answers 404 for a route the server never registered),
// but each registers its own table: the server only the pages go-app's
// handler serves, whose HTML is the same for every request (the home and
// the kiosk's loading shell); the wasm every page it mounts. Calling it
// again does nothing.
func Register() {
	once.Do(register)
}
