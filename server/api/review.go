package api

import (
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/feedbackhq/feedback/server/http/request"
	"github.com/feedbackhq/feedback/shared/feedback"
)

func (s *Server) registerReviewRoutes(r chi.Router) {
	r.Get("/review", s.handle(listHandler(s.store.Reviews)))
	r.Post("/review", s.handle(s.handleReviewCreate))
	r.Get("/review/{id}", s.handle(getHandler(s.store.Review)))
	r.Patch("/review/{id}", s.handle(updateHandler(s.store.UpdateReview)))
	r.Get("/review/{id}/responses", s.handle(subListHandler(s.store.ReviewResponses, feedback.ParamFrom, feedback.ParamTo, feedback.ParamLocationID, feedback.ParamCursor)))
}

// handleReviewCreate handles "POST /review": a new review starts as draft.
func (s *Server) handleReviewCreate(w http.ResponseWriter, r *http.Request) error {
	in, err := decodeCreate[feedback.ReviewInput](w, r)
	if err != nil {
		return err
	}
	rv := &feedback.Review{Title: *in.Title}
	if err := s.store.CreateReview(r.Context(), request.WorkspaceID(r.Context()), rv); err != nil {
		return err
	}
	return writeCreated(w, r, "/review/"+rv.ID, rv)
}
