package api

import (
	"github.com/go-chi/chi/v5"
)

func (s *Server) registerHygieneRoutes(r chi.Router) {
	r.Get("/hygiene", s.handle(listHandler(s.store.HygieneSubmissions, hygieneFilters...)))
}
