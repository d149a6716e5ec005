package http

import (
	"context"
	"net"
	"net/http"
	"strings"

	"github.com/go-chi/chi/v5"

	"github.com/feedbackhq/feedback/server/http/page"
	"github.com/feedbackhq/feedback/server/http/request"
	"github.com/feedbackhq/feedback/shared/feedback"
)

// Handler returns the service's HTTP handler.
func (s *Server) Handler() http.Handler {
	r := chi.NewRouter()
	r.Use(s.withRequest, s.recoverer, s.accessLog, securityHeaders, compress)
	r.NotFound(s.notFound)
	r.MethodNotAllowed(s.methodNotAllowed(r))

	// The audiences' routers inherit notFound and methodNotAllowed
	// (chi's Mount), so they are set first.
	api := s.api.Routes()
	r.Mount("/api/v1", api)
	r.Mount("/api", api)
	r.Mount("/q", s.device.VisitorRoutes())
	r.Mount("/kiosk", s.device.KioskRoutes())
	r.Mount("/auth", s.web.AuthRoutes())
	r.Mount("/w", s.web.WorkspaceRoutes())
	r.Mount("/settings", s.web.SettingsRoutes())
	s.mountIdP(r)
	s.registerHealthRoutes(r)
	s.registerStaticRoutes(r)
	s.registerAppRoutes(r)
	return r
}

// mountIdP serves the embedded OpenID provider, when there is one, under
// /idp. The provider routes on the whole path (its issuer's is /idp), so
// it gets the request without chi's routing state. Its login throttling
// counts per client address: the one the trusted proxies report.
func (s *Server) mountIdP(r chi.Router) {
	if s.cfg.IdP == nil {
		return
	}
	idp := http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		req = req.WithContext(context.WithValue(req.Context(), chi.RouteCtxKey, nil))
		req.RemoteAddr = net.JoinHostPort(request.ClientIP(req), "0")
		s.cfg.IdP.ServeHTTP(w, req)
	})
	r.Handle("/idp", idp)
	r.Handle("/idp/*", idp)
}

// isAPI reports whether the request is for the API or a device endpoint,
// which answer problems in JSON rather than pages.
func isAPI(r *http.Request) bool {
	return strings.HasPrefix(r.URL.Path, "/api/") || r.URL.Path == "/api" || strings.HasPrefix(r.URL.Path, "/kiosk/")
}

// notFound answers an unknown path: a problem for the API and the
// device endpoints, a page for people.
func (s *Server) notFound(w http.ResponseWriter, r *http.Request) {
	if isAPI(r) {
		s.errs.Write(w, r, request.ErrNotFound)
		return
	}
	page.NotFound(w)
}

// methodNotAllowed answers 405 with the Allow header (RFC 9110 §15.5.6):
// the methods that root routes at the request's path.
func (s *Server) methodNotAllowed(root chi.Routes) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		allow := allowedMethods(root, r.URL.Path)
		w.Header().Set("Allow", strings.Join(allow, ", "))
		s.errs.Write(w, r, feedback.Errorf(feedback.EMethodNotAllowed, "The method %s is not allowed here; use %s.",
			r.Method, strings.Join(allow, " or ")))
	}
}

// allowedMethods returns the methods that router routes at path.
func allowedMethods(router chi.Routes, path string) []string {
	var allow []string
	for _, m := range []string{http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch,
		http.MethodDelete, http.MethodOptions} {
		if router.Match(chi.NewRouteContext(), m, path) {
			allow = append(allow, m)
		}
	}
	return allow
}
