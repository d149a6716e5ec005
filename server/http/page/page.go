// Package page writes the HTML pages that the server prerenders from
// go-app components, in the document go-app's own pages have (its head,
// styles, scripts and loader), and the site's page of an unknown path;
// [CSP] is the Content-Security-Policy of every page.
package page

import (
	"bytes"
	"html/template"
	"net/http"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/feedbackhq/feedback/app/pwa"
)

// notFoundTemplate is the page of a path that names nothing; it holds no
// text of the request.
var notFoundTemplate = template.Must(template.New("404").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>Page not found · Feedback</title>
<link rel="icon" href="/web/icon.svg"><link rel="stylesheet" href="{{.}}"></head>
<body><main class="signin"><h1>Page not found</h1>
<p>There is no page at this address. If you followed a QR code, scan it again; if you typed the address, check it.</p>
<p><a href="/">Go to the start page</a></p></main></body></html>
`))

// NotFound answers 404 with a readable page in the site's style.
func NotFound(w http.ResponseWriter) {
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Security-Policy", CSP)
	w.WriteHeader(http.StatusNotFound)
	_ = notFoundTemplate.Execute(w, pwa.StylePath)
}

// shell is the document around a prerendered component: the same head as
// go-app's own pages (its styles, scripts, manifest and loader), with the
// component as the first child of the body, where the wasm mounts its own.
var shell = template.Must(template.New("shell").Parse(`<!doctype html>
<html lang="{{.Lang}}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">
<meta name="theme-color" content="#0b57d0">
<meta name="robots" content="noindex">
<title>{{.Title}}</title>
<link rel="icon" href="/web/icon.svg">
<link rel="apple-touch-icon" href="/web/icon-maskable.png">
<link rel="manifest" href="/manifest.webmanifest">
<link rel="stylesheet" type="text/css" href="/app.css">
<link rel="stylesheet" type="text/css" href="{{.Style}}">
<script defer src="/wasm_exec.js"></script>
<script defer src="{{.Script}}"></script>
</head>
<body>
{{.Body}}
<aside id="app-wasm-loader" class="goapp-app-info"><img id="app-wasm-loader-icon" class="goapp-logo goapp-spin" alt="" src="/web/icon.svg"><p id="app-wasm-loader-label" class="goapp-label"></p></aside>
</body>
</html>
`))

// Render writes a prerendered go-app component of the visitors' and
// kiosks' build (app.wasm) as a full page.
func Render(w http.ResponseWriter, status int, lang, title string, c app.UI) {
	render(w, status, lang, title, pwa.AppScript, c)
}

// RenderDashboard writes a prerendered component of the dashboard's
// build (dashboard.wasm, loaded by its own app.js) as a full page.
func RenderDashboard(w http.ResponseWriter, status int, lang, title string, c app.UI) {
	render(w, status, lang, title, pwa.DashboardScript, c)
}

// render writes a prerendered go-app component as a full page that
// loads the build of script.
func render(w http.ResponseWriter, status int, lang, title, script string, c app.UI) {
	var buf bytes.Buffer
	err := shell.Execute(&buf, struct {
		Lang, Title, Style, Script string
		Body                       template.HTML
	}{lang, title, pwa.StylePath, script, template.HTML(app.HTMLString(c))}) // go-app escapes text; see the component for attributes
	if err != nil {
		http.Error(w, "The page could not be rendered.", http.StatusInternalServerError)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Set("Content-Language", lang)
	h.Set("Content-Security-Policy", CSP)
	w.WriteHeader(status)
	_, _ = w.Write(buf.Bytes())
}

// CSP allows what go-app needs: its scripts from this origin, the
// wasm ('wasm-unsafe-eval'), inline style attributes it sets, and fetches
// to this origin only.
const CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'; " +
	"img-src 'self' data:; connect-src 'self'; worker-src 'self'; manifest-src 'self'; form-action 'self'; " +
	"frame-ancestors 'none'; base-uri 'none'; object-src 'none'"
