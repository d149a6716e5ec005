package api

import (
	"net/http"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/feedbackhq/feedback/server/http/request"
	"github.com/feedbackhq/feedback/server/http/response"
	"github.com/feedbackhq/feedback/server/secret"
	"github.com/feedbackhq/feedback/shared/feedback"
)

// InviteTTL is how long an invitation link stays valid.
const InviteTTL = 7 * 24 * time.Hour

func (s *Server) registerMemberRoutes(r chi.Router) {
	r.Get("/members", s.handle(s.handleMembers))
	r.Patch("/members/{id}", s.handle(s.handleMemberRole))
	r.Delete("/members/{id}", s.handle(s.handleMemberRemove))
	r.Post("/invites", s.handle(s.handleInviteCreate))
}

// handleMembers handles "GET /members" (owners).
func (s *Server) handleMembers(w http.ResponseWriter, r *http.Request) error {
	if err := request.NoQuery(r); err != nil {
		return err
	}
	list, err := s.store.Members(r.Context(), request.WorkspaceID(r.Context()))
	if err != nil {
		return err
	}
	return response.All(w, list)
}

// handleMemberRole handles "PATCH /members/{id}" {role}.
func (s *Server) handleMemberRole(w http.ResponseWriter, r *http.Request) error {
	id, err := request.PathID(r, "id")
	if err != nil {
		return err
	}
	var in feedback.MemberRole
	if err := request.DecodeJSON(w, r, &in, request.MaxJSONBody); err != nil {
		return err
	}
	if err := in.Validate(); err != nil {
		return err
	}
	ws := request.WorkspaceID(r.Context())
	if err := s.store.SetMemberRole(r.Context(), ws, id, in.Role); err != nil {
		return err
	}
	s.audit.Record(r, &ws, feedback.AuditMemberRole, "user:"+id, map[string]string{"role": in.Role})
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// handleMemberRemove handles "DELETE /members/{id}".
func (s *Server) handleMemberRemove(w http.ResponseWriter, r *http.Request) error {
	id, err := request.PathID(r, "id")
	if err != nil {
		return err
	}
	ws := request.WorkspaceID(r.Context())
	if err := s.store.RemoveMember(r.Context(), ws, id); err != nil {
		return err
	}
	s.audit.Record(r, &ws, feedback.AuditMemberRemoved, "user:"+id, nil)
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// handleInviteCreate handles "POST /invites" {role}: a link valid seven
// days that makes whoever signs in with it a member; shown once.
func (s *Server) handleInviteCreate(w http.ResponseWriter, r *http.Request) error {
	p := request.PrincipalOf(r.Context())
	var in feedback.MemberRole
	if err := request.DecodeJSON(w, r, &in, request.MaxJSONBody); err != nil {
		return err
	}
	if err := in.Validate(); err != nil {
		return err
	}
	code, hash := secret.NewToken(secret.InvitePrefix)
	ws := request.WorkspaceID(r.Context())
	inv, err := s.store.CreateInvite(r.Context(), ws, in.Role, p.UserID, hash, s.now().Add(InviteTTL))
	if err != nil {
		return err
	}
	inv.URL = s.cfg.BaseURL + "/auth/invite/" + code
	s.audit.Record(r, &ws, feedback.AuditMemberInvited, "invite:"+inv.ID, map[string]string{"role": in.Role})
	return response.JSON(w, http.StatusCreated, inv)
}
