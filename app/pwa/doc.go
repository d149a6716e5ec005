// Package pwa is the one door between the server and the app. The
// server imports no other package of app/: it registers the route table
// (see [Register]), configures go-app's handler with [NewHandler], and
// prerenders the pages it answers itself through the render functions
// ([VisitorForm], [VisitorThanks], [VisitorProblem], [Dashboard]).
//
// The package builds twice. For the server (any GOOS but js) it
// registers only the pages go-app's handler serves, the home and the
// kiosk's loading shell, and links no kiosk, offline queue or browser
// code. For the browser (js/wasm) it registers every page the wasm
// mounts and [Start] wires the offline queue to them; the service
// worker that replaces go-app's default one is served from here too.
//
// It imports no server package and no net/http client code beyond what
// go-app itself needs, so the wasm build stays small.
package pwa
