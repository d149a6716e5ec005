package http

import (
	"github.com/go-chi/chi/v5"

	"github.com/feedbackhq/feedback/app/pwa"
)

// registerAppRoutes serves go-app's own resources and its static pages
// (the home and the kiosk), whose HTML is the same for every request.
func (s *Server) registerAppRoutes(r chi.Router) {
	for _, p := range []string{"/app.js", "/wasm_exec.js", "/app.css", "/app-worker.js", "/manifest.webmanifest", pwa.HomePath, pwa.KioskPath} {
		r.Get(p, s.goapp.ServeHTTP)
	}
}
