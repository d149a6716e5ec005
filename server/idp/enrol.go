package idp

import (
	"context"
	"errors"
	"net/http"

	"github.com/feedbackhq/feedback/server/secret"
)

// enrolment is a TOTP enrolment that a spent set-password link started:
// its ticket (the form carries it; the database keeps its hash) and the
// secret it offers.
type enrolment struct {
	ticket string
	hash   []byte
	secret string
}

func newEnrolment() *enrolment {
	t, h := secret.NewToken(enrolPrefix)
	return &enrolment{ticket: t, hash: h, secret: newTOTPSecret()}
}

// pendingEnrolment is an enrolment as the store holds it, its secret
// opened.
type pendingEnrolment struct {
	accountID, email, secret string
}

// enrolmentOf returns the unexpired enrolment of ticket, or errNotFound.
func (p *Provider) enrolmentOf(ctx context.Context, ticket string) (_ *pendingEnrolment, err error) {
	defer wrap(&err, "enrolmentOf")
	if !secret.ValidToken(enrolPrefix, ticket) {
		return nil, errNotFound
	}
	e, err := p.cfg.Store.IdPEnrolment(ctx, secret.Hash(ticket), p.now())
	if err != nil {
		return nil, orNotFound(err)
	}
	plain, err := p.cfg.Keys.Open(e.Secret, totpAAD(e.AccountID))
	return &pendingEnrolment{accountID: e.AccountID, email: e.Email, secret: string(plain)}, err
}

// enrolForm writes the enrolment page of e, with msg as its error.
func (p *Provider) enrolForm(w http.ResponseWriter, status int, email string, e *enrolment, msg string) {
	p.render(w, status, "enrol", pageData{Title: "Set up two-step verification", Error: msg,
		Secret: e.secret, OTPURL: keyURI(email, e.secret), Ticket: e.ticket})
}

// finishEnrol checks the code of an enrolment and gives its account the
// secret. A wrong code counts as a failed sign-in, and the form comes
// back with a new ticket.
func (p *Provider) finishEnrol(w http.ResponseWriter, r *http.Request) {
	ctx, ticket := r.Context(), r.PostForm.Get("enrol")
	pe, err := p.enrolmentOf(ctx, ticket)
	if errors.Is(err, errNotFound) {
		p.linkGone(w)
		return
	}
	if err != nil {
		p.internalError(w, r, err)
		return
	}
	att, ok := p.reserve(w, r, signInKeys(r, pe.email))
	if !ok {
		return
	}
	step, ok := matchTOTP(pe.secret, r.PostForm.Get("code"), p.now())
	if !ok {
		p.retryEnrol(w, r, ticket, pe)
		return
	}
	if err := p.refund(ctx, att, false); err != nil {
		p.internalError(w, r, err)
		return
	}
	err = orNotFound(p.cfg.Store.FinishIdPEnrolment(ctx, secret.Hash(ticket), p.sealTOTP(pe.accountID, pe.secret),
		step, p.now()))
	switch {
	case errors.Is(err, errNotFound):
		p.linkGone(w)
	case err != nil:
		p.internalError(w, r, err)
	default:
		p.message(w, http.StatusOK, "Two-step verification is on",
			"Your password is set and your authenticator app is ready.", "Go back to the application and sign in.")
	}
}

// retryEnrol shows the form again after a wrong enrolment code (its
// attempt stays counted), under a new ticket.
func (p *Provider) retryEnrol(w http.ResponseWriter, r *http.Request, old string, pe *pendingEnrolment) {
	e := newEnrolment()
	e.secret = pe.secret
	if err := p.cfg.Store.RenewIdPEnrolment(r.Context(), secret.Hash(old), e.hash); err != nil {
		p.internalError(w, r, err)
		return
	}
	p.enrolForm(w, http.StatusUnprocessableEntity, pe.email, e, wrongCode)
}
