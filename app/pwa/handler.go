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

// Resources resolves static resource paths as they are: the server serves
// /web/ from its own file system, so go-app must not (its default lists
// directories and proxies robots.txt through the Host header).
type Resources struct{}

// Resolve returns path unchanged.
func (Resources) Resolve(path string) string { return path }
