package web

import (
	"net/http"
	"net/url"

	"github.com/feedbackhq/feedback/server"
	"github.com/feedbackhq/feedback/server/http/request"
	"github.com/feedbackhq/feedback/shared/feedback"
)

// signedOutPath is where a sign-out ends: the provider's
// post_logout_redirect_uri.
const signedOutPath = "/auth/signed-out"

// handleSignOut handles "POST /auth/logout": it revokes the session at
// once, and the provider's refresh token (RFC 7009) when the provider
// supports it, and clears the cookies. Then it sends the browser to the
// provider's end_session_endpoint, when it has one, to end the
// provider's own session there too (RP-initiated logout, with the
// session's ID token as id_token_hint), which returns it to
// /auth/signed-out; without one, straight to /auth/signed-out. The page
// the form was on travels as the state, for the page's Sign in link.
// The way to the provider is a page that goes on at once, not a
// redirect: the dashboard's Content-Security-Policy (form-action 'self')
// would stop a form's redirect to another site.
func (s *Server) handleSignOut(w http.ResponseWriter, r *http.Request) error {
	if err := s.cop.Check(r); err != nil {
		return s.signInPage(w, http.StatusForbidden, "Sign out from the dashboard itself.", "/")
	}
	ses, err := s.sessions.Authenticate(w, r)
	if err == nil {
		s.endSession(r, ses)
	} else {
		ses = nil
	}
	s.sessions.Clear(w)
	back := backTo(r)
	if end := s.sessions.LogoutURL(r.Context(), ses, back); end != "" {
		return s.renderSignIn(w, http.StatusOK, signInData{Title: "Signing out",
			Message: "You are signed out here; your identity provider signs you out next.",
			Next:    end, Link: "Continue to your identity provider", LinkID: "end-session", Continue: true})
	}
	w.Header().Set("Cache-Control", "no-store")
	http.Redirect(w, r, signedOutPath+"?"+url.Values{"state": {back}}.Encode(), http.StatusSeeOther)
	return nil
}

// endSession revokes a signed-out session, here and at the provider, and
// audits it.
func (s *Server) endSession(r *http.Request, ses *server.Session) {
	if err := s.store.RevokeSession(r.Context(), ses.UserID, ses.ID, "signed out"); err != nil {
		s.log.ErrorContext(r.Context(), "sign-out", "err", err)
	}
	s.sessions.RevokeAtProvider(r.Context(), ses)
	if u, err := s.store.User(r.Context(), ses.UserID); err == nil {
		r = r.WithContext(request.WithPrincipal(r.Context(), &request.Principal{UserID: u.ID, SessionID: ses.ID, Actor: u.Email}))
	}
	s.audit.Record(r, nil, feedback.AuditSignOut, "session:"+ses.ID, nil)
}

// handleSignedOut handles "GET /auth/signed-out?state=PATH": the page
// that says the user is signed out, with a link to sign in again and
// come back to PATH (when safeReturn accepts it).
func (s *Server) handleSignedOut(w http.ResponseWriter, r *http.Request) error {
	back := safeReturn(r.URL.Query().Get("state"))
	return s.renderSignIn(w, http.StatusOK, signInData{Title: "Signed out", Message: "You are signed out.",
		Next: "/auth/login?" + url.Values{"return_to": {back}}.Encode(), Link: "Sign in again", LinkID: "sign-in"})
}

// backTo returns the page a form was posted from, when it is one of
// this site's pages that a sign-in may return to, and "/" otherwise.
func backTo(r *http.Request) string {
	ref, err := url.Parse(r.Referer())
	if err != nil || ref.Host != r.Host {
		return "/"
	}
	return safeReturn(ref.Path)
}
