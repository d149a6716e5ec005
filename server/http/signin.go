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
	"github.com/feedbackhq/feedback/server/http/request"
	"github.com/feedbackhq/feedback/server/secret"
	"github.com/feedbackhq/feedback/shared/feedback"
)

func (s *Server) registerSignInRoutes(r chi.Router) {
	r.Get("/auth/login", s.handleSignIn)
	r.Get("/auth/callback", s.handleCallback)
	r.Post("/auth/logout", s.handleSignOut)
	r.Get(signedOutPath, s.handleSignedOut)
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
	ses, err := s.sessions.Start(r.Context(), w, u, id, request.ClientIP(r), r.UserAgent())
	if err != nil {
		s.refuseSignIn(w, r, err)
		return
	}
	ctx := r.Context()
	r = r.WithContext(request.WithPrincipal(ctx, &request.Principal{UserID: u.ID, SessionID: ses.ID, Actor: u.Email}))
	s.audit.Record(r, nil, feedback.AuditSignIn, "session:"+ses.ID, map[string]string{"amr": strings.Join(id.AMR, " ")})
	back := "/"
	if l != nil {
		back = safeReturn(l.ReturnTo)
	}
	s.signInPage(w, http.StatusOK, "You are signed in.", back)
}

// refuseSignIn answers a failed callback with a readable page; what
// went wrong underneath goes to the log.
func (s *Server) refuseSignIn(w http.ResponseWriter, r *http.Request, err error) {
	var refused *auth.SignInError
	if errors.As(err, &refused) {
		s.log.InfoContext(r.Context(), "sign-in refused", "err", err)
		s.signInPage(w, http.StatusBadRequest, refused.Message, "/auth/login")
		return
	}
	s.log.ErrorContext(r.Context(), "sign-in", "err", err)
	s.signInPage(w, http.StatusInternalServerError, "Signing in failed on our side; try again in a moment.", "/auth/login")
}

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
func (s *Server) handleSignOut(w http.ResponseWriter, r *http.Request) {
	if err := s.cop.Check(r); err != nil {
		s.signInPage(w, http.StatusForbidden, "Sign out from the dashboard itself.", "/")
		return
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
		s.renderSignIn(w, http.StatusOK, signInData{Title: "Signing out",
			Message: "You are signed out here; your identity provider signs you out next.",
			Next:    end, Link: "Continue to your identity provider", LinkID: "end-session", Continue: true})
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	http.Redirect(w, r, signedOutPath+"?"+url.Values{"state": {back}}.Encode(), http.StatusSeeOther)
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

// signedOutPath is where a sign-out ends: the provider's
// post_logout_redirect_uri.
const signedOutPath = "/auth/signed-out"

// handleSignedOut handles "GET /auth/signed-out?state=PATH": the page
// that says the user is signed out, with a link to sign in again and
// come back to PATH (when safeReturn accepts it).
func (s *Server) handleSignedOut(w http.ResponseWriter, r *http.Request) {
	back := safeReturn(r.URL.Query().Get("state"))
	s.renderSignIn(w, http.StatusOK, signInData{Title: "Signed out", Message: "You are signed out.",
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

var signInTemplate = template.Must(template.New("signin").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
{{if .Continue}}<meta http-equiv="refresh" content="0;url={{.Next}}">{{end}}
<title>{{.Title}} · Feedback</title><link rel="stylesheet" href="/web/style.css"></head>
<body><main class="signin"><h1>Feedback</h1><p role="status">{{.Message}}</p>
<p><a {{with .LinkID}}id="{{.}}" {{end}}href="{{.Next}}">{{.Link}}</a></p></main></body></html>`))

// signInData fills signInTemplate.
type signInData struct {
	Title, Message string
	Next           string // the link's target: a path that safeReturn accepted, or a fixed one
	Link, LinkID   string // its text and id
	Continue       bool   // follow the link at once
}

// signInPage answers a small page with message and a link to next
// (a path that safeReturn accepted, or a fixed one): Continue on a 200,
// which goes on at once, and Try again otherwise.
func (s *Server) signInPage(w http.ResponseWriter, status int, message, next string) {
	d := signInData{Title: "Sign in", Message: message, Next: next, Link: "Try again"}
	if status == http.StatusOK {
		d.Link, d.Continue = "Continue", true
	}
	s.renderSignIn(w, status, d)
}

// renderSignIn writes signInTemplate with d.
func (s *Server) renderSignIn(w http.ResponseWriter, status int, d signInData) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = signInTemplate.Execute(w, d)
}

// handleInviteAccept handles "GET /auth/invite/{code}": signed in, the
// user joins the workspace and continues to its dashboard; signed out,
// they sign in first and come back here.
func (s *Server) handleInviteAccept(w http.ResponseWriter, r *http.Request) {
	code := chi.URLParam(r, "code")
	if !secret.ValidToken(secret.InvitePrefix, code) {
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
	s.audit.Record(r, &m.WorkspaceID, feedback.AuditMemberJoined, "user:"+ses.UserID, map[string]string{"role": m.Role})
	s.signInPage(w, http.StatusOK, "You joined "+m.Name+" as "+m.Role+".", "/w/"+m.Slug+"/")
}
