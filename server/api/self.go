package api

import (
	"context"
	"encoding/base64"
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/feedbackhq/feedback/server"
	"github.com/feedbackhq/feedback/server/http/request"
	"github.com/feedbackhq/feedback/server/http/response"
	"github.com/feedbackhq/feedback/server/idp"
	"github.com/feedbackhq/feedback/server/poster"
	"github.com/feedbackhq/feedback/shared/feedback"
)

// The signed-in user's own sign-in (the Account page): their password
// and authenticator app at the embedded identity provider.

// passwordChangedReason is the revocation reason of the sessions a
// password change ends.
const passwordChangedReason = "ended by a password change"

// registerSelfRoutes registers the Account page's endpoints, under
// sessionOnly.
func (s *Server) registerSelfRoutes(r chi.Router) {
	r.Get("/account", s.handle(s.handleAccount))
	r.Post("/account/password", s.handle(s.handlePasswordChange))
	r.Post("/account/totp", s.handle(s.handleTOTPBegin))
	r.Post("/account/totp/confirm", s.handle(s.handleTOTPConfirm))
	r.Delete("/account/totp", s.handle(s.handleTOTPRemove))
}

// handleAccount handles "GET /account": how the user signs in.
func (s *Server) handleAccount(w http.ResponseWriter, r *http.Request) error {
	if err := request.NoQuery(r); err != nil {
		return err
	}
	u, err := s.store.User(r.Context(), request.PrincipalOf(r.Context()).UserID)
	if err != nil {
		return err
	}
	out := feedback.Account{Email: u.Email, SignIn: feedback.SignInExternal}
	if !s.embedded(u) {
		return response.JSON(w, http.StatusOK, out)
	}
	a, err := s.cfg.Accounts.Account(r.Context(), u.Subject)
	if err != nil {
		return err
	}
	out.SignIn, out.Provider, out.TOTP = feedback.SignInPassword, a.Federation, a.TOTP
	if a.Federation != "" {
		out.SignIn = feedback.SignInFederation
	}
	return response.JSON(w, http.StatusOK, out)
}

// embedded reports whether the embedded identity provider signs u in.
func (s *Server) embedded(u *server.User) bool {
	return s.cfg.Accounts != nil && u.Issuer == s.cfg.Accounts.Issuer()
}

// self returns the request's user and their account at the embedded
// provider, or EConflict when another provider signs them in.
func (s *Server) self(r *http.Request) (*server.User, idp.Self, error) {
	u, err := s.store.User(r.Context(), request.PrincipalOf(r.Context()).UserID)
	if err != nil {
		return nil, idp.Self{}, err
	}
	if !s.embedded(u) {
		return nil, idp.Self{}, feedback.Errorf(feedback.EConflict,
			"Your identity provider manages your password and two-step verification: change them there.")
	}
	return u, idp.Self{AccountID: u.Subject, ClientIP: request.ClientIP(r)}, nil
}

// handlePasswordChange handles "POST /account/password"
// {current_password, new_password}: the user's other sessions end, this
// one goes on.
func (s *Server) handlePasswordChange(w http.ResponseWriter, r *http.Request) error {
	var in feedback.PasswordChange
	if err := request.DecodeJSON(w, r, &in, request.MaxJSONBody); err != nil {
		return err
	}
	u, self, err := s.self(r)
	if err != nil {
		return err
	}
	p := request.PrincipalOf(r.Context())
	live, err := s.store.Sessions(r.Context(), u.ID)
	if err != nil {
		return err
	}
	change := idp.PasswordChange{Self: self, Current: in.CurrentPassword, New: in.NewPassword}
	for i := range live {
		if live[i].ID == p.SessionID {
			change.Keep = s.sessions.ProviderRefreshToken(&live[i])
		}
	}
	if err := s.cfg.Accounts.ChangePassword(r.Context(), change); err != nil {
		return err
	}
	ended := s.endOtherSessions(r, live, p.SessionID)
	s.audit.Record(r, nil, feedback.AuditPasswordChange, "user:"+u.ID, nil)
	return response.JSON(w, http.StatusOK, feedback.PasswordChanged{SessionsEnded: ended})
}

// endOtherSessions revokes the sessions of live but current, whose
// provider tokens the password change revoked already, and returns how
// many it ended.
func (s *Server) endOtherSessions(r *http.Request, live []server.Session, current string) int {
	n := 0
	for _, ses := range live {
		if ses.ID == current {
			continue
		}
		err := s.store.RevokeSession(r.Context(), ses.UserID, ses.ID, passwordChangedReason)
		switch {
		case err == nil:
			n++
		case feedback.ErrorCode(err) != feedback.ENotFound:
			s.log.ErrorContext(r.Context(), "end a session after a password change", "session", ses.ID, "err", err)
		}
	}
	return n
}

// handleTOTPBegin handles "POST /account/totp": a new secret for an
// authenticator app, with its QR code, to confirm.
func (s *Server) handleTOTPBegin(w http.ResponseWriter, r *http.Request) error {
	_, self, err := s.self(r)
	if err != nil {
		return err
	}
	secret, uri, err := s.cfg.Accounts.BeginTOTP(r.Context(), self)
	if err != nil {
		return err
	}
	svg, err := poster.QRSVG(uri, 240)
	if err != nil {
		return err
	}
	return response.JSON(w, http.StatusOK, feedback.TOTPEnrolment{Secret: secret, OTPAuthURI: uri,
		QRCode: "data:image/svg+xml;base64," + base64.StdEncoding.EncodeToString(svg)})
}

// handleTOTPConfirm handles "POST /account/totp/confirm" {code}.
func (s *Server) handleTOTPConfirm(w http.ResponseWriter, r *http.Request) error {
	return changeSelf(s, w, r, feedback.AuditTOTPEnrolled, func(ctx context.Context, self idp.Self, in feedback.TOTPCode) error {
		return s.cfg.Accounts.ConfirmTOTP(ctx, self, in.Code)
	})
}

// handleTOTPRemove handles "DELETE /account/totp" {password}.
func (s *Server) handleTOTPRemove(w http.ResponseWriter, r *http.Request) error {
	return changeSelf(s, w, r, feedback.AuditTOTPRemoved, func(ctx context.Context, self idp.Self, in feedback.PasswordCheck) error {
		return s.cfg.Accounts.RemoveTOTP(ctx, self, in.Password)
	})
}

// changeSelf decodes the body, makes the change to the user's account,
// audits it as action and answers 204.
func changeSelf[T any](s *Server, w http.ResponseWriter, r *http.Request, action string,
	change func(ctx context.Context, self idp.Self, in T) error) error {
	var in T
	if err := request.DecodeJSON(w, r, &in, request.MaxJSONBody); err != nil {
		return err
	}
	u, self, err := s.self(r)
	if err != nil {
		return err
	}
	if err := change(r.Context(), self, in); err != nil {
		return err
	}
	s.audit.Record(r, nil, action, "user:"+u.ID, nil)
	w.WriteHeader(http.StatusNoContent)
	return nil
}
