package idp_test

import (
	"context"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/feedbackhq/feedback/server/idp/internal/idptest"
)

// wantPage checks a page's status and that its body says what it must.
func wantPage(t *testing.T, what string, p idptest.Page, status int, says string) {
	t.Helper()
	if p.Status != status || !strings.Contains(p.Body, says) {
		t.Errorf("%s: %d %s\nwant %d saying %q", what, p.Status, p.Body, status, says)
	}
}

// newLink makes an account of addr and returns its set-password link.
func newLink(e *idptest.Env, addr string) string {
	e.T.Helper()
	u, err := e.P().CreateAccount(context.Background(), addr)
	if err != nil {
		e.T.Fatal(err)
	}
	if !strings.HasPrefix(u, e.Issuer+"/password?token=") {
		e.T.Fatalf("link %q is not under the issuer", u)
	}
	return u
}

func TestSetPasswordLink(t *testing.T) {
	idptest.EachStore(t, func(t *testing.T, db *idptest.Database) {
		e := idptest.NewEnv(t, db, 1)
		link := newLink(e, "Ann@Example.com")
		c := e.Srv.Client()
		form := idptest.Get(t, c, link)
		wantPage(t, "the link", form, http.StatusOK, "<strong>ann@example.com</strong>")
		for _, tc := range []struct{ name, password, confirm, says string }{
			{"ErrTooShort", "short pass", "short pass", "at least 12 characters"},
			{"ErrEmail", "ann@example.com", "ann@example.com", "not your email address"},
			{"ErrConfirm", password, password + "!", "The two passwords differ."},
		} {
			p := idptest.SubmitForm(t, c, form, map[string]string{"password": tc.password, "confirm": tc.confirm})
			wantPage(t, tc.name, p, http.StatusUnprocessableEntity, tc.says)
		}
		p := idptest.SubmitForm(t, c, form, map[string]string{"password": password, "confirm": password})
		wantPage(t, "a good password", p, http.StatusOK, "Your password is set.")
		if s := e.SignIn(e.RP(), email, password); !slices.Equal(s.Claims.AMR, []string{"pwd"}) {
			t.Errorf("amr %v", s.Claims.AMR)
		}

		wantPage(t, "the link again", idptest.Get(t, c, link), http.StatusGone, "expired or was used")
		p = idptest.SubmitForm(t, c, form, map[string]string{"password": "another password", "confirm": "another password"})
		wantPage(t, "the form again", p, http.StatusGone, "expired or was used")
	})
}

func TestSetPasswordLinkExpiry(t *testing.T) {
	idptest.EachStore(t, func(t *testing.T, db *idptest.Database) {
		e := idptest.NewEnv(t, db, 1)
		c := e.Srv.Client()
		first := newLink(e, email)
		second := newLink(e, email) // replaces the first
		wantPage(t, "a replaced link", idptest.Get(t, c, first), http.StatusGone, "expired or was used")
		e.Clock.Add(7*24*time.Hour - time.Second)
		form := idptest.Get(t, c, second)
		wantPage(t, "a link almost 7 days old", form, http.StatusOK, "Set your password")
		e.Clock.Add(2 * time.Second)
		wantPage(t, "a link 7 days old", idptest.Get(t, c, second), http.StatusGone, "expired or was used")
		p := idptest.SubmitForm(t, c, form, map[string]string{"password": password, "confirm": password})
		wantPage(t, "its form", p, http.StatusGone, "expired or was used")
		if _, err := e.P().CreateAccount(context.Background(), "not an address"); err == nil {
			t.Error("CreateAccount of a malformed address succeeded")
		}
	})
}

var keyRE = regexp.MustCompile(`Key: <code>([A-Z2-7]+)</code>`)

func TestSetPasswordLinkEnrolsTOTP(t *testing.T) {
	idptest.EachStore(t, func(t *testing.T, db *idptest.Database) {
		e := idptest.NewEnv(t, db, 1)
		c := e.Srv.Client()
		p := idptest.Get(t, c, newLink(e, email))
		p = idptest.SubmitForm(t, c, p, map[string]string{"password": password, "confirm": password, "totp": "on"})
		wantPage(t, "the enrolment", p, http.StatusOK, "otpauth://totp/Feedback:ann@example.com?")
		m := keyRE.FindStringSubmatch(p.Body)
		if m == nil {
			t.Fatalf("no key on the enrolment page: %s", p.Body)
		}
		p = idptest.SubmitForm(t, c, p, map[string]string{"code": wrongCode(e, m[1])})
		wantPage(t, "a wrong code", p, http.StatusUnprocessableEntity, "Wrong code")
		p = idptest.SubmitForm(t, c, p, map[string]string{"code": totpCode(e, m[1])})
		wantPage(t, "the right code", p, http.StatusOK, "Two-step verification is on")

		e.Clock.Add(30 * time.Second)
		f := e.Start(e.RP())
		f.Password(email, password)
		f.Code(totpCode(e, m[1]))
		if s := f.MustExchange(); !slices.Equal(s.Claims.AMR, []string{"pwd", "otp"}) {
			t.Errorf("amr %v, want [pwd otp]", s.Claims.AMR)
		}
	})
}

func TestSetPasswordLinkMFARequired(t *testing.T) {
	idptest.EachStore(t, func(t *testing.T, db *idptest.Database) {
		e := idptest.NewEnv(t, db, 1)
		if err := e.P().RequireMFA(context.Background(), true); err != nil {
			t.Fatal(err)
		}
		c := e.Srv.Client()
		p := idptest.Get(t, c, newLink(e, email))
		wantPage(t, "the form", p, http.StatusOK, "requires two-step verification")
		if strings.Contains(p.Body, `name="totp"`) {
			t.Error("TOTP is optional on the form while MFA is required")
		}
		p = idptest.SubmitForm(t, c, p, map[string]string{"password": password, "confirm": password})
		wantPage(t, "after the password", p, http.StatusOK, "Set up two-step verification")
	})
}
