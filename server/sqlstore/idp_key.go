package sqlstore

import (
	"context"
	"errors"
	"time"

	"github.com/feedbackhq/feedback/server"
	"github.com/feedbackhq/feedback/shared/feedback"
)

// The embedded provider's signing keys (idp_signing_keys), see
// server.IdPKeyStore, and the purge of what it keeps.

// NewestIdPSigningKey returns the key of the highest generation.
func (s *Store) NewestIdPSigningKey(ctx context.Context) (_ *server.IdPSigningKey, err error) {
	defer wrap(&err, "NewestIdPSigningKey")
	k := &server.IdPSigningKey{}
	err = s.db.QueryRow(ctx, `SELECT generation, kid, algorithm, public_key, private_key, created_at
		FROM idp_signing_keys ORDER BY generation DESC LIMIT 1`).
		Scan(&k.Generation, &k.KID, &k.Algorithm, &k.PublicKey, &k.PrivateKey, atTime(&k.CreatedAt))
	if errors.Is(err, ErrNoRows) {
		return nil, feedback.Errorf(feedback.ENotFound, "There is no signing key.")
	}
	return nilOnError(k, err)
}

// CreateIdPSigningKey stores a key.
func (s *Store) CreateIdPSigningKey(ctx context.Context, k *server.IdPSigningKey) (err error) {
	defer wrap(&err, "CreateIdPSigningKey(%d)", k.Generation)
	k.CreatedAt = utc(k.CreatedAt)
	_, err = s.db.Exec(ctx, `INSERT INTO idp_signing_keys (generation, kid, algorithm, public_key, private_key, created_at)
		VALUES ($1, $2, $3, $4, $5, $6)`, k.Generation, k.KID, k.Algorithm, k.PublicKey, k.PrivateKey, k.CreatedAt)
	if errors.Is(err, ErrUnique) {
		return feedback.Errorf(feedback.EConflict, "A signing key of generation %d exists.", k.Generation)
	}
	return err
}

// IdPSigningKeys returns every key without its private half, newest
// first.
func (s *Store) IdPSigningKeys(ctx context.Context) (_ []server.IdPSigningKey, err error) {
	defer wrap(&err, "IdPSigningKeys")
	rows, err := s.db.Query(ctx, `SELECT generation, kid, algorithm, public_key, created_at FROM idp_signing_keys
		ORDER BY generation DESC`)
	if err != nil {
		return nil, err
	}
	return collect(rows, func(r Row) (k server.IdPSigningKey, err error) {
		return k, r.Scan(&k.Generation, &k.KID, &k.Algorithm, &k.PublicKey, atTime(&k.CreatedAt))
	})
}

// idpPurges delete what has expired: rows older than $1, which is now,
// or keysBefore for the keys.
var idpPurges = []struct {
	sql  string
	keys bool
}{
	{`DELETE FROM idp_auth_requests WHERE expires_at <= $1`, false},
	{`DELETE FROM idp_access_tokens WHERE expires_at <= $1`, false},
	{`DELETE FROM idp_refresh_tokens WHERE expires_at <= $1`, false},
	{`DELETE FROM idp_password_links WHERE expires_at <= $1 AND (enrol_expires_at IS NULL OR enrol_expires_at <= $1)`, false},
	{`DELETE FROM idp_throttle WHERE quiet_after <= $1`, false},
	{`DELETE FROM idp_federation_states WHERE expires_at <= $1`, false},
	{`DELETE FROM idp_saml_requests WHERE expires_at <= $1`, false},
	{`DELETE FROM idp_saml_assertions WHERE expires_at <= $1`, false},
	{`DELETE FROM idp_signing_keys WHERE generation IN (SELECT o.generation FROM idp_signing_keys o
		JOIN idp_signing_keys n ON n.generation = o.generation + 1 WHERE n.created_at <= $1)`, true},
}

// PurgeIdP deletes what expired, one statement at a time.
func (s *Store) PurgeIdP(ctx context.Context, now, keysBefore time.Time) (err error) {
	defer wrap(&err, "PurgeIdP")
	for _, q := range idpPurges {
		at := now
		if q.keys {
			at = keysBefore
		}
		if _, err := s.db.Exec(ctx, q.sql, utc(at)); err != nil {
			return err
		}
	}
	return nil
}
