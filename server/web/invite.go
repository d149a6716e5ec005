package web

import (
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/feedbackhq/feedback/server/http/request"
	"github.com/feedbackhq/feedback/server/secret"
	"github.com/feedbackhq/feedback/shared/feedback"
)

// handleInviteAccept handles "GET /auth/invite/{code}": signed in, the
// user joins the workspace and continues to its dashboard; signed out,
// they sign in first and come back here.
func (s *Server) handleInviteAccept(w http.ResponseWriter, r *http.Request) error {
	code := chi.URLParam(r, "code")
	if !secret.ValidToken(secret.InvitePrefix, code) {
		return s.signInPage(w, http.StatusNotFound, "This invitation link is not valid.", "/")
	}
	ses, err := s.sessions.Authenticate(w, r)
	if err != nil {
		http.Redirect(w, r, "/auth/login?return_to=/auth/invite/"+code, http.StatusFound)
		return nil
	}
	m, err := s.store.AcceptInvite(r.Context(), secret.Hash(code), ses.UserID)
	if err != nil {
		return s.signInPage(w, http.StatusNotFound, "This invitation was used already or has expired; ask for a new one.", "/")
	}
	if u, err := s.store.User(r.Context(), ses.UserID); err == nil {
		r = r.WithContext(request.WithPrincipal(r.Context(), &request.Principal{UserID: u.ID, SessionID: ses.ID, Actor: u.Email}))
	}
	s.audit.Record(r, &m.WorkspaceID, feedback.AuditMemberJoined, "user:"+ses.UserID, map[string]string{"role": m.Role})
	return s.signInPage(w, http.StatusOK, "You joined "+m.Name+" as "+m.Role+".", "/w/"+m.Slug+"/")
}
