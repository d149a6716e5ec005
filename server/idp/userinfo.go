package idp

import (
	"context"
	"errors"
	"time"

	"github.com/zitadel/oidc/v3/pkg/oidc"
)

// accessToken is a live access token.
type accessToken struct {
	clientID, accountID string
	scopes              []string
	expiresAt           time.Time
}

// accessToken returns the live access token id, or errNotFound.
func (p *Provider) accessToken(ctx context.Context, id string) (_ *accessToken, err error) {
	defer wrap(&err, "accessToken")
	t := &accessToken{}
	var scopes string
	err = p.cfg.DB.QueryRow(ctx, `SELECT client_id, account_id, scopes, expires_at FROM idp_access_tokens
		WHERE id = $1 AND expires_at > $2`, id, p.now()).Scan(&t.clientID, &t.accountID, &scopes, at(&t.expiresAt))
	if err != nil {
		return nil, orNotFound(err)
	}
	t.scopes = words(scopes)
	return t, nil
}

// SetUserinfoFromToken answers the userinfo endpoint for a live access
// token of subject.
func (s *storage) SetUserinfoFromToken(ctx context.Context, info *oidc.UserInfo, tokenID, subject, _ string) error {
	t, err := s.p.accessToken(ctx, tokenID)
	if err != nil {
		return err
	}
	if t.accountID != subject {
		return errors.New("idp: the access token names another subject")
	}
	return s.p.setUserinfo(ctx, info, t.accountID, t.scopes)
}

// SetIntrospectionFromToken answers the introspection endpoint for a
// live access token of the client that asks.
func (s *storage) SetIntrospectionFromToken(ctx context.Context, r *oidc.IntrospectionResponse, tokenID, subject, clientID string) error {
	t, err := s.p.accessToken(ctx, tokenID)
	if err != nil {
		return err
	}
	if t.accountID != subject || t.clientID != clientID {
		return errors.New("idp: the access token is another client's or subject's")
	}
	info := &oidc.UserInfo{}
	if err := s.p.setUserinfo(ctx, info, t.accountID, t.scopes); err != nil {
		return err
	}
	r.SetUserInfo(info)
	r.Scope, r.ClientID, r.Expiration = t.scopes, t.clientID, oidc.FromTime(t.expiresAt)
	return nil
}
