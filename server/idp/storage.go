package idp

import (
	"context"
	"errors"
	"slices"

	jose "github.com/go-jose/go-jose/v4"
	"github.com/zitadel/oidc/v3/pkg/oidc"
	"github.com/zitadel/oidc/v3/pkg/op"
)

// storage is op's view of the provider: the methods op calls, one file
// per kind (authrequest.go, token.go, keys.go); this one holds clients,
// keys and claims.
type storage struct{ p *Provider }

var (
	_ op.Storage                   = (*storage)(nil)
	_ op.CanSetUserinfoFromRequest = (*storage)(nil)
)

// errUnsupported refuses what the provider does not offer: the JWT
// profile grant and its keys.
var errUnsupported = errors.New("idp: not supported")

// GetClientByClientID returns a registered client.
func (s *storage) GetClientByClientID(_ context.Context, id string) (op.Client, error) {
	c, ok := s.p.clients[id]
	if !ok {
		return nil, errors.New("idp: no such client")
	}
	return c, nil
}

// AuthorizeClientIDSecret checks a client's secret.
func (s *storage) AuthorizeClientIDSecret(_ context.Context, id, secret string) error {
	c, ok := s.p.clients[id]
	if !ok || !c.secretMatches(secret) {
		return errors.New("idp: wrong client id or secret")
	}
	return nil
}

// SetUserinfoFromScopes is deprecated in op: SetUserinfoFromRequest does
// the work.
func (s *storage) SetUserinfoFromScopes(context.Context, *oidc.UserInfo, string, string, []string) error {
	return nil
}

// SetUserinfoFromRequest sets the claims of an ID token, and its sid:
// the sign-in it descends from, which a logout's id_token_hint names.
func (s *storage) SetUserinfoFromRequest(ctx context.Context, info *oidc.UserInfo, r op.IDTokenRequest, scopes []string) error {
	switch r := r.(type) {
	case *authRequest:
		info.AppendClaims("sid", sessionID(r.ID))
	case *refreshRequest:
		info.AppendClaims("sid", sessionID(r.authRequestID))
	}
	return s.p.setUserinfo(ctx, info, r.GetSubject(), scopes)
}

// setUserinfo sets sub, and email and email_verified when scopes has
// "email". Addresses are verified: accounts are made by an
// administrator, and their passwords set through links sent to them.
func (p *Provider) setUserinfo(ctx context.Context, info *oidc.UserInfo, accountID string, scopes []string) error {
	a, err := p.accountByID(ctx, accountID)
	if err != nil {
		return err
	}
	info.Subject = a.ID
	if slices.Contains(scopes, oidc.ScopeEmail) {
		info.Email, info.EmailVerified = a.Email, true
	}
	return nil
}

// GetPrivateClaimsFromScopes adds nothing to access tokens.
func (s *storage) GetPrivateClaimsFromScopes(context.Context, string, string, []string) (map[string]any, error) {
	return nil, nil
}

// GetKeyByIDAndClientID refuses: no client signs JWTs.
func (s *storage) GetKeyByIDAndClientID(context.Context, string, string) (*jose.JSONWebKey, error) {
	return nil, errUnsupported
}

// ValidateJWTProfileScopes refuses the JWT profile grant.
func (s *storage) ValidateJWTProfileScopes(context.Context, string, []string) ([]string, error) {
	return nil, errUnsupported
}

// SigningKey returns the key that signs ID tokens now.
func (s *storage) SigningKey(ctx context.Context) (op.SigningKey, error) {
	k, err := s.p.signing.current(ctx)
	if err != nil {
		return nil, err
	}
	return k, nil
}

// SignatureAlgorithms returns the one algorithm: ES256.
func (s *storage) SignatureAlgorithms(context.Context) ([]jose.SignatureAlgorithm, error) {
	return []jose.SignatureAlgorithm{jose.ES256}, nil
}

// KeySet returns the public keys of the JWKS.
func (s *storage) KeySet(ctx context.Context) ([]op.Key, error) {
	return s.p.signing.publicKeys(ctx)
}

// Health reports whether the database answers.
func (s *storage) Health(ctx context.Context) error { return s.p.cfg.Store.Ping(ctx) }
