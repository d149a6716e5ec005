package idp

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/zitadel/oidc/v3/pkg/oidc"
	"github.com/zitadel/oidc/v3/pkg/op"

	"github.com/feedbackhq/feedback/server/secret"
	"github.com/feedbackhq/feedback/server/sqlstore"
)

// refreshPrefix starts every refresh token, so that a leaked one is
// recognised (secret.NewToken).
const refreshPrefix = "fbidp_"

// grant is what tokens carry over from the sign-in they descend from.
type grant struct {
	clientID, accountID, authRequestID string
	scopes, amr                        []string
	authTime                           time.Time
}

// refreshRequest is the grant of a refresh token: op.RefreshTokenRequest.
type refreshRequest struct {
	grant
	id string
}

var _ op.RefreshTokenRequest = (*refreshRequest)(nil)

func (r *refreshRequest) GetAMR() []string            { return r.amr }
func (r *refreshRequest) GetAudience() []string       { return []string{r.clientID} }
func (r *refreshRequest) GetAuthTime() time.Time      { return r.authTime }
func (r *refreshRequest) GetClientID() string         { return r.clientID }
func (r *refreshRequest) GetScopes() []string         { return r.scopes }
func (r *refreshRequest) GetSubject() string          { return r.accountID }
func (r *refreshRequest) SetCurrentScopes(s []string) { r.scopes = s }

// tokenError wraps an error of the token storage.
func tokenError(err error) error { return fmt.Errorf("idp: tokens: %w", err) }

func (s *storage) db() sqlstore.DB { return s.p.cfg.DB }

// grantOf returns the grant of a token request: a sign-in (the code
// grant) or a refresh token.
func grantOf(r op.TokenRequest) (grant, error) {
	switch r := r.(type) {
	case *authRequest:
		return grant{r.clientID, r.accountID, r.id, r.scopes, r.amr, r.GetAuthTime()}, nil
	case *refreshRequest:
		return r.grant, nil
	}
	return grant{}, fmt.Errorf("idp: unsupported token request %T", r)
}

// CreateAccessToken issues an access token without a refresh token.
func (s *storage) CreateAccessToken(ctx context.Context, r op.TokenRequest) (string, time.Time, error) {
	g, err := grantOf(r)
	if err != nil {
		return "", time.Time{}, err
	}
	now, id := s.p.now(), newID()
	if err := insertAccess(ctx, s.db(), id, "", g, now); err != nil {
		return "", time.Time{}, tokenError(err)
	}
	return id, now.Add(accessTokenTTL), nil
}

// CreateAccessAndRefreshTokens issues an access token and a refresh
// token. With current, a refresh token, it rotates it: current is spent
// (the access tokens issued with it are revoked), or the request fails
// with invalid_grant when another request spent it first.
func (s *storage) CreateAccessAndRefreshTokens(ctx context.Context, r op.TokenRequest, current string) (string, string, time.Time, error) {
	g, err := grantOf(r)
	if err != nil {
		return "", "", time.Time{}, err
	}
	now, accessID, refreshID := s.p.now(), newID(), newID()
	refresh, hash := secret.NewToken(refreshPrefix)
	err = s.db().InTx(ctx, func(tx sqlstore.Conn) error {
		if current != "" {
			if err := spendRefresh(ctx, tx, current, now); err != nil {
				return err
			}
		}
		if err := insertRefresh(ctx, tx, refreshID, hash, g, now); err != nil {
			return err
		}
		return insertAccess(ctx, tx, accessID, refreshID, g, now)
	})
	if errors.Is(err, errNotFound) {
		return "", "", time.Time{}, oidc.ErrInvalidGrant().WithDescription("the refresh token was used or revoked")
	}
	if err != nil {
		return "", "", time.Time{}, tokenError(err)
	}
	return accessID, refresh, now.Add(accessTokenTTL), nil
}

func insertAccess(ctx context.Context, c sqlstore.Conn, id, refreshID string, g grant, now time.Time) error {
	_, err := c.Exec(ctx, `INSERT INTO idp_access_tokens (id, client_id, account_id, auth_request_id, refresh_token_id,
		scopes, created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
		id, g.clientID, g.accountID, g.authRequestID, sqlstore.Null(refreshID), strings.Join(g.scopes, " "), now, now.Add(accessTokenTTL))
	return err
}

func insertRefresh(ctx context.Context, c sqlstore.Conn, id string, hash []byte, g grant, now time.Time) error {
	_, err := c.Exec(ctx, `INSERT INTO idp_refresh_tokens (id, hash, client_id, account_id, auth_request_id, scopes,
		amr, auth_time, created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
		id, hash, g.clientID, g.accountID, g.authRequestID, strings.Join(g.scopes, " "), strings.Join(g.amr, " "),
		g.authTime, now, now.Add(refreshTokenTTL))
	return err
}

// spendRefresh deletes a live refresh token and the access tokens issued
// with it, or returns errNotFound.
func spendRefresh(ctx context.Context, tx sqlstore.Conn, token string, now time.Time) error {
	var id string
	err := tx.QueryRow(ctx, `DELETE FROM idp_refresh_tokens WHERE hash = $1 AND expires_at > $2 RETURNING id`,
		secret.Hash(token), now).Scan(&id)
	if err != nil {
		return orNotFound(err)
	}
	_, err = tx.Exec(ctx, `DELETE FROM idp_access_tokens WHERE refresh_token_id = $1`, id)
	return err
}

// TokenRequestByRefreshToken returns the grant of a live refresh token.
func (s *storage) TokenRequestByRefreshToken(ctx context.Context, token string) (op.RefreshTokenRequest, error) {
	if !secret.ValidToken(refreshPrefix, token) {
		return nil, errNotFound
	}
	r := &refreshRequest{}
	var scopes, amr string
	err := s.db().QueryRow(ctx, `SELECT id, client_id, account_id, auth_request_id, scopes, amr, auth_time
		FROM idp_refresh_tokens WHERE hash = $1 AND expires_at > $2`, secret.Hash(token), s.p.now()).
		Scan(&r.id, &r.clientID, &r.accountID, &r.authRequestID, &scopes, &amr, at(&r.authTime))
	if err != nil {
		return nil, orNotFound(err)
	}
	r.scopes, r.amr = words(scopes), words(amr)
	return r, nil
}

// GetRefreshTokenInfo returns the account and id of a client's refresh
// token, or op.ErrInvalidRefreshToken.
func (s *storage) GetRefreshTokenInfo(ctx context.Context, clientID, token string) (userID, tokenID string, err error) {
	err = s.db().QueryRow(ctx, `SELECT account_id, id FROM idp_refresh_tokens WHERE hash = $1 AND client_id = $2`,
		secret.Hash(token), clientID).Scan(&userID, &tokenID)
	if errors.Is(err, sqlstore.ErrNoRows) {
		return "", "", op.ErrInvalidRefreshToken
	}
	return userID, tokenID, err
}

// RevokeToken revokes a client's access token, or its refresh token and
// the access tokens issued with it (RFC 7009). An unknown token, or
// another client's, is already as good as revoked.
func (s *storage) RevokeToken(ctx context.Context, tokenID, _, clientID string) *oidc.Error {
	err := s.db().InTx(ctx, func(tx sqlstore.Conn) error {
		n, err := tx.Exec(ctx, `DELETE FROM idp_access_tokens WHERE id = $1 AND client_id = $2`, tokenID, clientID)
		if err != nil || n > 0 {
			return err
		}
		n, err = tx.Exec(ctx, `DELETE FROM idp_refresh_tokens WHERE id = $1 AND client_id = $2`, tokenID, clientID)
		if err != nil || n == 0 {
			return err
		}
		_, err = tx.Exec(ctx, `DELETE FROM idp_access_tokens WHERE refresh_token_id = $1`, tokenID)
		return err
	})
	if err != nil {
		return oidc.ErrServerError().WithParent(tokenError(err))
	}
	return nil
}

// TerminateSession is op's logout without the request; op calls
// TerminateSessionFromRequest instead, which ends one sign-in.
func (s *storage) TerminateSession(context.Context, string, string) error { return nil }

// deleteTokens deletes the access and refresh tokens that match where.
func deleteTokens(ctx context.Context, tx sqlstore.Conn, where string, args ...any) error {
	if _, err := tx.Exec(ctx, `DELETE FROM idp_access_tokens WHERE `+where, args...); err != nil {
		return err
	}
	_, err := tx.Exec(ctx, `DELETE FROM idp_refresh_tokens WHERE `+where, args...)
	return err
}
