package idp

import (
	"context"
	"errors"

	"github.com/zitadel/oidc/v3/pkg/oidc"

	"github.com/feedbackhq/feedback/server"
)

// accessToken returns the live access token id, or errNotFound.
func (p *Provider) accessToken(ctx context.Context, id string) (_ *server.IdPAccessToken, err error) {
	defer wrap(&err, "accessToken")
	t, err := p.cfg.Store.IdPAccessToken(ctx, id, p.now())
	if err != nil {
		return nil, orNotFound(err)
	}
	return t, nil
}

// SetUserinfoFromToken answers the userinfo endpoint for a live access
// token of subject.
func (s *storage) SetUserinfoFromToken(ctx context.Context, info *oidc.UserInfo, tokenID, subject, _ string) error {
	t, err := s.p.accessToken(ctx, tokenID)
	if err != nil {
		return err
	}
	if t.AccountID != subject {
		return errors.New("idp: the access token names another subject")
	}
	return s.p.setUserinfo(ctx, info, t.AccountID, t.Scopes)
}

// SetIntrospectionFromToken answers the introspection endpoint for a
// live access token of the client that asks.
func (s *storage) SetIntrospectionFromToken(ctx context.Context, r *oidc.IntrospectionResponse, tokenID, subject, clientID string) error {
	t, err := s.p.accessToken(ctx, tokenID)
	if err != nil {
		return err
	}
	if t.AccountID != subject || t.ClientID != clientID {
		return errors.New("idp: the access token is another client's or subject's")
	}
	info := &oidc.UserInfo{}
	if err := s.p.setUserinfo(ctx, info, t.AccountID, t.Scopes); err != nil {
		return err
	}
	r.SetUserInfo(info)
	r.Scope, r.ClientID, r.Expiration = t.Scopes, t.ClientID, oidc.FromTime(t.ExpiresAt)
	return nil
}
