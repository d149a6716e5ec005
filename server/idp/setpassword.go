package idp

import (
	"context"
	"errors"
	"net/http"

	"github.com/feedbackhq/feedback/server"
	"github.com/feedbackhq/feedback/server/secret"
)

// Prefixes of the credentials of set-password links and of the TOTP
// enrolments that follow them (secret.NewToken).
const (
	linkPrefix  = "fbpw_"
	enrolPrefix = "fbenrol_"
)

// link is an unused, unexpired set-password link.
type link struct{ accountID, email string }

// link returns the link of token, or errNotFound.
func (p *Provider) link(ctx context.Context, token string) (_ *link, err error) {
	defer wrap(&err, "link")
	if !secret.ValidToken(linkPrefix, token) {
		return nil, errNotFound
	}
	a, err := p.cfg.Store.IdPPasswordLink(ctx, secret.Hash(token), p.now())
	if err != nil {
		return nil, orNotFound(err)
	}
	return &link{accountID: a.ID, email: a.Email}, nil
}

// handlePasswordPage handles "GET /password?token=T": the form of a
// set-password link.
func (p *Provider) handlePasswordPage(w http.ResponseWriter, r *http.Request) {
	l, ok := p.passwordLink(w, r)
	if !ok {
		return
	}
	p.passwordForm(w, r, http.StatusOK, l, "")
}

// passwordForm writes the form of link l, with msg as its error.
func (p *Provider) passwordForm(w http.ResponseWriter, r *http.Request, status int, l *link, msg string) {
	required, err := p.mfaRequired(r.Context())
	if err != nil {
		p.internalError(w, r, err)
		return
	}
	p.render(w, status, "password", pageData{Title: "Set your password", Error: msg, Email: l.email, MFARequired: required})
}

// passwordLink returns the link the request names, or writes the page
// that says it is gone.
func (p *Provider) passwordLink(w http.ResponseWriter, r *http.Request) (*link, bool) {
	l, err := p.link(r.Context(), r.URL.Query().Get("token"))
	switch {
	case errors.Is(err, errNotFound):
		p.linkGone(w)
	case err != nil:
		p.internalError(w, r, err)
	}
	return l, err == nil
}

// linkGone writes the page of a link that is unknown, used or expired.
func (p *Provider) linkGone(w http.ResponseWriter) {
	p.message(w, http.StatusGone, "Link expired",
		"This link has expired or was used already.", "Ask an administrator for a new one.")
}

// handlePassword handles "POST /password?token=T": the new password, or
// (with the field enrol) the code that completes the TOTP enrolment that
// follows it.
func (p *Provider) handlePassword(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, maxForm)
	if err := r.ParseForm(); err != nil {
		p.message(w, http.StatusBadRequest, "Set your password", "The form could not be read. Go back and try again.")
		return
	}
	if r.PostForm.Has("enrol") {
		p.finishEnrol(w, r)
		return
	}
	p.setPasswordByLink(w, r)
}

// setPasswordByLink spends the link: it sets the password and, when the
// person asks for TOTP or the organisation requires it, starts the
// enrolment.
func (p *Provider) setPasswordByLink(w http.ResponseWriter, r *http.Request) {
	l, ok := p.passwordLink(w, r)
	if !ok {
		return
	}
	ctx, password := r.Context(), r.PostForm.Get("password")
	msg := passwordProblem(l.email, password)
	if msg == "" && password != r.PostForm.Get("confirm") {
		msg = "The two passwords differ."
	}
	if msg != "" {
		p.passwordForm(w, r, http.StatusUnprocessableEntity, l, msg)
		return
	}
	required, err := p.mfaRequired(ctx)
	var hash string
	if err == nil {
		hash, err = hashPassword(ctx, password)
	}
	var e *enrolment
	if required || r.PostForm.Get("totp") == "on" {
		e = newEnrolment()
	}
	if err == nil {
		err = p.useLink(ctx, r.URL.Query().Get("token"), l.accountID, hash, e)
	}
	switch {
	case errors.Is(err, errNotFound):
		p.linkGone(w)
	case err != nil:
		p.internalError(w, r, err)
	default:
		p.afterLink(w, l, e)
	}
}

// afterLink writes the page that follows a spent link: the enrolment e,
// or the end.
func (p *Provider) afterLink(w http.ResponseWriter, l *link, e *enrolment) {
	if e == nil {
		p.message(w, http.StatusOK, "Password set", "Your password is set.", "Go back to the application and sign in.")
		return
	}
	p.enrolForm(w, http.StatusOK, l.email, e, "")
}

// useLink spends the link of token: it sets the password of the account
// to hash, revokes the account's tokens and, with e, starts a TOTP
// enrolment. Returns errNotFound when the link was spent meanwhile.
func (p *Provider) useLink(ctx context.Context, token, accountID, hash string, e *enrolment) (err error) {
	defer wrap(&err, "useLink")
	now := p.now()
	var en *server.IdPEnrolment
	if e != nil {
		en = &server.IdPEnrolment{TicketHash: e.hash, Secret: p.sealTOTP(accountID, e.secret), ExpiresAt: now.Add(enrolTTL)}
	}
	return orNotFound(p.cfg.Store.UseIdPPasswordLink(ctx, secret.Hash(token), hash, en, now))
}
