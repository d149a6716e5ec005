package web

import (
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/feedbackhq/feedback/app/pwa"
	"github.com/feedbackhq/feedback/server/http/page"
)

// WorkspaceRoutes returns the router of the workspaces' dashboards, to
// mount at /w.
func (s *Server) WorkspaceRoutes() chi.Router {
	r := chi.NewRouter()
	r.Get("/{slug}", s.errs.Handle(s.handleWorkspaceRoot))
	r.Get("/{slug}/*", s.errs.Handle(s.handleDashboard))
	return r
}

// SettingsRoutes returns the router of Global Settings, to mount at
// /settings.
func (s *Server) SettingsRoutes() chi.Router {
	r := chi.NewRouter()
	r.Get("/", s.errs.Handle(s.handleDashboard))
	r.Get("/*", s.errs.Handle(s.handleDashboard))
	return r
}

// handleDashboard handles "GET /w/{slug}/..." and "GET /settings/...":
// the dashboard's shell in its loading state, the same for every
// visitor; the wasm asks the API who is signed in. A path the route
// pattern refuses is a 404, so that only checked text reaches the page;
// so is a path it accepts that has no page, in the dashboard's own
// frame.
func (s *Server) handleDashboard(w http.ResponseWriter, r *http.Request) error {
	p, ok := pwa.Dashboard(r.URL.Path)
	if !ok {
		page.NotFound(w)
		return nil
	}
	status := http.StatusOK
	if !p.Found {
		status = http.StatusNotFound
	}
	page.RenderDashboard(w, status, "en", p.Title, p.Body)
	return nil
}

// handleWorkspaceRoot handles "GET /w/{slug}": the dashboard lives at
// /w/{slug}/.
func (s *Server) handleWorkspaceRoot(w http.ResponseWriter, r *http.Request) error {
	target := r.URL.Path + "/"
	if _, ok := pwa.Dashboard(target); !ok {
		page.NotFound(w)
		return nil
	}
	http.Redirect(w, r, target, http.StatusMovedPermanently)
	return nil
}
