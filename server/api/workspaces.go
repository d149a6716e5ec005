package api

import (
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/feedbackhq/feedback/server/http/request"
	"github.com/feedbackhq/feedback/server/http/response"
	"github.com/feedbackhq/feedback/server/workspace"
	"github.com/feedbackhq/feedback/shared/feedback"
)

// registerPlatformRoutes registers a platform owner's endpoints of the
// installation, which belong to no workspace: its workspaces and its
// identity federations (owner-only in session.go).
func (s *Server) registerPlatformRoutes(r chi.Router) {
	r.Get("/workspaces", s.handle(s.handleWorkspaces))
	r.Post("/workspaces", s.handle(s.handleWorkspaceCreate))
	s.registerFederationRoutes(r)
}

// handleWorkspaces handles "GET /workspaces": every workspace of the
// installation, oldest first.
func (s *Server) handleWorkspaces(w http.ResponseWriter, r *http.Request) error {
	if err := request.NoQuery(r); err != nil {
		return err
	}
	list, err := s.store.Workspaces(r.Context())
	if err != nil {
		return err
	}
	out := make([]feedback.Workspace, len(list))
	for i := range list {
		out[i] = list[i].Workspace
	}
	return response.All(w, out)
}

// handleWorkspaceCreate handles "POST /workspaces" {name, slug}: a new
// workspace with its own poster-signing key, as "feedbackd workspace
// create" makes. Its creator, a platform owner, opens it as every
// workspace: no membership is needed.
func (s *Server) handleWorkspaceCreate(w http.ResponseWriter, r *http.Request) error {
	var in feedback.WorkspaceInput
	if err := request.DecodeJSON(w, r, &in, request.MaxJSONBody); err != nil {
		return err
	}
	ws, err := workspace.CreateFrom(r.Context(), s.store, s.keys, in)
	if feedback.ErrorCode(err) == feedback.EConflict {
		return &feedback.Error{Code: feedback.EConflict, Message: "Another workspace has the slug " + in.Slug + ".",
			Params: []feedback.InvalidParam{{Name: "slug", Reason: "is taken by another workspace"}}}
	}
	if err != nil {
		return err
	}
	s.audit.Record(r, &ws.ID, feedback.AuditWorkspaceCreated, "workspace:"+ws.ID,
		map[string]string{"name": ws.Name, "slug": ws.Slug})
	return response.JSON(w, http.StatusCreated, ws.Workspace)
}
