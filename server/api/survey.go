package api

import (
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/feedbackhq/feedback/server/http/request"
	"github.com/feedbackhq/feedback/shared/feedback"
)

func (s *Server) registerSurveyRoutes(r chi.Router) {
	r.Get("/surveys", s.handle(listHandler(s.store.Surveys)))
	r.Post("/surveys", s.handle(s.handleSurveyCreate))
	r.Get("/surveys/{id}", s.handle(getHandler(s.store.Survey)))
	r.Patch("/surveys/{id}", s.handle(updateHandler(s.store.UpdateSurvey)))
	r.Get("/surveys/{id}/responses", s.handle(subListHandler(s.store.SurveyResponses, feedback.ParamFrom, feedback.ParamTo, feedback.ParamLocationID, feedback.ParamCursor)))
}

// handleSurveyCreate handles "POST /surveys": a new survey starts as draft.
func (s *Server) handleSurveyCreate(w http.ResponseWriter, r *http.Request) error {
	in, err := decodeCreate[feedback.SurveyInput](w, r)
	if err != nil {
		return err
	}
	sv := &feedback.Survey{Title: *in.Title, Questions: *in.Questions}
	if err := s.store.CreateSurvey(r.Context(), request.WorkspaceID(r.Context()), sv); err != nil {
		return err
	}
	return writeCreated(w, r, "/surveys/"+sv.ID, sv)
}
