package idp_test

import (
	"context"
	"io"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// get fetches u in browser c.
func get(t *testing.T, c *http.Client, u string) page {
	t.Helper()
	resp, err := c.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return page{status: resp.StatusCode, url: resp.Request.URL, header: resp.Header, body: string(b)}
}

// wantPage checks a page's status and that its body says what it must.
func wantPage(t *testing.T, what string, p page, status int, says string) {
	t.Helper()
	if p.status != status || !strings.Contains(p.body, says) {
		t.Errorf("%s: %d %s\nwant %d saying %q", what, p.status, p.body, status, says)
	}
}

// newLink makes an account of addr and returns its set-password link.
func (e *env) newLink(addr string) string {
	e.t.Helper()
	u, err := e.p().CreateAccount(context.Background(), addr)
	if err != nil {
		e.t.Fatal(err)
	}
	if !strings.HasPrefix(u, e.issuer+"/password?token=") {
		e.t.Fatalf("link %q is not under the issuer", u)
	}
	return u
}

func TestSetPasswordLink(t *testing.T) {
	eachStore(t, func(t *testing.T, db *database) {
		e := newEnv(t, db, 1)
		link := e.newLink("Ann@Example.com")
		c := e.srv.Client()
		form := get(t, c, link)
		wantPage(t, "the link", form, http.StatusOK, "<strong>ann@example.com</strong>")
		for _, tc := range []struct{ name, password, confirm, says string }{
			{"ErrTooShort", "short pass", "short pass", "at least 12 characters"},
			{"ErrEmail", "ann@example.com", "ann@example.com", "not your email address"},
			{"ErrConfirm", password, password + "!", "The two passwords differ."},
		} {
			p := submitForm(t, c, form, map[string]string{"password": tc.password, "confirm": tc.confirm})
			wantPage(t, tc.name, p, http.StatusUnprocessableEntity, tc.says)
		}
		p := submitForm(t, c, form, map[string]string{"password": password, "confirm": password})
		wantPage(t, "a good password", p, http.StatusOK, "Your password is set.")
		if s := e.signIn(e.rp(), email, password); !slices.Equal(s.claims.AMR, []string{"pwd"}) {
			t.Errorf("amr %v", s.claims.AMR)
		}

		wantPage(t, "the link again", get(t, c, link), http.StatusGone, "expired or was used")
		p = submitForm(t, c, form, map[string]string{"password": "another password", "confirm": "another password"})
		wantPage(t, "the form again", p, http.StatusGone, "expired or was used")
	})
}

func TestSetPasswordLinkExpiry(t *testing.T) {
	eachStore(t, func(t *testing.T, db *database) {
		e := newEnv(t, db, 1)
		c := e.srv.Client()
		first := e.newLink(email)
		second := e.newLink(email) // replaces the first
		wantPage(t, "a replaced link", get(t, c, first), http.StatusGone, "expired or was used")
		e.clock.Add(7*24*time.Hour - time.Second)
		form := get(t, c, second)
		wantPage(t, "a link almost 7 days old", form, http.StatusOK, "Set your password")
		e.clock.Add(2 * time.Second)
		wantPage(t, "a link 7 days old", get(t, c, second), http.StatusGone, "expired or was used")
		p := submitForm(t, c, form, map[string]string{"password": password, "confirm": password})
		wantPage(t, "its form", p, http.StatusGone, "expired or was used")
		if _, err := e.p().CreateAccount(context.Background(), "not an address"); err == nil {
			t.Error("CreateAccount of a malformed address succeeded")
		}
	})
}

var keyRE = regexp.MustCompile(`Key: <code>([A-Z2-7]+)</code>`)

func TestSetPasswordLinkEnrolsTOTP(t *testing.T) {
	eachStore(t, func(t *testing.T, db *database) {
		e := newEnv(t, db, 1)
		c := e.srv.Client()
		p := get(t, c, e.newLink(email))
		p = submitForm(t, c, p, map[string]string{"password": password, "confirm": password, "totp": "on"})
		wantPage(t, "the enrolment", p, http.StatusOK, "otpauth://totp/Feedback:ann@example.com?")
		m := keyRE.FindStringSubmatch(p.body)
		if m == nil {
			t.Fatalf("no key on the enrolment page: %s", p.body)
		}
		p = submitForm(t, c, p, map[string]string{"code": e.wrongCode(m[1])})
		wantPage(t, "a wrong code", p, http.StatusUnprocessableEntity, "Wrong code")
		p = submitForm(t, c, p, map[string]string{"code": e.totpCode(m[1])})
		wantPage(t, "the right code", p, http.StatusOK, "Two-step verification is on")

		e.clock.Add(30 * time.Second)
		f := e.start(e.rp())
		f.password(email, password)
		f.code(e.totpCode(m[1]))
		if s := f.mustExchange(); !slices.Equal(s.claims.AMR, []string{"pwd", "otp"}) {
			t.Errorf("amr %v, want [pwd otp]", s.claims.AMR)
		}
	})
}

func TestSetPasswordLinkMFARequired(t *testing.T) {
	eachStore(t, func(t *testing.T, db *database) {
		e := newEnv(t, db, 1)
		if err := e.p().RequireMFA(context.Background(), true); err != nil {
			t.Fatal(err)
		}
		c := e.srv.Client()
		p := get(t, c, e.newLink(email))
		wantPage(t, "the form", p, http.StatusOK, "requires two-step verification")
		if strings.Contains(p.body, `name="totp"`) {
			t.Error("TOTP is optional on the form while MFA is required")
		}
		p = submitForm(t, c, p, map[string]string{"password": password, "confirm": password})
		wantPage(t, "after the password", p, http.StatusOK, "Set up two-step verification")
	})
}
