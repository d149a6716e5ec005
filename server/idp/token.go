package idp

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/zitadel/oidc/v3/pkg/oidc"
	"github.com/zitadel/oidc/v3/pkg/op"

	"github.com/feedbackhq/feedback/server"
	"github.com/feedbackhq/feedback/server/secret"
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

// grantOf returns the grant of a token request: a sign-in (the code
// grant) or a refresh token.
func grantOf(r op.TokenRequest) (grant, error) {
	switch r := r.(type) {
	case *authRequest:
		return grant{r.ClientID, r.AccountID, r.ID, r.Scopes, r.AMR, r.GetAuthTime()}, nil
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
	now := s.p.now()
	t := g.accessToken(newID(), "", now)
	if err := s.p.cfg.Store.CreateIdPAccessToken(ctx, t, now); err != nil {
		return "", time.Time{}, tokenError(err)
	}
	return t.ID, t.ExpiresAt, nil
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
	now := s.p.now()
	refresh, hash := secret.NewToken(refreshPrefix)
	var spend []byte
	if current != "" {
		spend = secret.Hash(current)
	}
	rt := &server.IdPRefreshToken{ID: newID(), Hash: hash, ClientID: g.clientID, AccountID: g.accountID,
		AuthRequestID: g.authRequestID, Scopes: g.scopes, AMR: g.amr, AuthTime: g.authTime, ExpiresAt: now.Add(refreshTokenTTL)}
	at := g.accessToken(newID(), rt.ID, now)
	err = s.p.cfg.Store.CreateIdPTokens(ctx, spend, rt, at, now)
	if errors.Is(orNotFound(err), errNotFound) {
		return "", "", time.Time{}, oidc.ErrInvalidGrant().WithDescription("the refresh token was used or revoked")
	}
	if err != nil {
		return "", "", time.Time{}, tokenError(err)
	}
	return at.ID, refresh, at.ExpiresAt, nil
}

// accessToken returns the access token id of g issued at now, with the
// refresh token refreshID ("" for none).
func (g grant) accessToken(id, refreshID string, now time.Time) *server.IdPAccessToken {
	return &server.IdPAccessToken{ID: id, ClientID: g.clientID, AccountID: g.accountID, AuthRequestID: g.authRequestID,
		RefreshTokenID: refreshID, Scopes: g.scopes, ExpiresAt: now.Add(accessTokenTTL)}
}

// TokenRequestByRefreshToken returns the grant of a live refresh token.
func (s *storage) TokenRequestByRefreshToken(ctx context.Context, token string) (op.RefreshTokenRequest, error) {
	if !secret.ValidToken(refreshPrefix, token) {
		return nil, errNotFound
	}
	t, err := s.p.cfg.Store.IdPRefreshToken(ctx, secret.Hash(token))
	if err != nil {
		return nil, orNotFound(err)
	}
	if !t.ExpiresAt.After(s.p.now()) {
		return nil, errNotFound
	}
	return &refreshRequest{grant{t.ClientID, t.AccountID, t.AuthRequestID, t.Scopes, t.AMR, t.AuthTime}, t.ID}, nil
}

// GetRefreshTokenInfo returns the account and id of a client's refresh
// token, or op.ErrInvalidRefreshToken.
func (s *storage) GetRefreshTokenInfo(ctx context.Context, clientID, token string) (userID, tokenID string, err error) {
	t, err := s.p.cfg.Store.IdPRefreshToken(ctx, secret.Hash(token))
	if errors.Is(orNotFound(err), errNotFound) || err == nil && t.ClientID != clientID {
		return "", "", op.ErrInvalidRefreshToken
	}
	if err != nil {
		return "", "", err
	}
	return t.AccountID, t.ID, nil
}

// RevokeToken revokes a client's access token, or its refresh token and
// the access tokens issued with it (RFC 7009). An unknown token, or
// another client's, is already as good as revoked.
func (s *storage) RevokeToken(ctx context.Context, tokenID, _, clientID string) *oidc.Error {
	if err := s.p.cfg.Store.RevokeIdPToken(ctx, tokenID, clientID); err != nil {
		return oidc.ErrServerError().WithParent(tokenError(err))
	}
	return nil
}

// TerminateSession is op's logout without the request; op calls
// TerminateSessionFromRequest instead, which ends one sign-in.
func (s *storage) TerminateSession(context.Context, string, string) error { return nil }
