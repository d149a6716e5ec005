package http

import (
	"errors"
	"html/template"
	"net/http"
	"net/url"
	"regexp"
	"strings"

	"github.com/go-chi/chi/v5"

	"github.com/feedbackhq/feedback/server"
	"github.com/feedbackhq/feedback/server/auth"
	"github.com/feedbackhq/feedback/shared/feedback"
)

func (s *Server) registerSignInRoutes(r chi.Router) {
	r.Get("/auth/login", s.handleSignIn)
	r.Get("/auth/callback", s.handleCallback)
	r.Post("/auth/logout", s.handleSignOut)
	r.Get("/auth/invite/{code}", s.handleInviteAccept)
}

// returnPath matches the places a sign-in may return to: the dashboard
// of a workspace, Global Settings, or the start page. Anything else
// returns to "/", so no request text ever reaches a page attribute and
// no sign-in redirects off the site.
var returnPath = regexp.MustCompile(`^/(w/[a-z0-9][a-z0-9-]{0,62}/([a-z0-9-]+/?)*|settings/([a-z0-9-]+/?)*|auth/invite/fbi_[0-9A-Za-z]{40})?$`)

func safeReturn(p string) string {
	if returnPath.MatchString(p) {
		return p
	}
	return "/"
}

// handleSignIn handles "GET /auth/login?return_to=PATH": it starts the
// authorization code flow and redirects to the identity provider.
func (s *Server) handleSignIn(w http.ResponseWriter, r *http.Request) {
	if s.rp == nil {
		s.signInPage(w, http.StatusServiceUnavailable, "Sign-in is not configured on this server.", "/")
		return
	}
	u, l, err := s.rp.Begin(r.Context(), safeReturn(r.URL.Query().Get("return_to")), s.now())
	if err == nil {
		err = auth.SetLogin(w, s.keys, l)
	}
	if err != nil {
		s.log.ErrorContext(r.Context(), "sign-in", "err", err)
		s.signInPage(w, http.StatusBadGateway, "The identity provider cannot be reached; try again in a moment.", "/")
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	http.Redirect(w, r, u, http.StatusFound)
}

// providerTokenAAD binds a sealed provider refresh token to its purpose.
var providerTokenAAD = []byte("provider-refresh-token")

// handleCallback handles "GET /auth/callback": it verifies the sign-in,
// records the user, starts a session and answers a page that continues
// to the dashboard. The page is a 200, not a redirect: the session
// cookies are SameSite=Strict, and a browser would not send them on a
// redirect that a cross-site navigation (from the provider) started.
func (s *Server) handleCallback(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store")
	l := auth.TakeLogin(w, r, s.keys)
	if s.rp == nil {
		s.signInPage(w, http.StatusServiceUnavailable, "Sign-in is not configured on this server.", "/")
		return
	}
	id, err := s.rp.Finish(r.Context(), l, r.URL.Query(), s.now())
	if err != nil {
		s.refuseSignIn(w, r, err)
		return
	}
	u := &server.User{Issuer: id.Issuer, Subject: id.Subject, Email: id.Email, Name: id.Name}
	if err := s.store.SignIn(r.Context(), u); err != nil {
		s.refuseSignIn(w, r, err)
		return
	}
	var sealed []byte
	if id.RefreshToken != "" {
		sealed = s.keys.Seal([]byte(id.RefreshToken), providerTokenAAD)
	}
	ses, err := s.sessions.Start(r.Context(), w, u, id.AMR, s.clientIP(r), r.UserAgent(), sealed)
	if err != nil {
		s.refuseSignIn(w, r, err)
		return
	}
	ctx := r.Context()
	r = r.WithContext(withPrincipal(ctx, &principal{UserID: u.ID, SessionID: ses.ID, Actor: u.Email}))
	s.audit(r, nil, feedback.AuditSignIn, "session:"+ses.ID, map[string]string{"amr": strings.Join(id.AMR, " ")})
	back := "/"
	if l != nil {
		back = safeReturn(l.ReturnTo)
	}
	s.signInPage(w, http.StatusOK, "You are signed in.", back)
}

// refuseSignIn answers a failed callback with a readable page.
func (s *Server) refuseSignIn(w http.ResponseWriter, r *http.Request, err error) {
	if errors.Is(err, auth.ErrSignIn) {
		s.log.InfoContext(r.Context(), "sign-in refused", "err", err)
		s.signInPage(w, http.StatusBadRequest, err.Error(), "/auth/login")
		return
	}
	s.log.ErrorContext(r.Context(), "sign-in", "err", err)
	s.signInPage(w, http.StatusInternalServerError, "Signing in failed on our side; try again in a moment.", "/auth/login")
}

// handleSignOut handles "POST /auth/logout": it revokes the session at
// once, and the provider's refresh token (RFC 7009) when the provider
// supports it, clears the cookies and returns to the page the form was
// on (the workspace, now offering Sign in), or the start page.
func (s *Server) handleSignOut(w http.ResponseWriter, r *http.Request) {
	if err := s.cop.Check(r); err != nil {
		s.signInPage(w, http.StatusForbidden, "Sign out from the dashboard itself.", "/")
		return
	}
	if ses, err := s.sessions.Authenticate(w, r); err == nil {
		if err := s.store.RevokeSession(r.Context(), ses.UserID, ses.ID, "signed out"); err != nil {
			s.log.ErrorContext(r.Context(), "sign-out", "err", err)
		}
		s.revokeAtProvider(r, ses)
		if u, err := s.store.User(r.Context(), ses.UserID); err == nil {
			r = r.WithContext(withPrincipal(r.Context(), &principal{UserID: u.ID, SessionID: ses.ID, Actor: u.Email}))
		}
		s.audit(r, nil, feedback.AuditSignOut, "session:"+ses.ID, nil)
	}
	s.sessions.Clear(w)
	http.Redirect(w, r, backTo(r), http.StatusSeeOther)
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

// revokeAtProvider revokes the session's provider refresh token.
func (s *Server) revokeAtProvider(r *http.Request, ses *server.Session) {
	if s.rp == nil || ses.ProviderToken == nil {
		return
	}
	tok, err := s.keys.Open(ses.ProviderToken, providerTokenAAD)
	if err == nil {
		err = s.rp.Revoke(r.Context(), string(tok))
	}
	if err != nil {
		s.log.WarnContext(r.Context(), "revoke at provider", "err", err)
	}
}

var signInTemplate = template.Must(template.New("signin").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
{{if .Continue}}<meta http-equiv="refresh" content="0;url={{.Next}}">{{end}}
<title>Sign in · Feedback</title><link rel="stylesheet" href="/web/style.css"></head>
<body><main class="signin"><h1>Feedback</h1><p role="status">{{.Message}}</p>
<p><a href="{{.Next}}">{{if .Continue}}Continue{{else}}Try again{{end}}</a></p></main></body></html>`))

// signInPage answers a small page with message and a link to next
// (a path that safeReturn accepted, or a fixed one).
func (s *Server) signInPage(w http.ResponseWriter, status int, message, next string) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = signInTemplate.Execute(w, struct {
		Message, Next string
		Continue      bool
	}{message, next, status == http.StatusOK})
}
