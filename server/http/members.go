package http

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

// invitePrefix starts an invitation code.
const invitePrefix = "fbi_"

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
	s.audit(r, &ws, feedback.AuditMemberRole, "user:"+id, map[string]string{"role": in.Role})
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
	s.audit(r, &ws, feedback.AuditMemberRemoved, "user:"+id, nil)
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
	code, hash := secret.NewToken(invitePrefix)
	ws := request.WorkspaceID(r.Context())
	inv, err := s.store.CreateInvite(r.Context(), ws, in.Role, p.UserID, hash, s.now().Add(InviteTTL))
	if err != nil {
		return err
	}
	inv.URL = s.cfg.BaseURL + "/auth/invite/" + code
	s.audit(r, &ws, feedback.AuditMemberInvited, "invite:"+inv.ID, map[string]string{"role": in.Role})
	return response.JSON(w, http.StatusCreated, inv)
}

// handleInviteAccept handles "GET /auth/invite/{code}": signed in, the
// user joins the workspace and continues to its dashboard; signed out,
// they sign in first and come back here.
func (s *Server) handleInviteAccept(w http.ResponseWriter, r *http.Request) {
	code := chi.URLParam(r, "code")
	if !secret.ValidToken(invitePrefix, code) {
		s.signInPage(w, http.StatusNotFound, "This invitation link is not valid.", "/")
		return
	}
	ses, err := s.sessions.Authenticate(w, r)
	if err != nil {
		http.Redirect(w, r, "/auth/login?return_to=/auth/invite/"+code, http.StatusFound)
		return
	}
	m, err := s.store.AcceptInvite(r.Context(), secret.Hash(code), ses.UserID)
	if err != nil {
		s.signInPage(w, http.StatusNotFound, "This invitation was used already or has expired; ask for a new one.", "/")
		return
	}
	if u, err := s.store.User(r.Context(), ses.UserID); err == nil {
		r = r.WithContext(request.WithPrincipal(r.Context(), &request.Principal{UserID: u.ID, SessionID: ses.ID, Actor: u.Email}))
	}
	s.audit(r, &m.WorkspaceID, feedback.AuditMemberJoined, "user:"+ses.UserID, map[string]string{"role": m.Role})
	s.signInPage(w, http.StatusOK, "You joined "+m.Name+" as "+m.Role+".", "/w/"+m.Slug+"/")
}
