package api

import (
	"net/http"
	"strings"

	"github.com/feedbackhq/feedback/server/http/ratelimit"
	"github.com/feedbackhq/feedback/server/http/request"
)

// gate authenticates and rate-limits every API request but the public
// OpenAPI document.
func (s *Server) gate(next http.Handler) http.Handler {
	private := s.requireToken(s.limitWorkspace(next), next)
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

// workspaceKey is the prefix of a workspace's rate-limit key.
const workspaceKey = "ws:"

// limitWorkspace counts an authenticated API request against its
// workspace's budget, shared by every instance on PostgreSQL, or the
// user's for requests that name no workspace.
func (s *Server) limitWorkspace(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		key := workspaceKey + request.WorkspaceID(r.Context())
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
