package api

import (
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/feedbackhq/feedback/server/http/request"
	"github.com/feedbackhq/feedback/shared/feedback"
)

func (s *Server) registerLocationRoutes(r chi.Router) {
	r.Get("/locations", s.handle(listHandler(s.store.Locations)))
	r.Post("/locations", s.handle(s.handleLocationCreate))
	r.Get("/locations/{id}", s.handle(getHandler(s.store.Location)))
	r.Patch("/locations/{id}", s.handle(updateHandler(s.store.UpdateLocation)))
	r.Delete("/locations/{id}", s.handle(s.handleLocationDelete))
}

// handleLocationCreate handles "POST /locations".
func (s *Server) handleLocationCreate(w http.ResponseWriter, r *http.Request) error {
	in, err := decodeCreate[feedback.LocationInput](w, r)
	if err != nil {
		return err
	}
	l := &feedback.Location{Name: *in.Name}
	if in.Description != nil {
		l.Description = *in.Description
	}
	if err := s.store.CreateLocation(r.Context(), request.WorkspaceID(r.Context()), l); err != nil {
		return err
	}
	return writeCreated(w, r, "/locations/"+l.ID, l)
}

// handleLocationDelete handles "DELETE /locations/{id}": the location is
// hidden, its posters and kiosks revoked; its submissions stay.
func (s *Server) handleLocationDelete(w http.ResponseWriter, r *http.Request) error {
	return deleteByID(w, r, s.store.DeleteLocation)
}
