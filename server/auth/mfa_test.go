package auth_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/pquerna/otp/totp"

	"github.com/feedbackhq/feedback/server/auth"
)

// TestMFARequest: with MFA required, the authorization request asks the
// provider for a second factor in the ways its discovery document
// advertises: acr_values with the classes of a second factor that it
// lists, and a claims request for an essential amr and acr. A provider
// that advertises neither gets neither, and without --require-mfa no
// provider is asked.
func TestMFARequest(t *testing.T) {
	advertises := func(s *setup) {
		s.Provider.ACRValues = []string{"urn:example:silver", "phr", auth.MFAClass}
		s.Provider.ClaimsParameter = true
	}
	requireMFA := func(s *setup) { s.Config.RequireMFA = true }
	eachStore(t, func(t *testing.T, open opener) {
		r := newRig(t, open, advertises, requireMFA)
		r.signIn(t, r.browser(t), "/")
		q := r.authorization(t)
		if got := q.Get("acr_values"); got != auth.MFAClass+" phr" {
			t.Errorf("acr_values = %q; want the advertised classes of a second factor, PAPE multi-factor first", got)
		}
		var claims struct {
			IDToken map[string]struct {
				Essential bool     `json:"essential"`
				Values    []string `json:"values"`
			} `json:"id_token"`
		}
		if err := json.Unmarshal([]byte(q.Get("claims")), &claims); err != nil {
			t.Fatalf("claims = %q: %v", q.Get("claims"), err)
		}
		amr, acr := claims.IDToken["amr"], claims.IDToken["acr"]
		if !amr.Essential || !slices.Contains(amr.Values, "otp") || slices.Contains(amr.Values, "pwd") ||
			!acr.Essential || !slices.Equal(acr.Values, []string{auth.MFAClass, "phr"}) {
			t.Errorf("claims = %s; want an essential amr of second factors and an essential acr", q.Get("claims"))
		}

		for name, mods := range map[string][]func(*setup){"silent provider": {requireMFA}, "MFA not required": {advertises}} {
			r := newRig(t, open, mods...)
			r.signIn(t, r.browser(t), "/")
			if q := r.authorization(t); q.Has("acr_values") || q.Has("claims") {
				t.Errorf("%s: the authorization request asked %q %q", name, q.Get("acr_values"), q.Get("claims"))
			}
		}
	})
}

// authorization returns the parameters of the only authorization
// request the test provider received.
func (r *rig) authorization(t *testing.T) url.Values {
	t.Helper()
	got := r.Provider.Authorizations()
	if len(got) != 1 {
		t.Fatalf("the provider received %d authorization requests; want 1", len(got))
	}
	return got[0]
}

// TestEmbeddedProviderEnforcesMFA: with MFA required the embedded
// provider, whose own setting does not require a second factor, asks the
// account with TOTP for its code, and refuses the account without one at
// its login, before it issues any code.
func TestEmbeddedProviderEnforcesMFA(t *testing.T) {
	eachStore(t, func(t *testing.T, open opener) {
		r := newEmbeddedRig(t, open, func(s *setup) { s.Config.RequireMFA = true })
		status, page := r.signIn(t, r.browser(t), "/")
		if status != http.StatusForbidden || !strings.Contains(page, "Two-step verification required") {
			t.Errorf("a sign-in without TOTP answered %d:\n%s\nwant the provider's refusal", status, page)
		}
		if len(r.Tokens.issued) != 0 {
			t.Errorf("the provider issued tokens to a sign-in without a second factor")
		}

		_, secret, err := r.embedded.p.EnrolTOTP(context.Background(), r.embedded.email)
		if err != nil {
			t.Fatal(err)
		}
		b := r.browser(t)
		status, page = r.signIn(t, b, "/")
		if status != http.StatusOK || !strings.Contains(page, `autocomplete="one-time-code"`) {
			t.Fatalf("after the password the provider answered %d:\n%s\nwant the code form", status, page)
		}
		code, err := totp.GenerateCode(secret, r.Clock.Now())
		if err != nil {
			t.Fatal(err)
		}
		res, err := b.PostForm(r.embedded.login, url.Values{"code": {code}})
		if err != nil {
			t.Fatal(err)
		}
		if page := readBody(t, res); res.StatusCode != http.StatusOK || !strings.Contains(page, "You are signed in.") {
			t.Errorf("after the code the callback answered %d:\n%s", res.StatusCode, page)
		}
	})
}
