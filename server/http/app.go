package http

import (
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/feedbackhq/feedback/app/pwa"
)

// registerAppRoutes serves go-app's own resources and its static pages
// (the home and the kiosk), whose HTML is the same for every request,
// and the app.js of the dashboard's build.
func (s *Server) registerAppRoutes(r chi.Router) {
	for _, p := range []string{pwa.AppScript, "/wasm_exec.js", "/app.css", "/app-worker.js", "/manifest.webmanifest", pwa.HomePath, pwa.KioskPath} {
		r.Get(p, s.goapp.ServeHTTP)
	}
	r.Get(pwa.DashboardScript, s.serveDashboardScript)
}

// serveDashboardScript serves the app.js of the dashboard's build, which
// loads dashboard.wasm.
func (s *Server) serveDashboardScript(w http.ResponseWriter, r *http.Request) {
	r = r.Clone(r.Context())
	r.URL.Path = pwa.AppScript
	s.dashApp.ServeHTTP(w, r)
}
