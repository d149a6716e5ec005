package sqlstore

import (
	"context"
	"errors"
	"time"

	"github.com/feedbackhq/feedback/server"
	"github.com/feedbackhq/feedback/shared/feedback"
)

// Set-password links and the TOTP enrolments that follow them
// (idp_password_links); see server.IdPAccountStore.

// gone returns the error for a credential of the provider (a link, a
// code, a state) that is unknown, has expired or was used.
func gone(kind string) error {
	return feedback.Errorf(feedback.ENotFound, "This %s is unknown, has expired or was used.", kind)
}

// orGone turns "no rows" into gone(kind).
func orGone(err error, kind string) error {
	if errors.Is(err, ErrNoRows) {
		return gone(kind)
	}
	return err
}

// CreateIdPPasswordLink makes the account of email if needed and gives it
// one unused link, in one transaction.
func (s *Store) CreateIdPPasswordLink(ctx context.Context, email string, hash []byte, now, expires time.Time) (id string, err error) {
	defer wrap(&err, "CreateIdPPasswordLink")
	now = utc(now)
	err = s.db.InTx(ctx, func(tx Conn) error {
		if id, err = ensureIdPAccount(ctx, tx, email, now); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `DELETE FROM idp_password_links WHERE account_id = $1 AND used_at IS NULL`, id); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `INSERT INTO idp_password_links (hash, account_id, created_at, expires_at)
			VALUES ($1, $2, $3, $4)`, hash, id, now, utc(expires))
		return err
	})
	return id, err
}

// IdPPasswordLink returns the account of an unused, unexpired link.
func (s *Store) IdPPasswordLink(ctx context.Context, hash []byte, now time.Time) (_ *server.IdPAccount, err error) {
	defer wrap(&err, "IdPPasswordLink")
	a, err := one(scanIdPAccount(s.db.QueryRow(ctx, `SELECT a.id, a.email, a.password_hash, a.totp_secret
		FROM idp_password_links l JOIN idp_accounts a ON a.id = l.account_id
		WHERE l.hash = $1 AND l.used_at IS NULL AND l.expires_at > $2`, hash, utc(now))))
	return a, orGone(err, "link")
}

// UseIdPPasswordLink spends a link: it sets the password of its account
// and starts enrolment e, in one transaction.
func (s *Store) UseIdPPasswordLink(ctx context.Context, hash []byte, passwordHash string, e *server.IdPEnrolment, now time.Time) (err error) {
	defer wrap(&err, "UseIdPPasswordLink")
	now = utc(now)
	var ticket, secret, until any // NULL without enrolment
	if e != nil {
		ticket, secret, until = e.TicketHash, e.Secret, utc(e.ExpiresAt)
	}
	return s.db.InTx(ctx, func(tx Conn) error {
		var accountID string
		err := tx.QueryRow(ctx, `UPDATE idp_password_links SET used_at = $2, enrol_hash = $3, enrol_secret = $4,
			enrol_expires_at = $5 WHERE hash = $1 AND used_at IS NULL AND expires_at > $2 RETURNING account_id`,
			hash, now, ticket, secret, until).Scan(&accountID)
		if err != nil {
			return orGone(err, "link")
		}
		return setIdPPassword(ctx, tx, accountID, passwordHash, now)
	})
}

// IdPEnrolment returns an unexpired enrolment with its account.
func (s *Store) IdPEnrolment(ctx context.Context, hash []byte, now time.Time) (_ *server.IdPEnrolment, err error) {
	defer wrap(&err, "IdPEnrolment")
	e := &server.IdPEnrolment{TicketHash: hash}
	err = s.db.QueryRow(ctx, `SELECT a.id, a.email, l.enrol_secret, l.enrol_expires_at
		FROM idp_password_links l JOIN idp_accounts a ON a.id = l.account_id
		WHERE l.enrol_hash = $1 AND l.enrol_expires_at > $2`, hash, utc(now)).
		Scan(&e.AccountID, &e.Email, &e.Secret, atTime(&e.ExpiresAt))
	return nilOnError(e, orGone(err, "enrolment"))
}

// FinishIdPEnrolment ends an enrolment and gives its account the secret,
// in one transaction.
func (s *Store) FinishIdPEnrolment(ctx context.Context, hash, secret []byte, step int64, now time.Time) (err error) {
	defer wrap(&err, "FinishIdPEnrolment")
	now = utc(now)
	return s.db.InTx(ctx, func(tx Conn) error {
		var accountID string
		err := tx.QueryRow(ctx, `UPDATE idp_password_links SET enrol_hash = NULL, enrol_secret = NULL, enrol_expires_at = NULL
			WHERE enrol_hash = $1 AND enrol_expires_at > $2 RETURNING account_id`, hash, now).Scan(&accountID)
		if err != nil {
			return orGone(err, "enrolment")
		}
		return setIdPTOTP(ctx, tx, accountID, secret, step, now)
	})
}

// RenewIdPEnrolment gives an enrolment a new ticket.
func (s *Store) RenewIdPEnrolment(ctx context.Context, old, next []byte) (err error) {
	defer wrap(&err, "RenewIdPEnrolment")
	_, err = s.db.Exec(ctx, `UPDATE idp_password_links SET enrol_hash = $2 WHERE enrol_hash = $1`, old, next)
	return err
}
