package api

import (
	"net/http"
	"strings"
	"unicode/utf8"

	"github.com/go-chi/chi/v5"

	"github.com/feedbackhq/feedback/server"
	"github.com/feedbackhq/feedback/server/http/request"
	"github.com/feedbackhq/feedback/server/http/response"
	"github.com/feedbackhq/feedback/server/workspace"
	"github.com/feedbackhq/feedback/shared/feedback"
)

// registerAccountRoutes registers the endpoints of the signed-in user
// and of Global Settings, which API tokens cannot use.
func (s *Server) registerAccountRoutes(r chi.Router) {
	r = r.With(s.sessionOnly)
	r.Get("/me", s.handle(s.handleMe))
	r.Get("/sessions", s.handle(s.handleSessions))
	r.Delete("/sessions/{id}", s.handle(s.handleRevokeSession))
	r.Get("/audit-log", s.handle(s.handleAuditLog))
	r.Get("/tokens", s.handle(s.handleTokens))
	r.Post("/tokens", s.handle(s.handleTokenCreate))
	r.Delete("/tokens/{id}", s.handle(s.handleTokenRevoke))
	s.registerMemberRoutes(r)
	s.registerPlatformRoutes(r)
	s.registerSelfRoutes(r)
}

// handleMe handles "GET /me": the signed-in user and their workspaces.
func (s *Server) handleMe(w http.ResponseWriter, r *http.Request) error {
	p := request.PrincipalOf(r.Context())
	if err := request.NoQuery(r); err != nil {
		return err
	}
	u, err := s.store.User(r.Context(), p.UserID)
	if err != nil {
		return err
	}
	ms, err := s.store.Memberships(r.Context(), u.ID)
	if err != nil {
		return err
	}
	return response.JSON(w, http.StatusOK, feedback.Me{ID: u.ID, Email: u.Email, Name: u.Name,
		PlatformOwner: u.PlatformOwner, Workspaces: ms})
}

// handleSessions handles "GET /sessions": the user's live sessions,
// the request's own marked current.
func (s *Server) handleSessions(w http.ResponseWriter, r *http.Request) error {
	p := request.PrincipalOf(r.Context())
	if err := request.NoQuery(r); err != nil {
		return err
	}
	list, err := s.store.Sessions(r.Context(), p.UserID)
	if err != nil {
		return err
	}
	out := make([]feedback.Session, len(list))
	for i, ses := range list {
		out[i] = sessionView(ses, p.SessionID)
	}
	return response.All(w, out)
}

func sessionView(s server.Session, current string) feedback.Session {
	return feedback.Session{ID: s.ID, UserAgent: s.UserAgent, IP: s.IP, CreatedAt: feedback.NewTime(s.CreatedAt),
		LastSeenAt: feedback.NewTime(s.LastSeenAt), ExpiresAt: feedback.NewTime(s.RefreshExpiresAt), Current: s.ID == current}
}

// handleRevokeSession handles "DELETE /sessions/{id}": the session ends
// at once, on every instance (each request reads it from the store), and
// its provider refresh token is revoked (RFC 7009). Revoking the current
// one also clears its cookies.
func (s *Server) handleRevokeSession(w http.ResponseWriter, r *http.Request) error {
	p := request.PrincipalOf(r.Context())
	id, err := request.PathID(r, "id")
	if err != nil {
		return err
	}
	live, err := s.store.Sessions(r.Context(), p.UserID)
	if err != nil {
		return err
	}
	if err := s.store.RevokeSession(r.Context(), p.UserID, id, "revoked from Active sessions"); err != nil {
		return err
	}
	for i := range live {
		if live[i].ID == id {
			s.sessions.RevokeAtProvider(r.Context(), &live[i])
		}
	}
	if id == p.SessionID {
		s.sessions.Clear(w)
	}
	s.audit.Record(r, nil, feedback.AuditSessionRevoked, "session:"+id, nil)
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// handleAuditLog handles "GET /audit-log" (owners only).
func (s *Server) handleAuditLog(w http.ResponseWriter, r *http.Request) error {
	params, err := request.ListParams(r, feedback.ParamFrom, feedback.ParamTo)
	if err != nil {
		return err
	}
	items, total, err := s.store.AuditLog(r.Context(), params)
	if err != nil {
		return err
	}
	return response.Page(w, items, total, params)
}

// handleTokens handles "GET /tokens": the workspace's API tokens.
func (s *Server) handleTokens(w http.ResponseWriter, r *http.Request) error {
	if err := request.NoQuery(r); err != nil {
		return err
	}
	list, err := s.store.Tokens(r.Context(), request.WorkspaceID(r.Context()))
	if err != nil {
		return err
	}
	out := make([]feedback.APIToken, len(list))
	for i, t := range list {
		out[i] = tokenView(t)
	}
	return response.All(w, out)
}

func tokenView(t server.Token) feedback.APIToken {
	v := feedback.APIToken{ID: t.ID, Name: t.Name, Prefix: t.Prefix, CreatedAt: feedback.NewTime(t.CreatedAt)}
	if t.LastUsedAt != nil {
		at := feedback.NewTime(*t.LastUsedAt)
		v.LastUsedAt = &at
	}
	if t.RevokedAt != nil {
		at := feedback.NewTime(*t.RevokedAt)
		v.RevokedAt = &at
	}
	return v
}

// NewAPIToken is the answer to "POST /tokens": the token with its value,
// shown this once.
type NewAPIToken struct {
	feedback.APIToken
	Token string `json:"token"`
}

// handleTokenCreate handles "POST /tokens" {name}.
func (s *Server) handleTokenCreate(w http.ResponseWriter, r *http.Request) error {
	var in struct {
		Name string `json:"name"`
	}
	if err := request.DecodeJSON(w, r, &in, request.MaxJSONBody); err != nil {
		return err
	}
	name := strings.TrimSpace(in.Name)
	if name == "" || utf8.RuneCountInString(name) > 100 {
		return &feedback.Error{Code: feedback.EValidation, Message: "A token needs a name of 1 to 100 characters.",
			Params: []feedback.InvalidParam{{Name: "name", Reason: "must be 1 to 100 characters"}}}
	}
	ws := request.WorkspaceID(r.Context())
	value, t, err := workspace.CreateToken(r.Context(), s.store, ws, name)
	if err != nil {
		return err
	}
	s.audit.Record(r, &ws, feedback.AuditTokenCreated, "token:"+t.ID, map[string]string{"name": name})
	return writeCreated(w, r, "/tokens/"+t.ID, NewAPIToken{APIToken: tokenView(*t), Token: value})
}

// handleTokenRevoke handles "DELETE /tokens/{id}": effective on the
// token's next request, on every instance.
func (s *Server) handleTokenRevoke(w http.ResponseWriter, r *http.Request) error {
	id, err := request.PathID(r, "id")
	if err != nil {
		return err
	}
	ws := request.WorkspaceID(r.Context())
	if _, err := s.store.RevokeToken(r.Context(), ws, id); err != nil {
		return err
	}
	s.audit.Record(r, &ws, feedback.AuditTokenRevoked, "token:"+id, nil)
	w.WriteHeader(http.StatusNoContent)
	return nil
}
