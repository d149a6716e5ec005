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

	"github.com/pquerna/otp/totp"
)

// totpCode returns the code of secret at the env's clock.
func totpCode(e *idptest.Env, secret string) string {
	e.T.Helper()
	c, err := totp.GenerateCode(secret, e.Clock.Now())
	if err != nil {
		e.T.Fatal(err)
	}
	return c
}

// wrongCode returns a code that secret gives at no step near the clock.
func wrongCode(e *idptest.Env, secret string) string {
	e.T.Helper()
	now := e.Clock.Now()
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
	e.T.Fatal("no wrong code")
	return ""
}

func TestSignInTOTP(t *testing.T) {
	idptest.EachStore(t, func(t *testing.T, db *idptest.Database) {
		e := idptest.NewEnv(t, db, 1)
		e.Account(email, password)
		u, secret, err := e.P().EnrolTOTP(context.Background(), email)
		if err != nil {
			t.Fatal(err)
		}
		if k, _ := url.Parse(u); k.Scheme != "otpauth" || k.Query().Get("secret") != secret {
			t.Errorf("otpauth URL %q does not carry the secret %q", u, secret)
		}
		r := e.RP()

		f := e.Start(r)
		if p := f.Password(email, password); p.Status != http.StatusOK || !strings.Contains(p.Body, `autocomplete="one-time-code"`) {
			t.Fatalf("after the password: %d %s, want the code form", p.Status, p.Body)
		}
		if p := f.Code(wrongCode(e, secret)); p.Status != http.StatusUnauthorized || !strings.Contains(p.Body, "Wrong code") {
			t.Errorf("a wrong code: %d %s", p.Status, p.Body)
		}
		code := totpCode(e, secret)
		f.Code(code)
		s := f.MustExchange()
		if !slices.Equal(s.Claims.AMR, []string{"pwd", "otp"}) {
			t.Errorf("amr %v, want [pwd otp]", s.Claims.AMR)
		}

		t.Run("ErrCodeReplayed", func(t *testing.T) {
			f := e.Start(r)
			f.Password(email, password)
			if p := f.Code(code); p.Status != http.StatusUnauthorized {
				t.Errorf("the same code again: %d %s", p.Status, p.Body)
			}
			e.Clock.Add(30 * time.Second)
			f.Code(totpCode(e, secret))
			if s := f.MustExchange(); !slices.Equal(s.Claims.AMR, []string{"pwd", "otp"}) {
				t.Errorf("amr %v, want [pwd otp]", s.Claims.AMR)
			}
		})
		t.Run("ErrPasswordStepTooOld", func(t *testing.T) {
			e.Clock.Add(30 * time.Second)
			f := e.Start(r)
			f.Password(email, password)
			e.Clock.Add(6 * time.Minute)
			if p := f.Code(totpCode(e, secret)); p.Status != http.StatusBadRequest {
				t.Errorf("a code 6 minutes after the password: %d %s", p.Status, p.Body)
			}
		})
	})
}

func TestRequireMFA(t *testing.T) {
	idptest.EachStore(t, func(t *testing.T, db *idptest.Database) {
		e := idptest.NewEnv(t, db, 1)
		e.Account(email, password)
		ctx := context.Background()
		if err := e.P().RequireMFA(ctx, true); err != nil {
			t.Fatal(err)
		}
		r := e.RP()
		f := e.Start(r)
		p := f.Password(email, password)
		if p.Status != http.StatusForbidden || !strings.Contains(p.Body, "requires two-step verification") ||
			!strings.Contains(p.Body, "set-up link") {
			t.Errorf("MFA required, no TOTP: %d %s", p.Status, p.Body)
		}
		if f.AtCallback() {
			t.Error("the sign-in went through")
		}

		_, secret, err := e.P().EnrolTOTP(ctx, email)
		if err != nil {
			t.Fatal(err)
		}
		f = e.Start(r)
		f.Password(email, password)
		f.Code(totpCode(e, secret))
		if s := f.MustExchange(); !slices.Equal(s.Claims.AMR, []string{"pwd", "otp"}) {
			t.Errorf("amr %v, want [pwd otp]", s.Claims.AMR)
		}

		if err := e.P().RequireMFA(ctx, false); err != nil {
			t.Fatal(err)
		}
		e.Account("bob@example.com", password)
		if s := e.SignIn(r, "bob@example.com", password); !slices.Equal(s.Claims.AMR, []string{"pwd"}) {
			t.Errorf("MFA off, no TOTP: amr %v", s.Claims.AMR)
		}
	})
}

func TestThrottleCodes(t *testing.T) {
	idptest.EachStore(t, func(t *testing.T, db *idptest.Database) {
		e := idptest.NewEnv(t, db, 1)
		e.Account(email, password)
		_, secret, err := e.P().EnrolTOTP(context.Background(), email)
		if err != nil {
			t.Fatal(err)
		}
		r := e.RP()
		for i := range 5 { // the right password between wrong codes does not reset their count
			f := e.Start(r)
			f.Password(email, password)
			if p := f.Code(wrongCode(e, secret)); p.Status != http.StatusUnauthorized {
				t.Fatalf("wrong code %d: %d", i+1, p.Status)
			}
		}
		wantThrottled(t, e.Start(r).Password(email, password), "15 minutes")
		e.Clock.Add(15 * time.Minute)
		f := e.Start(r)
		f.Password(email, password)
		f.Code(totpCode(e, secret))
		f.MustExchange()
	})
}
