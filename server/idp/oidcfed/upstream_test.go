package oidcfed_test

import (
	"testing"

	"github.com/feedbackhq/feedback/server/internal/oidctest"
)

// The upstream provider's user, and our registration with it. The
// example storage names its user after the issuer's host name, and gives
// it the address test-user@zitadel.ch, verified.
const (
	upstreamUser     = oidctest.User
	upstreamPassword = oidctest.Password
	upstreamEmail    = oidctest.Email
	upstreamDomain   = "zitadel.ch"
	upstreamClient   = "feedback-idp"
	upstreamSecret   = "feedback-idp-upstream-secret"
	password         = "correct horse battery" // of accounts made with a password
)

// startUpstream serves an organisation's OpenID provider on
// http://localhost (server/internal/oidctest), our provider registered
// with redirect. Its ID tokens have amr, when given, instead of the
// example's ["pwd"]; they carry no email, which only userinfo gives. It
// returns the issuer.
func startUpstream(t *testing.T, redirect string, amr []string) string {
	t.Helper()
	return oidctest.Start(t, oidctest.Client{ID: upstreamClient, Secret: upstreamSecret, Redirect: redirect, AMR: amr})
}
