package main

import (
	"flag"
	"strings"

	"github.com/feedbackhq/feedback/server/auth"
)

// registerOIDC adds the flags of the dashboard's identity provider.
func (f *serveFlags) registerOIDC(fs *flag.FlagSet, getenv func(string) string) {
	fs.StringVar(&f.oidc.Issuer, "oidc-issuer", getenv("FEEDBACK_OIDC_ISSUER"),
		"OpenID Connect issuer URL of the dashboard's identity provider (env FEEDBACK_OIDC_ISSUER)")
	fs.StringVar(&f.oidc.ClientID, "oidc-client-id", getenv("FEEDBACK_OIDC_CLIENT_ID"),
		"client id registered at the identity provider (env FEEDBACK_OIDC_CLIENT_ID)")
	fs.StringVar(&f.oidc.ClientSecret, "oidc-client-secret", getenv("FEEDBACK_OIDC_CLIENT_SECRET"),
		"client secret (env FEEDBACK_OIDC_CLIENT_SECRET)")
	fs.StringVar(&f.oidc.RedirectURL, "oidc-redirect-url", getenv("FEEDBACK_OIDC_REDIRECT_URL"),
		"redirect URL registered at the provider (env FEEDBACK_OIDC_REDIRECT_URL; default BASE_URL/auth/callback)")
	fs.BoolVar(&f.oidc.RequireMFA, "require-mfa", strings.EqualFold(getenv("FEEDBACK_REQUIRE_MFA"), "true"),
		"refuse sign-ins whose ID token reports no second factor in amr (env FEEDBACK_REQUIRE_MFA=true)")
}

// oidcRedirect fills the redirect URL of a configured provider from
// the base URL, and the post-logout redirect URL, which the provider
// must have registered too.
func oidcRedirect(c *auth.Config, baseURL string) {
	if c.Issuer == "" {
		return
	}
	if c.RedirectURL == "" {
		c.RedirectURL = strings.TrimRight(baseURL, "/") + "/auth/callback"
	}
	c.PostLogoutURL = strings.TrimRight(baseURL, "/") + "/auth/signed-out"
}
