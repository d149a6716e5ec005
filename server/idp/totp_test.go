package idp_test

import (
	"context"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pquerna/otp/totp"
)

// totpCode returns the code of secret at the env's clock.
func (e *env) totpCode(secret string) string {
	e.t.Helper()
	c, err := totp.GenerateCode(secret, e.clock.Now())
	if err != nil {
		e.t.Fatal(err)
	}
	return c
}

// wrongCode returns a code that secret gives at no step near the clock.
func (e *env) wrongCode(secret string) string {
	e.t.Helper()
	now := e.clock.Now()
	for _, c := range []string{"000000", "111111", "222222"} {
		ok := true
		for _, d := range []time.Duration{-30 * time.Second, 0, 30 * time.Second} {
			if code, _ := totp.GenerateCode(secret, now.Add(d)); code == c {
				ok = false
			}
		}
		if ok {
			return c
		}
	}
	e.t.Fatal("no wrong code")
	return ""
}

func TestSignInTOTP(t *testing.T) {
	eachStore(t, func(t *testing.T, db *database) {
		e := newEnv(t, db, 1)
		e.account(email, password)
		u, secret, err := e.p().EnrolTOTP(context.Background(), email)
		if err != nil {
			t.Fatal(err)
		}
		if k, _ := url.Parse(u); k.Scheme != "otpauth" || k.Query().Get("secret") != secret {
			t.Errorf("otpauth URL %q does not carry the secret %q", u, secret)
		}
		r := e.rp()

		f := e.start(r)
		if p := f.password(email, password); p.status != http.StatusOK || !strings.Contains(p.body, `autocomplete="one-time-code"`) {
			t.Fatalf("after the password: %d %s, want the code form", p.status, p.body)
		}
		if p := f.code(e.wrongCode(secret)); p.status != http.StatusUnauthorized || !strings.Contains(p.body, "Wrong code") {
			t.Errorf("a wrong code: %d %s", p.status, p.body)
		}
		code := e.totpCode(secret)
		f.code(code)
		s := f.mustExchange()
		if !slices.Equal(s.claims.AMR, []string{"pwd", "otp"}) {
			t.Errorf("amr %v, want [pwd otp]", s.claims.AMR)
		}

		t.Run("ErrCodeReplayed", func(t *testing.T) {
			f := e.start(r)
			f.password(email, password)
			if p := f.code(code); p.status != http.StatusUnauthorized {
				t.Errorf("the same code again: %d %s", p.status, p.body)
			}
			e.clock.Add(30 * time.Second)
			f.code(e.totpCode(secret))
			if s := f.mustExchange(); !slices.Equal(s.claims.AMR, []string{"pwd", "otp"}) {
				t.Errorf("amr %v, want [pwd otp]", s.claims.AMR)
			}
		})
		t.Run("ErrPasswordStepTooOld", func(t *testing.T) {
			e.clock.Add(30 * time.Second)
			f := e.start(r)
			f.password(email, password)
			e.clock.Add(6 * time.Minute)
			if p := f.code(e.totpCode(secret)); p.status != http.StatusBadRequest {
				t.Errorf("a code 6 minutes after the password: %d %s", p.status, p.body)
			}
		})
	})
}

func TestRequireMFA(t *testing.T) {
	eachStore(t, func(t *testing.T, db *database) {
		e := newEnv(t, db, 1)
		e.account(email, password)
		ctx := context.Background()
		if err := e.p().RequireMFA(ctx, true); err != nil {
			t.Fatal(err)
		}
		r := e.rp()
		f := e.start(r)
		p := f.password(email, password)
		if p.status != http.StatusForbidden || !strings.Contains(p.body, "requires two-step verification") ||
			!strings.Contains(p.body, "set-up link") {
			t.Errorf("MFA required, no TOTP: %d %s", p.status, p.body)
		}
		if f.atCallback() {
			t.Error("the sign-in went through")
		}

		_, secret, err := e.p().EnrolTOTP(ctx, email)
		if err != nil {
			t.Fatal(err)
		}
		f = e.start(r)
		f.password(email, password)
		f.code(e.totpCode(secret))
		if s := f.mustExchange(); !slices.Equal(s.claims.AMR, []string{"pwd", "otp"}) {
			t.Errorf("amr %v, want [pwd otp]", s.claims.AMR)
		}

		if err := e.p().RequireMFA(ctx, false); err != nil {
			t.Fatal(err)
		}
		e.account("bob@example.com", password)
		if s := e.signIn(r, "bob@example.com", password); !slices.Equal(s.claims.AMR, []string{"pwd"}) {
			t.Errorf("MFA off, no TOTP: amr %v", s.claims.AMR)
		}
	})
}

func TestThrottleCodes(t *testing.T) {
	eachStore(t, func(t *testing.T, db *database) {
		e := newEnv(t, db, 1)
		e.account(email, password)
		_, secret, err := e.p().EnrolTOTP(context.Background(), email)
		if err != nil {
			t.Fatal(err)
		}
		r := e.rp()
		for i := range 5 { // the right password between wrong codes does not reset their count
			f := e.start(r)
			f.password(email, password)
			if p := f.code(e.wrongCode(secret)); p.status != http.StatusUnauthorized {
				t.Fatalf("wrong code %d: %d", i+1, p.status)
			}
		}
		wantThrottled(t, e.start(r).password(email, password), "15 minutes")
		e.clock.Add(15 * time.Minute)
		f := e.start(r)
		f.password(email, password)
		f.code(e.totpCode(secret))
		f.mustExchange()
	})
}
