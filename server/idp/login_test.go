package idp_test

import (
	"context"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/oauth2"

	"github.com/feedbackhq/feedback/shared/feedback"
)

const (
	email    = "ann@example.com"
	password = "correct horse battery"
)

func TestSignIn(t *testing.T) {
	eachStore(t, func(t *testing.T, db *database) {
		e := newEnv(t, db, 1)
		e.account(email, password)
		r := e.rp()

		f := e.start(r)
		if !strings.Contains(f.last.body, `<label for="email">Email</label>`) {
			t.Errorf("the login page has no labelled email field: %s", f.last.body)
		}
		f.password("  ANN@example.com ", password) // addresses are case-insensitive
		s := f.mustExchange()
		if s.id.Issuer != e.issuer || !slices.Equal(s.id.Audience, []string{clientID}) {
			t.Errorf("iss %q aud %v, want %q [%s]", s.id.Issuer, s.id.Audience, e.issuer, clientID)
		}
		want := claims{Email: email, EmailVerified: true, AMR: []string{"pwd"}, AuthTime: e.clock.Now().Unix()}
		if diff := cmp.Diff(want, s.claims); diff != "" {
			t.Errorf("claims (-want +got):\n%s", diff)
		}
		if s.token.RefreshToken == "" {
			t.Error("no refresh token for offline_access")
		}

		info, err := r.provider.UserInfo(r.ctx, oauth2.StaticTokenSource(s.token))
		if err != nil {
			t.Fatalf("userinfo: %v", err)
		}
		if info.Subject != s.id.Subject || info.Email != email {
			t.Errorf("userinfo sub %q email %q, want %q %q", info.Subject, info.Email, s.id.Subject, email)
		}

		again := e.signIn(r, email, password)
		if again.id.Subject != s.id.Subject {
			t.Errorf("sub changed between sign-ins: %q then %q", s.id.Subject, again.id.Subject)
		}
	})
}

func TestSignInWrongCredentials(t *testing.T) {
	eachStore(t, func(t *testing.T, db *database) {
		e := newEnv(t, db, 1)
		e.account(email, password)
		r := e.rp()
		var bodies []string
		for _, c := range []struct{ name, email, password string }{
			{"WrongPassword", email, "not the password at all"},
			{"UnknownEmail", "bob@example.com", password},
			{"EmptyPassword", email, ""},
		} {
			f := e.start(r)
			p := f.password(c.email, c.password)
			if p.status != http.StatusUnauthorized || !strings.Contains(p.body, "Wrong email or password.") {
				t.Errorf("%s: %d %s, want 401 with the generic message", c.name, p.status, p.body)
			}
			bodies = append(bodies, p.body)
			if f.atCallback() {
				t.Errorf("%s: reached the callback", c.name)
			}
		}
		if bodies[0] != bodies[1] {
			t.Errorf("a wrong password and an unknown email answer differently:\n%s\n%s", bodies[0], bodies[1])
		}
	})
}

func TestSignInExpired(t *testing.T) {
	eachStore(t, func(t *testing.T, db *database) {
		e := newEnv(t, db, 1)
		e.account(email, password)
		f := e.start(e.rp())
		e.clock.Add(31 * time.Minute)
		if p := f.password(email, password); p.status != http.StatusBadRequest || !strings.Contains(p.body, "expired") {
			t.Errorf("a sign-in 31 minutes old: %d %s", p.status, p.body)
		}
	})
}

func TestSignInRequiresPKCE(t *testing.T) {
	eachStore(t, func(t *testing.T, db *database) {
		e := newEnv(t, db, 1)
		r := e.rp()
		f := &flow{e: e, rp: r, browser: e.srv.Client()}
		p := f.do(http.NewRequest(http.MethodGet, r.oauth.AuthCodeURL("state-1"), nil))
		q := p.url.Query()
		if p.url.Path != "/callback" || q.Get("error") != "invalid_request" || q.Get("state") != "state-1" {
			t.Errorf("an authorization request without PKCE ended at %s", p.url)
		}
	})
}

func TestLoginPageSecurity(t *testing.T) {
	eachStore(t, func(t *testing.T, db *database) {
		e := newEnv(t, db, 1)
		e.account(email, password)
		f := e.start(e.rp())
		for k, want := range map[string]string{
			"Cache-Control":           "no-store",
			"Content-Security-Policy": "default-src 'none'; style-src 'self'; base-uri 'none'; frame-ancestors 'none'",
			"Referrer-Policy":         "no-referrer",
			"X-Frame-Options":         "DENY",
		} {
			if got := f.last.header.Get(k); got != want {
				t.Errorf("%s: %q, want %q", k, got, want)
			}
		}
		if id := f.last.url.Query().Get("authRequestID"); id == "" || strings.Contains(f.last.body, id) {
			t.Errorf("the login page shows its request's id %q: %s", id, f.last.body)
		}

		form := url.Values{"email": {email}, "password": {password}}
		req, _ := http.NewRequest(http.MethodPost, f.last.url.String(), strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Sec-Fetch-Site", "cross-site")
		req.Header.Set("Origin", "https://attacker.example")
		if p := f.do(req, nil); p.status != http.StatusForbidden || f.atCallback() {
			t.Errorf("a cross-site post: %d at %s, want 403", p.status, p.url)
		}
		f.password(email, password)
		f.mustExchange()
	})
}

func TestAccountErrors(t *testing.T) {
	eachStore(t, func(t *testing.T, db *database) {
		e := newEnv(t, db, 1)
		ctx := context.Background()
		e.account(email, password)
		_, _, enrolErr := e.p().EnrolTOTP(ctx, "bob@example.com")
		_, createErr := e.p().CreateAccount(ctx, "ann")
		for _, c := range []struct {
			name string
			err  error
			code string
		}{
			{"SetPasswordUnknown", e.p().SetPassword(ctx, "bob@example.com", password), feedback.ENotFound},
			{"SetPasswordShort", e.p().SetPassword(ctx, email, "short"), feedback.EValidation},
			{"SetPasswordEmail", e.p().SetPassword(ctx, email, "ANN@example.com"), feedback.EValidation},
			{"EnrolTOTPUnknown", enrolErr, feedback.ENotFound},
			{"CreateAccountMalformed", createErr, feedback.EValidation},
		} {
			if got := feedback.ErrorCode(c.err); got != c.code {
				t.Errorf("%s: %v (%s), want %s", c.name, c.err, got, c.code)
			}
		}
	})
}
