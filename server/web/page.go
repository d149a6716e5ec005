package web

import (
	"errors"
	"html/template"
	"net/http"
	"regexp"

	"github.com/feedbackhq/feedback/server/auth"
)

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
// which goes on at once, and Try again otherwise. It returns nil, for
// handlers to end with.
func (s *Server) signInPage(w http.ResponseWriter, status int, message, next string) error {
	d := signInData{Title: "Sign in", Message: message, Next: next, Link: "Try again"}
	if status == http.StatusOK {
		d.Link, d.Continue = "Continue", true
	}
	return s.renderSignIn(w, status, d)
}

// renderSignIn writes signInTemplate with d.
func (s *Server) renderSignIn(w http.ResponseWriter, status int, d signInData) error {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = signInTemplate.Execute(w, d)
	return nil
}

// pageError is a failure answered with its own status and message; err,
// what went wrong underneath, is for the log.
type pageError struct {
	status        int
	message, next string
	err           error
}

func (e *pageError) Error() string { return e.message + ": " + e.err.Error() }

func (e *pageError) Unwrap() error { return e.err }

// errorPage answers the error of a handler as a sign-in page and returns
// its status: a [pageError] as it says, a refused sign-in
// ([auth.SignInError]) with its message, anything else as our failure.
func (s *Server) errorPage(w http.ResponseWriter, r *http.Request, err error) int {
	var pe *pageError
	var refused *auth.SignInError
	switch {
	case errors.As(err, &pe):
		_ = s.signInPage(w, pe.status, pe.message, pe.next)
		return pe.status
	case errors.As(err, &refused):
		s.log.InfoContext(r.Context(), "sign-in refused", "err", err)
		_ = s.signInPage(w, http.StatusBadRequest, refused.Message, "/auth/login")
		return http.StatusBadRequest
	}
	_ = s.signInPage(w, http.StatusInternalServerError, "Signing in failed on our side; try again in a moment.", "/auth/login")
	return http.StatusInternalServerError
}
