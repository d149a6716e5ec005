package idp

import (
	"crypto/sha256"
	"crypto/subtle"
	"net/url"
	"slices"
	"time"

	"github.com/zitadel/oidc/v3/pkg/oidc"
	"github.com/zitadel/oidc/v3/pkg/op"
)

// client is a registered relying party as op sees it.
type client struct {
	cfg       Client
	secret    [32]byte // SHA-256 of the secret, compared in constant time
	loginPath string   // the login page, to which the authorization request id is appended
}

var _ op.Client = (*client)(nil)

func newClients(cs []Client, prefix string) map[string]*client {
	m := make(map[string]*client, len(cs))
	for _, c := range cs {
		m[c.ID] = &client{cfg: c, secret: sha256.Sum256([]byte(c.Secret)), loginPath: prefix + loginPath}
	}
	return m
}

// secretMatches reports whether s is the client's secret.
func (c *client) secretMatches(s string) bool {
	h := sha256.Sum256([]byte(s))
	return subtle.ConstantTimeCompare(h[:], c.secret[:]) == 1
}

func (c *client) GetID() string                    { return c.cfg.ID }
func (c *client) RedirectURIs() []string           { return slices.Clone(c.cfg.RedirectURIs) }
func (c *client) PostLogoutRedirectURIs() []string { return slices.Clone(c.cfg.PostLogoutRedirectURIs) }
func (c *client) ApplicationType() op.ApplicationType {
	return op.ApplicationTypeWeb
}
func (c *client) AuthMethod() oidc.AuthMethod { return oidc.AuthMethodBasic }
func (c *client) ResponseTypes() []oidc.ResponseType {
	return []oidc.ResponseType{oidc.ResponseTypeCode}
}
func (c *client) GrantTypes() []oidc.GrantType {
	return []oidc.GrantType{oidc.GrantTypeCode, oidc.GrantTypeRefreshToken}
}
func (c *client) LoginURL(authRequestID string) string {
	return c.loginPath + "?" + url.Values{loginParam: {authRequestID}}.Encode()
}
func (c *client) AccessTokenType() op.AccessTokenType { return op.AccessTokenTypeBearer }
func (c *client) IDTokenLifetime() time.Duration      { return idTokenTTL }
func (c *client) DevMode() bool                       { return false }
func (c *client) RestrictAdditionalIdTokenScopes() func([]string) []string {
	return func(s []string) []string { return s }
}
func (c *client) RestrictAdditionalAccessTokenScopes() func([]string) []string {
	return func(s []string) []string { return s }
}
func (c *client) IsScopeAllowed(string) bool { return false }

// IDTokenUserinfoClaimsAssertion puts email and email_verified in the ID
// token even though an access token is issued too: the dashboard reads
// them there.
func (c *client) IDTokenUserinfoClaimsAssertion() bool { return true }
func (c *client) ClockSkew() time.Duration             { return 0 }
