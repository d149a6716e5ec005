package web

import (
	"net/http"
	"strings"

	"github.com/feedbackhq/feedback/server"
	"github.com/feedbackhq/feedback/server/auth"
	"github.com/feedbackhq/feedback/server/http/request"
	"github.com/feedbackhq/feedback/shared/feedback"
)

// handleSignIn handles "GET /auth/login?return_to=PATH": it starts the
// authorization code flow and redirects to the identity provider.
func (s *Server) handleSignIn(w http.ResponseWriter, r *http.Request) error {
	if s.rp == nil {
		return s.signInPage(w, http.StatusServiceUnavailable, "Sign-in is not configured on this server.", "/")
	}
	u, l, err := s.rp.Begin(r.Context(), safeReturn(r.URL.Query().Get("return_to")), s.now())
	if err == nil {
		err = auth.SetLogin(w, s.keys, l)
	}
	if err != nil {
		return &pageError{status: http.StatusBadGateway, next: "/", err: err,
			message: "The identity provider cannot be reached; try again in a moment."}
	}
	w.Header().Set("Cache-Control", "no-store")
	http.Redirect(w, r, u, http.StatusFound)
	return nil
}

// handleCallback handles "GET /auth/callback": it verifies the sign-in,
// records the user, starts a session and answers a page that continues
// to the dashboard. The page is a 200, not a redirect: the session
// cookies are SameSite=Strict, and a browser would not send them on a
// redirect that a cross-site navigation (from the provider) started.
func (s *Server) handleCallback(w http.ResponseWriter, r *http.Request) error {
	w.Header().Set("Cache-Control", "no-store")
	l := auth.TakeLogin(w, r, s.keys)
	if s.rp == nil {
		return s.signInPage(w, http.StatusServiceUnavailable, "Sign-in is not configured on this server.", "/")
	}
	id, err := s.rp.Finish(r.Context(), l, r.URL.Query(), s.now())
	if err != nil {
		return err
	}
	u := &server.User{Issuer: id.Issuer, Subject: id.Subject, Email: id.Email, Name: id.Name}
	if err := s.store.SignIn(r.Context(), u); err != nil {
		return err
	}
	ses, err := s.sessions.Start(r.Context(), w, u, id, request.ClientIP(r), r.UserAgent())
	if err != nil {
		return err
	}
	r = r.WithContext(request.WithPrincipal(r.Context(), &request.Principal{UserID: u.ID, SessionID: ses.ID, Actor: u.Email}))
	s.audit.Record(r, nil, feedback.AuditSignIn, "session:"+ses.ID, map[string]string{"amr": strings.Join(id.AMR, " ")})
	back := "/"
	if l != nil {
		back = safeReturn(l.ReturnTo)
	}
	return s.signInPage(w, http.StatusOK, "You are signed in.", back)
}
