package idp_test

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"testing"

	"golang.org/x/oauth2"

	"github.com/feedbackhq/feedback/server/auth"
)

// TestClientAsksForSecondFactor: the provider advertises the class of a
// sign-in with a second factor; a client that asks for it in acr_values
// gets a second factor although the organisation does not require one:
// an account without TOTP is refused at the login, before any code is
// issued, and one with TOTP gives its code and an ID token of that class.
func TestClientAsksForSecondFactor(t *testing.T) {
	eachStore(t, func(t *testing.T, db *database) {
		e := newEnv(t, db, 1)
		e.account(email, password)
		r := e.rp()
		var meta struct {
			ACR []string `json:"acr_values_supported"`
		}
		if err := r.provider.Claims(&meta); err != nil || !slices.Equal(meta.ACR, []string{auth.MFAClass}) {
			t.Errorf("acr_values_supported = %q, %v; want [%s]", meta.ACR, err, auth.MFAClass)
		}
		askMFA := oauth2.SetAuthURLParam("acr_values", "urn:unknown "+auth.MFAClass)

		f := e.start(r, askMFA)
		if p := f.password(email, password); f.atCallback() || p.status != http.StatusForbidden ||
			!strings.Contains(p.body, "Two-step verification required") {
			t.Errorf("a sign-in asking for a second factor, without TOTP: %d at %s\n%s", p.status, p.url, p.body)
		}
		if f = e.start(r); f.password(email, password).status != http.StatusOK || !f.atCallback() {
			t.Errorf("a sign-in that asks for nothing did not complete with a password")
		}

		_, secret, err := e.p().EnrolTOTP(context.Background(), email)
		if err != nil {
			t.Fatal(err)
		}
		f = e.start(r, askMFA)
		f.password(email, password)
		f.code(e.totpCode(secret))
		s := f.mustExchange()
		var c struct {
			ACR string `json:"acr"`
		}
		if err := s.id.Claims(&c); err != nil || c.ACR != auth.MFAClass || !slices.Contains(s.claims.AMR, "otp") {
			t.Errorf("the ID token of a sign-in with a code: acr %q, amr %v (%v)", c.ACR, s.claims.AMR, err)
		}
	})
}
