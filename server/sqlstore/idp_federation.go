package sqlstore

import (
	"context"
	"errors"
	"time"

	"github.com/feedbackhq/feedback/server"
	"github.com/feedbackhq/feedback/shared/feedback"
)

// The organisations' identity providers of the embedded provider
// (idp_federations, idp_federation_domains) and the sign-ins in progress
// at them (idp_federation_states, idp_saml_requests,
// idp_saml_assertions); see server.IdPFederationStore.

// CreateIdPFederation stores a federation with its domains.
func (s *Store) CreateIdPFederation(ctx context.Context, f *server.IdPFederation) (err error) {
	defer wrap(&err, "CreateIdPFederation")
	f.CreatedAt = utc(f.CreatedAt)
	if err := canonicalNew(&f.ID); err != nil {
		return err
	}
	if f.ID == "" {
		f.ID = feedback.NewIDAt(f.CreatedAt)
	}
	err = s.db.InTx(ctx, func(tx Conn) error {
		_, err := tx.Exec(ctx, `INSERT INTO idp_federations (id, name, issuer, client_id, client_secret,
			trust_upstream_mfa, created_at, kind, saml_metadata) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
			f.ID, f.Name, f.Issuer, f.ClientID, f.ClientSecret, f.TrustUpstreamMFA, f.CreatedAt, f.Kind, f.SAMLMetadata)
		for _, d := range f.Domains {
			if err == nil {
				_, err = tx.Exec(ctx, `INSERT INTO idp_federation_domains (domain, federation_id) VALUES ($1, $2)`, d, f.ID)
			}
		}
		return err
	})
	if errors.Is(err, ErrUnique) {
		return feedback.Errorf(feedback.EConflict, "A domain of this federation belongs to another one already.")
	}
	return err
}

// IdPFederations returns every federation, oldest first.
func (s *Store) IdPFederations(ctx context.Context) (_ []server.IdPFederation, err error) {
	defer wrap(&err, "IdPFederations")
	return s.queryIdPFederations(ctx, "")
}

// IdPFederation returns a federation.
func (s *Store) IdPFederation(ctx context.Context, id string) (_ *server.IdPFederation, err error) {
	defer wrap(&err, "IdPFederation(%s)", id)
	if !canonical(&id) {
		return nil, notFound("federation", id)
	}
	return s.oneIdPFederation(ctx, notFound("federation", id), `WHERE f.id = $1`, id)
}

// IdPFederationByDomain returns the federation of a domain.
func (s *Store) IdPFederationByDomain(ctx context.Context, domain string) (_ *server.IdPFederation, err error) {
	defer wrap(&err, "IdPFederationByDomain(%s)", domain)
	return s.oneIdPFederation(ctx, feedback.Errorf(feedback.ENotFound, "No federation signs in %s.", domain),
		`WHERE f.id = (SELECT federation_id FROM idp_federation_domains WHERE domain = $1)`, domain)
}

// oneIdPFederation returns the federation that where selects, or none.
func (s *Store) oneIdPFederation(ctx context.Context, none error, where string, args ...any) (*server.IdPFederation, error) {
	fs, err := s.queryIdPFederations(ctx, where, args...)
	switch {
	case err != nil:
		return nil, err
	case len(fs) == 0:
		return nil, none
	}
	return &fs[0], nil
}

// queryIdPFederations returns the federations that the WHERE clause
// where selects ("" for all), oldest first, with their domains: one row
// per domain.
func (s *Store) queryIdPFederations(ctx context.Context, where string, args ...any) ([]server.IdPFederation, error) {
	rows, err := s.db.Query(ctx, `SELECT f.id, f.name, f.kind, f.issuer, f.client_id, f.client_secret,
		f.trust_upstream_mfa, f.saml_metadata, f.created_at, d.domain
		FROM idp_federations f JOIN idp_federation_domains d ON d.federation_id = f.id `+where+`
		ORDER BY f.created_at, f.id, d.domain`, args...)
	if err != nil {
		return nil, err
	}
	all, err := collect(rows, func(r Row) (f server.IdPFederation, err error) {
		f.Domains = make([]string, 1)
		return f, r.Scan(&f.ID, &f.Name, &f.Kind, &f.Issuer, &f.ClientID, &f.ClientSecret, &f.TrustUpstreamMFA,
			&f.SAMLMetadata, atTime(&f.CreatedAt), &f.Domains[0])
	})
	fs := []server.IdPFederation{}
	for _, f := range all {
		if n := len(fs); n > 0 && fs[n-1].ID == f.ID {
			fs[n-1].Domains = append(fs[n-1].Domains, f.Domains[0])
			continue
		}
		fs = append(fs, f)
	}
	return fs, err
}

// DeleteIdPFederation deletes a federation and what refers to it.
func (s *Store) DeleteIdPFederation(ctx context.Context, id string) (err error) {
	defer wrap(&err, "DeleteIdPFederation(%s)", id)
	if !canonical(&id) {
		return notFound("federation", id)
	}
	n, err := s.db.Exec(ctx, `DELETE FROM idp_federations WHERE id = $1`, id)
	if err == nil && n == 0 {
		err = notFound("federation", id)
	}
	return err
}

// CreateIdPFederationState stores a sign-in sent to an OpenID provider.
func (s *Store) CreateIdPFederationState(ctx context.Context, st *server.IdPFederationState, now time.Time) (err error) {
	defer wrap(&err, "CreateIdPFederationState")
	if !canonical(&st.FederationID) {
		return notFound("federation", st.FederationID)
	}
	st.ExpiresAt = utc(st.ExpiresAt)
	_, err = s.db.Exec(ctx, `INSERT INTO idp_federation_states (state_hash, auth_request_id, federation_id,
		nonce, verifier, created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
		st.StateHash, st.AuthRequestID, st.FederationID, st.Nonce, st.Verifier, utc(now), st.ExpiresAt)
	return createError(err, "sign-in or federation", st.AuthRequestID+", "+st.FederationID)
}

// TakeIdPFederationState deletes a state and returns it, once.
func (s *Store) TakeIdPFederationState(ctx context.Context, hash []byte, now time.Time) (_ *server.IdPFederationState, err error) {
	defer wrap(&err, "TakeIdPFederationState")
	st := &server.IdPFederationState{StateHash: hash}
	err = s.db.InTx(ctx, func(tx Conn) error { // DELETE ... RETURNING runs on SQLite's writer only
		return orGone(tx.QueryRow(ctx, `DELETE FROM idp_federation_states WHERE state_hash = $1 AND expires_at > $2
			RETURNING auth_request_id, federation_id, nonce, verifier, expires_at`, hash, utc(now)).
			Scan(&st.AuthRequestID, &st.FederationID, &st.Nonce, &st.Verifier, atTime(&st.ExpiresAt)), "state")
	})
	return nilOnError(st, err)
}

// CreateIdPSAMLRequest stores a sign-in sent to a SAML IdP.
func (s *Store) CreateIdPSAMLRequest(ctx context.Context, r *server.IdPSAMLRequest, now time.Time) (err error) {
	defer wrap(&err, "CreateIdPSAMLRequest")
	if !canonical(&r.FederationID) {
		return notFound("federation", r.FederationID)
	}
	r.ExpiresAt = utc(r.ExpiresAt)
	_, err = s.db.Exec(ctx, `INSERT INTO idp_saml_requests (relay_hash, auth_request_id, federation_id,
		request_id, created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6)`,
		r.RelayHash, r.AuthRequestID, r.FederationID, r.RequestID, utc(now), r.ExpiresAt)
	return createError(err, "sign-in or federation", r.AuthRequestID+", "+r.FederationID)
}

// TakeIdPSAMLRequest deletes a SAML request and returns it, once.
func (s *Store) TakeIdPSAMLRequest(ctx context.Context, hash []byte, now time.Time) (_ *server.IdPSAMLRequest, err error) {
	defer wrap(&err, "TakeIdPSAMLRequest")
	r := &server.IdPSAMLRequest{RelayHash: hash}
	err = s.db.InTx(ctx, func(tx Conn) error {
		return orGone(tx.QueryRow(ctx, `DELETE FROM idp_saml_requests WHERE relay_hash = $1 AND expires_at > $2
			RETURNING auth_request_id, federation_id, request_id, expires_at`, hash, utc(now)).
			Scan(&r.AuthRequestID, &r.FederationID, &r.RequestID, atTime(&r.ExpiresAt)), "RelayState")
	})
	return nilOnError(r, err)
}

// AddIdPSAMLAssertion records an assertion's ID, once.
func (s *Store) AddIdPSAMLAssertion(ctx context.Context, federationID, assertionID string, expires time.Time) (err error) {
	defer wrap(&err, "AddIdPSAMLAssertion")
	if !canonical(&federationID) {
		return notFound("federation", federationID)
	}
	_, err = s.db.Exec(ctx, `INSERT INTO idp_saml_assertions (federation_id, assertion_id, expires_at)
		VALUES ($1, $2, $3)`, federationID, assertionID, utc(expires))
	if errors.Is(err, ErrUnique) {
		return feedback.Errorf(feedback.EConflict, "This assertion was seen before.")
	}
	return createError(err, "federation", federationID)
}
