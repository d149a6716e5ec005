package http

import (
	"context"
	"net/http"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/feedbackhq/feedback/server/http/response"
)

func (s *Server) registerHealthRoutes(r chi.Router) {
	r.Get("/healthz", s.errs.Handle(handleLive))
	r.Get("/readyz", s.errs.Handle(s.handleReady))
}

// handleLive handles "GET /healthz": live while the process answers.
func handleLive(w http.ResponseWriter, _ *http.Request) error {
	return response.JSON(w, http.StatusOK, map[string]string{"status": "ok"})
}

// handleReady handles "GET /readyz": ready when the database answers.
func (s *Server) handleReady(w http.ResponseWriter, r *http.Request) error {
	ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
	defer cancel()
	if err := s.store.Ping(ctx); err != nil {
		s.log.WarnContext(ctx, "readiness check failed", "err", err)
		return response.JSON(w, http.StatusServiceUnavailable, map[string]string{"status": "database unavailable"})
	}
	return response.JSON(w, http.StatusOK, map[string]string{"status": "ok"})
}
