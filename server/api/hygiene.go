package api

import (
	"github.com/go-chi/chi/v5"

	"github.com/feedbackhq/feedback/shared/feedback"
)

func (s *Server) registerHygieneRoutes(r chi.Router) {
	r.Get("/hygiene", s.handle(listHandler(s.store.HygieneSubmissions,
		feedback.ParamFrom, feedback.ParamTo, feedback.ParamLocationID, feedback.ParamCursor)))
}
