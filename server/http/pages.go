package http

import (
	"bytes"
	"html/template"
	"net/http"

	"github.com/go-chi/chi/v5"
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/feedbackhq/feedback/app/pwa"
)

// registerAppRoutes serves go-app's own resources and its static pages
// (the home and the kiosk), whose HTML is the same for every request,
// and the dashboard's pages.
func (s *Server) registerAppRoutes(r chi.Router) {
	for _, p := range []string{"/app.js", "/wasm_exec.js", "/app.css", "/app-worker.js", "/manifest.webmanifest", pwa.HomePath, pwa.KioskPath} {
		r.Get(p, s.goapp.ServeHTTP)
	}
	r.Get("/w/{slug}", s.handleWorkspaceRoot)
	r.Get("/w/{slug}/*", s.handleDashboard)
	r.Get("/settings", s.handleDashboard)
	r.Get("/settings/*", s.handleDashboard)
}

// handleDashboard handles "GET /w/{slug}/..." and "GET /settings/...":
// the dashboard's shell in its loading state, the same for every
// visitor; the wasm asks the API who is signed in. A path the route
// pattern refuses is a 404, so that only checked text reaches the page;
// so is a path it accepts that has no page, in the dashboard's own
// frame.
func (s *Server) handleDashboard(w http.ResponseWriter, r *http.Request) {
	p, ok := pwa.Dashboard(r.URL.Path)
	if !ok {
		s.notFound(w, r)
		return
	}
	status := http.StatusOK
	if !p.Found {
		status = http.StatusNotFound
	}
	renderApp(w, status, "en", p.Title, p.Body)
}

// handleWorkspaceRoot handles "GET /w/{slug}": the dashboard lives at
// /w/{slug}/.
func (s *Server) handleWorkspaceRoot(w http.ResponseWriter, r *http.Request) {
	target := r.URL.Path + "/"
	if _, ok := pwa.Dashboard(target); !ok {
		s.notFound(w, r)
		return
	}
	http.Redirect(w, r, target, http.StatusMovedPermanently)
}

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

// notFoundPage answers 404 with a readable page in the site's style.
func notFoundPage(w http.ResponseWriter) {
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Security-Policy", pageCSP)
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
<script defer src="/app.js"></script>
</head>
<body>
{{.Body}}
<aside id="app-wasm-loader" class="goapp-app-info"><img id="app-wasm-loader-icon" class="goapp-logo goapp-spin" alt="" src="/web/icon.svg"><p id="app-wasm-loader-label" class="goapp-label"></p></aside>
</body>
</html>
`))

// renderApp writes a prerendered go-app component as a full page.
func renderApp(w http.ResponseWriter, status int, lang, title string, c app.UI) {
	var buf bytes.Buffer
	err := shell.Execute(&buf, struct {
		Lang, Title, Style string
		Body               template.HTML
	}{lang, title, pwa.StylePath, template.HTML(app.HTMLString(c))}) // go-app escapes text; see the component for attributes
	if err != nil {
		http.Error(w, "The page could not be rendered.", http.StatusInternalServerError)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Set("Content-Language", lang)
	h.Set("Content-Security-Policy", pageCSP)
	w.WriteHeader(status)
	_, _ = w.Write(buf.Bytes())
}

// pageCSP allows what go-app needs: its scripts from this origin, the
// wasm ('wasm-unsafe-eval'), inline style attributes it sets, and fetches
// to this origin only.
const pageCSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'; " +
	"img-src 'self' data:; connect-src 'self'; worker-src 'self'; manifest-src 'self'; form-action 'self'; " +
	"frame-ancestors 'none'; base-uri 'none'; object-src 'none'"
