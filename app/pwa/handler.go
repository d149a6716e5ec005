package pwa

import (
	_ "embed"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// workerJS is the service worker template: go-app fills in {{.Version}}
// and {{.ResourcesToCache}}.
//
//go:embed worker.js
var workerJS string

// Static resources of the app, served by the server under /web/.
const (
	StylePath = "/web/style.css"
	IconPath  = "/web/icon.svg"
	WasmPath  = "/web/app.wasm"
	// DashboardWasmPath is the dashboard's own build (app/cmd/dashboard),
	// which visitors and kiosks never download.
	DashboardWasmPath = "/web/dashboard.wasm"
)

// The scripts that load a build: go-app's app.js, with the path of the
// wasm written into it. Visitor, kiosk and home pages load AppScript;
// the dashboard's pages DashboardScript, the app.js of the handler
// [NewDashboardHandler] returns, which the server serves at that path.
const (
	AppScript       = "/app.js"
	DashboardScript = "/dashboard.js"
)

// Config is what the server knows about the build it serves.
type Config struct {
	// Version is the build id: the hash of app.wasm, the same on every
	// replica, so that clients update once per build, not per restart.
	Version string
	// WasmSize is the uncompressed size of app.wasm in bytes, for the
	// progress label: the file is served compressed.
	WasmSize string
}

// NewHandler returns the go-app handler that serves the app's own
// resources (app.js, wasm_exec.js, app.css, the manifest, the service
// worker) and the pages without per-request data (the home and the
// kiosk). The server serves /web/ itself and prerenders the visitor pages.
func NewHandler(c Config) *app.Handler {
	return &app.Handler{
		Name:        "Feedback",
		ShortName:   "Feedback",
		Title:       "Feedback",
		Description: "Give feedback on the place you are in: no app, no account.",
		Lang:        "en",
		Icon: app.Icon{
			Default:  "/web/icon-192.png",
			Large:    "/web/icon-512.png",
			Maskable: "/web/icon-maskable.png",
			SVG:      IconPath,
		},
		BackgroundColor: "#f6f7f9",
		ThemeColor:      "#0b57d0",
		LoadingLabel:    "{progress}%",
		Styles:          []string{StylePath},
		// go-app precaches the PNG icons, not the SVG one the pages link.
		CacheableResources:    []string{IconPath},
		Version:               c.Version,
		WasmContentLength:     c.WasmSize,
		ServiceWorkerTemplate: workerJS,
		Resources:             Resources{},
	}
}

// NewDashboardHandler returns the go-app handler of the dashboard's
// build, configured by c: the server serves only its app.js, at
// [DashboardScript], which loads [DashboardWasmPath] and registers the
// same service worker as the rest of the app (that of [NewHandler]).
func NewDashboardHandler(c Config) *app.Handler {
	h := NewHandler(c)
	h.Resources = Resources{Wasm: DashboardWasmPath}
	return h
}

// Resources resolves static resource paths as they are: the server serves
// /web/ from its own file system, so go-app must not (its default lists
// directories and proxies robots.txt through the Host header). Only
// go-app's own wasm path can be sent elsewhere, to another build.
type Resources struct {
	// Wasm is the path of the build app.js loads; "" means WasmPath.
	Wasm string
}

// Resolve returns path unchanged, but WasmPath as r.Wasm when it is set.
func (r Resources) Resolve(path string) string {
	if path == WasmPath && r.Wasm != "" {
		return r.Wasm
	}
	return path
}
