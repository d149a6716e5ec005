package idp_test

import (
	"context"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/feedbackhq/feedback/server/idp/internal/idptest"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/oauth2"

	"github.com/feedbackhq/feedback/shared/feedback"
)

const (
	email    = "ann@example.com"
	password = "correct horse battery"
)

func TestSignIn(t *testing.T) {
	idptest.EachStore(t, func(t *testing.T, db *idptest.Database) {
		e := idptest.NewEnv(t, db, 1)
		e.Account(email, password)
		r := e.RP()

		f := e.Start(r)
		if !strings.Contains(f.Last.Body, `<label for="email">Email</label>`) {
			t.Errorf("the login page has no labelled email field: %s", f.Last.Body)
		}
		f.Password("  ANN@example.com ", password) // addresses are case-insensitive
		s := f.MustExchange()
		if s.ID.Issuer != e.Issuer || !slices.Equal(s.ID.Audience, []string{idptest.ClientID}) {
			t.Errorf("iss %q aud %v, want %q [%s]", s.ID.Issuer, s.ID.Audience, e.Issuer, idptest.ClientID)
		}
		want := idptest.Claims{Email: email, EmailVerified: true, AMR: []string{"pwd"}, AuthTime: e.Clock.Now().Unix()}
		if diff := cmp.Diff(want, s.Claims); diff != "" {
			t.Errorf("claims (-want +got):\n%s", diff)
		}
		if s.Token.RefreshToken == "" {
			t.Error("no refresh token for offline_access")
		}

		info, err := r.Provider.UserInfo(r.Ctx, oauth2.StaticTokenSource(s.Token))
		if err != nil {
			t.Fatalf("userinfo: %v", err)
		}
		if info.Subject != s.ID.Subject || info.Email != email {
			t.Errorf("userinfo sub %q email %q, want %q %q", info.Subject, info.Email, s.ID.Subject, email)
		}

		again := e.SignIn(r, email, password)
		if again.ID.Subject != s.ID.Subject {
			t.Errorf("sub changed between sign-ins: %q then %q", s.ID.Subject, again.ID.Subject)
		}
	})
}

func TestSignInWrongCredentials(t *testing.T) {
	idptest.EachStore(t, func(t *testing.T, db *idptest.Database) {
		e := idptest.NewEnv(t, db, 1)
		e.Account(email, password)
		r := e.RP()
		var bodies []string
		for _, c := range []struct{ name, email, password string }{
			{"WrongPassword", email, "not the password at all"},
			{"UnknownEmail", "bob@example.com", password},
			{"EmptyPassword", email, ""},
		} {
			f := e.Start(r)
			p := f.Password(c.email, c.password)
			if p.Status != http.StatusUnauthorized || !strings.Contains(p.Body, "Wrong email or password.") {
				t.Errorf("%s: %d %s, want 401 with the generic message", c.name, p.Status, p.Body)
			}
			bodies = append(bodies, p.Body)
			if f.AtCallback() {
				t.Errorf("%s: reached the callback", c.name)
			}
		}
		if bodies[0] != bodies[1] {
			t.Errorf("a wrong password and an unknown email answer differently:\n%s\n%s", bodies[0], bodies[1])
		}
	})
}

func TestSignInExpired(t *testing.T) {
	idptest.EachStore(t, func(t *testing.T, db *idptest.Database) {
		e := idptest.NewEnv(t, db, 1)
		e.Account(email, password)
		f := e.Start(e.RP())
		e.Clock.Add(31 * time.Minute)
		if p := f.Password(email, password); p.Status != http.StatusBadRequest || !strings.Contains(p.Body, "expired") {
			t.Errorf("a sign-in 31 minutes old: %d %s", p.Status, p.Body)
		}
	})
}

func TestSignInRequiresPKCE(t *testing.T) {
	idptest.EachStore(t, func(t *testing.T, db *idptest.Database) {
		e := idptest.NewEnv(t, db, 1)
		r := e.RP()
		f := &idptest.Flow{Env: e, RP: r, Browser: e.Srv.Client()}
		p := f.Do(http.NewRequest(http.MethodGet, r.OAuth.AuthCodeURL("state-1"), nil))
		q := p.URL.Query()
		if p.URL.Path != "/callback" || q.Get("error") != "invalid_request" || q.Get("state") != "state-1" {
			t.Errorf("an authorization request without PKCE ended at %s", p.URL)
		}
	})
}

func TestLoginPageSecurity(t *testing.T) {
	idptest.EachStore(t, func(t *testing.T, db *idptest.Database) {
		e := idptest.NewEnv(t, db, 1)
		e.Account(email, password)
		f := e.Start(e.RP())
		for k, want := range map[string]string{
			"Cache-Control":           "no-store",
			"Content-Security-Policy": "default-src 'none'; style-src 'self'; base-uri 'none'; frame-ancestors 'none'",
			"Referrer-Policy":         "no-referrer",
			"X-Frame-Options":         "DENY",
		} {
			if got := f.Last.Header.Get(k); got != want {
				t.Errorf("%s: %q, want %q", k, got, want)
			}
		}
		if id := f.Last.URL.Query().Get("authRequestID"); id == "" || strings.Contains(f.Last.Body, id) {
			t.Errorf("the login page shows its request's id %q: %s", id, f.Last.Body)
		}

		form := url.Values{"email": {email}, "password": {password}}
		req, _ := http.NewRequest(http.MethodPost, f.Last.URL.String(), strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Sec-Fetch-Site", "cross-site")
		req.Header.Set("Origin", "https://attacker.example")
		if p := f.Do(req, nil); p.Status != http.StatusForbidden || f.AtCallback() {
			t.Errorf("a cross-site post: %d at %s, want 403", p.Status, p.URL)
		}
		f.Password(email, password)
		f.MustExchange()
	})
}

func TestAccountErrors(t *testing.T) {
	idptest.EachStore(t, func(t *testing.T, db *idptest.Database) {
		e := idptest.NewEnv(t, db, 1)
		ctx := context.Background()
		e.Account(email, password)
		_, _, enrolErr := e.P().EnrolTOTP(ctx, "bob@example.com")
		_, createErr := e.P().CreateAccount(ctx, "ann")
		for _, c := range []struct {
			name string
			err  error
			code string
		}{
			{"SetPasswordUnknown", e.P().SetPassword(ctx, "bob@example.com", password), feedback.ENotFound},
			{"SetPasswordShort", e.P().SetPassword(ctx, email, "short"), feedback.EValidation},
			{"SetPasswordEmail", e.P().SetPassword(ctx, email, "ANN@example.com"), feedback.EValidation},
			{"EnrolTOTPUnknown", enrolErr, feedback.ENotFound},
			{"CreateAccountMalformed", createErr, feedback.EValidation},
		} {
			if got := feedback.ErrorCode(c.err); got != c.code {
				t.Errorf("%s: %v (%s), want %s", c.name, c.err, got, c.code)
			}
		}
	})
}
