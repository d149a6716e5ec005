package idp_test

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/feedbackhq/feedback/server/idp/internal/idptest"

	"golang.org/x/oauth2"

	"github.com/feedbackhq/feedback/server/auth"
)

// TestClientAsksForSecondFactor: the provider advertises the class of a
// sign-in with a second factor; a client that asks for it in acr_values
// gets a second factor although the organisation does not require one:
// an account without TOTP is refused at the login, before any code is
// issued, and one with TOTP gives its code and an ID token of that class.
func TestClientAsksForSecondFactor(t *testing.T) {
	idptest.EachStore(t, func(t *testing.T, db *idptest.Database) {
		e := idptest.NewEnv(t, db, 1)
		e.Account(email, password)
		r := e.RP()
		var meta struct {
			ACR []string `json:"acr_values_supported"`
		}
		if err := r.Provider.Claims(&meta); err != nil || !slices.Equal(meta.ACR, []string{auth.MFAClass}) {
			t.Errorf("acr_values_supported = %q, %v; want [%s]", meta.ACR, err, auth.MFAClass)
		}
		askMFA := oauth2.SetAuthURLParam("acr_values", "urn:unknown "+auth.MFAClass)

		f := e.Start(r, askMFA)
		if p := f.Password(email, password); f.AtCallback() || p.Status != http.StatusForbidden ||
			!strings.Contains(p.Body, "Two-step verification required") {
			t.Errorf("a sign-in asking for a second factor, without TOTP: %d at %s\n%s", p.Status, p.URL, p.Body)
		}
		if f = e.Start(r); f.Password(email, password).Status != http.StatusOK || !f.AtCallback() {
			t.Errorf("a sign-in that asks for nothing did not complete with a password")
		}

		_, secret, err := e.P().EnrolTOTP(context.Background(), email)
		if err != nil {
			t.Fatal(err)
		}
		f = e.Start(r, askMFA)
		f.Password(email, password)
		f.Code(totpCode(e, secret))
		s := f.MustExchange()
		var c struct {
			ACR string `json:"acr"`
		}
		if err := s.ID.Claims(&c); err != nil || c.ACR != auth.MFAClass || !slices.Contains(s.Claims.AMR, "otp") {
			t.Errorf("the ID token of a sign-in with a code: acr %q, amr %v (%v)", c.ACR, s.Claims.AMR, err)
		}
	})
}
