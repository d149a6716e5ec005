package http

import (
	"context"
	"net"
	"net/http"
	"strings"

	"github.com/go-chi/chi/v5"

	"github.com/feedbackhq/feedback/server/http/ratelimit"
	"github.com/feedbackhq/feedback/server/http/request"
	"github.com/feedbackhq/feedback/shared/feedback"
)

// Handler returns the service's HTTP handler.
func (s *Server) Handler() http.Handler {
	r := chi.NewRouter()
	r.Use(withRequestID, s.withClientIP, s.recoverer, s.accessLog, securityHeaders, compress)
	r.NotFound(s.notFound)
	r.MethodNotAllowed(s.methodNotAllowed(r))

	api := s.apiRouter(r)
	r.Mount("/api/v1", api)
	r.Mount("/api", api)
	s.registerVisitorRoutes(r)
	s.registerKioskDeviceRoutes(r)
	s.registerSignInRoutes(r)
	if s.cfg.IdP != nil {
		// The provider routes on the whole path (its issuer's is /idp),
		// so it gets the request without chi's routing state.
		// Its login throttling counts per client address: the one the
		// trusted proxies report.
		idp := http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
			req = req.WithContext(context.WithValue(req.Context(), chi.RouteCtxKey, nil))
			req.RemoteAddr = net.JoinHostPort(request.ClientIP(req), "0")
			s.cfg.IdP.ServeHTTP(w, req)
		})
		r.Handle("/idp", idp)
		r.Handle("/idp/*", idp)
	}
	s.registerHealthRoutes(r)
	s.registerStaticRoutes(r)
	s.registerAppRoutes(r)
	return r
}

// apiRouter serves the REST API; it is mounted at /api/v1 and /api. Every
// request, unknown routes and methods included, is authenticated and
// counted first, so every answer carries the rate-limit headers; only the
// OpenAPI document is public (and counted per client IP). root is the
// router it is mounted in.
func (s *Server) apiRouter(root chi.Routes) chi.Router {
	r := chi.NewRouter()
	r.Use(s.apiGate, s.rejectQueryOnWrites)
	r.NotFound(s.notFound)
	r.MethodNotAllowed(s.methodNotAllowed(root))
	r.Get("/openapi.json", s.handleOpenAPI)
	r.Group(func(r chi.Router) {
		s.registerHygieneRoutes(r)
		s.registerReviewRoutes(r)
		s.registerSurveyRoutes(r)
		s.registerLocationRoutes(r)
		s.registerPosterRoutes(r)
		s.registerWebhookRoutes(r)
		s.registerEventRoutes(r)
		s.registerKioskRoutes(r)
		s.registerAccountRoutes(r)
	})
	return r
}

// isAPI reports whether the request is for the API or a device endpoint,
// which answer problems in JSON rather than pages.
func isAPI(r *http.Request) bool {
	return strings.HasPrefix(r.URL.Path, "/api/") || r.URL.Path == "/api" || strings.HasPrefix(r.URL.Path, "/kiosk/")
}

// apiGate authenticates and rate-limits every API request but the
// public OpenAPI document.
func (s *Server) apiGate(next http.Handler) http.Handler {
	private := s.requireToken(s.limitWorkspace(next))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/openapi.json") && r.Method == http.MethodGet {
			if err := s.anon.Take(w, r); err != nil {
				s.errs.Write(w, r, err)
				return
			}
			next.ServeHTTP(w, r)
			return
		}
		// Answers to credentials (tokens, sessions, secrets shown once)
		// are never stored by a cache.
		w.Header().Set("Cache-Control", "no-store")
		private.ServeHTTP(w, r)
	})
}

// limitWorkspace counts an authenticated API request against its
// workspace's budget, shared by every instance on PostgreSQL, or the
// user's for requests that name no workspace.
func (s *Server) limitWorkspace(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		key := "ws:" + request.WorkspaceID(r.Context())
		if p := request.PrincipalOf(r.Context()); p != nil && p.WorkspaceID == "" {
			key = "user:" + p.UserID
		}
		if err := ratelimit.New(s.store.Limiter(), s.now).Take(w, r, key, s.cfg.RateLimit); err != nil {
			s.errs.Write(w, r, err)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// rejectQueryOnWrites refuses query parameters on requests that change
// something: none of them takes any, and a typo must not pass silently.
func (s *Server) rejectQueryOnWrites(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.URL.RawQuery != "" {
			if err := request.NoQuery(r); err != nil {
				s.errs.Write(w, r, err)
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}

// notFound answers an unknown path: a problem for the API and the
// device endpoints, a page for people.
func (s *Server) notFound(w http.ResponseWriter, r *http.Request) {
	if isAPI(r) {
		s.errs.Write(w, r, request.ErrNotFound)
		return
	}
	notFoundPage(w)
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
