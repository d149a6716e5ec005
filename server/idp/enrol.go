package idp

import (
	"context"
	"errors"
	"net/http"

	"github.com/feedbackhq/feedback/server/secret"
	"github.com/feedbackhq/feedback/server/sqlstore"
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

// pendingEnrolment is an enrolment as the database holds it.
type pendingEnrolment struct {
	accountID, email, secret string
}

// enrolmentOf returns the unexpired enrolment of ticket, or errNotFound.
func (p *Provider) enrolmentOf(ctx context.Context, ticket string) (_ *pendingEnrolment, err error) {
	defer wrap(&err, "enrolmentOf")
	if !secret.ValidToken(enrolPrefix, ticket) {
		return nil, errNotFound
	}
	e := &pendingEnrolment{}
	var sealed []byte
	err = p.cfg.DB.QueryRow(ctx, `SELECT a.id, a.email, l.enrol_secret FROM idp_password_links l
		JOIN idp_accounts a ON a.id = l.account_id
		WHERE l.enrol_hash = $1 AND l.enrol_expires_at > $2`, secret.Hash(ticket), p.now()).
		Scan(&e.accountID, &e.email, &sealed)
	if err != nil {
		return nil, orNotFound(err)
	}
	plain, err := p.cfg.Keys.Open(sealed, totpAAD(e.accountID))
	e.secret = string(plain)
	return e, err
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
	err = p.cfg.DB.InTx(ctx, func(tx sqlstore.Conn) error {
		n, err := tx.Exec(ctx, `UPDATE idp_password_links SET enrol_hash = NULL, enrol_secret = NULL, enrol_expires_at = NULL
			WHERE enrol_hash = $1 AND enrol_expires_at > $2`, secret.Hash(ticket), p.now())
		if err == nil && n == 0 {
			return errNotFound
		}
		if err != nil {
			return err
		}
		return p.storeTOTP(ctx, tx, pe.accountID, pe.secret, step)
	})
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
	_, err := p.cfg.DB.Exec(r.Context(), `UPDATE idp_password_links SET enrol_hash = $2 WHERE enrol_hash = $1`,
		secret.Hash(old), e.hash)
	if err != nil {
		p.internalError(w, r, err)
		return
	}
	p.enrolForm(w, http.StatusUnprocessableEntity, pe.email, e, wrongCode)
}
