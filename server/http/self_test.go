package http_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/pquerna/otp/totp"

	"github.com/feedbackhq/feedback/server"
	feedbackhttp "github.com/feedbackhq/feedback/server/http"
	"github.com/feedbackhq/feedback/server/idp"
	"github.com/feedbackhq/feedback/shared/feedback"
)

const (
	selfPassword = "correct horse battery"
	selfNew      = "a much longer new secret"
)

// openWithProvider starts a server whose embedded provider keeps the
// accounts of the Account page.
func openWithProvider(t *testing.T, kind string) (*TestServer, *idp.Provider) {
	t.Helper()
	var p *idp.Provider
	ts := MustOpenServer(t, kind, func(c *feedbackhttp.Config) {
		var err error
		p, err = idp.New(context.Background(), idp.Config{Issuer: "http://127.0.0.1/idp", Store: c.Store, Keys: c.Keyring,
			Insecure: true, Now: c.Now, Logger: c.Logger})
		if err != nil {
			t.Fatal(err)
		}
		c.Accounts = p
	})
	return ts, p
}

// signInEmbedded makes an account of the provider with a password and
// signs its user in, as its callback does.
func (ts *TestServer) signInEmbedded(t *testing.T, p *idp.Provider, email string) *browser {
	t.Helper()
	ctx := context.Background()
	if _, err := p.CreateAccount(ctx, email); err != nil {
		t.Fatal(err)
	}
	if err := p.SetPassword(ctx, email, selfPassword); err != nil {
		t.Fatal(err)
	}
	a, err := ts.Store.IdPAccountByEmail(ctx, email)
	if err != nil {
		t.Fatal(err)
	}
	u := &server.User{Issuer: p.Issuer(), Subject: a.ID, Email: email}
	if err := ts.Store.SignIn(ctx, u); err != nil {
		t.Fatal(err)
	}
	return ts.startSession(t, u)
}

// account reads GET /account.
func (b *browser) account(t *testing.T) feedback.Account {
	t.Helper()
	var a feedback.Account
	b.do(t, req{method: "GET", path: "/api/v1/account"}).expect(t, http.StatusOK, "").decode(t, &a)
	return a
}

func TestAccountPassword(t *testing.T) {
	for _, kind := range storeKinds {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			ts, p := openWithProvider(t, kind)
			owner := ts.signIn(t, "owner") // the first user, of another provider
			ann := ts.signInEmbedded(t, p, "ann@example.com")
			elsewhere := ts.startSession(t, ann.User)

			if a := ann.account(t); a.SignIn != feedback.SignInPassword || a.TOTP || a.Email != "ann@example.com" {
				t.Errorf("GET /account: %+v", a)
			}
			tok := ts.NewTenant(t, "Acme").Token
			ts.do(t, req{method: "GET", path: "/api/v1/account", token: tok}).expect(t, http.StatusForbidden, feedback.EForbidden)

			change := func(current, next string) *result {
				return ann.do(t, req{method: "POST", path: "/api/v1/account/password",
					body: feedback.PasswordChange{CurrentPassword: current, NewPassword: next}})
			}
			namesParam(t, change("wrong password!", selfNew).expect(t, http.StatusUnprocessableEntity, feedback.EValidation), "current_password")
			namesParam(t, change(selfPassword, "short").expect(t, http.StatusUnprocessableEntity, feedback.EValidation), "new_password")
			ann.do(t, req{method: "POST", path: "/api/v1/account/password", contentType: "application/json",
				body: "{\"current_password\":\"" + selfPassword + "\",\"new_password\":\"\xff" + selfNew + "\"}"}).
				expect(t, http.StatusBadRequest, "")
			if h, _ := ts.Store.IdPAccountByEmail(context.Background(), "ann@example.com"); !strings.Contains(h.PasswordHash, "argon2id") {
				t.Fatal("no password hash")
			}

			var out feedback.PasswordChanged
			change(selfPassword, selfNew).expect(t, http.StatusOK, "").decode(t, &out)
			if out.SessionsEnded != 1 {
				t.Errorf("sessions_ended %d, want 1", out.SessionsEnded)
			}
			ann.do(t, req{method: "GET", path: "/api/v1/me"}).expect(t, http.StatusOK, "")
			elsewhere.do(t, req{method: "GET", path: "/api/v1/me"}).expect(t, http.StatusUnauthorized, "")
			namesParam(t, change(selfPassword, selfNew+"!").expect(t, http.StatusUnprocessableEntity, feedback.EValidation), "current_password")

			var log feedback.Page[feedback.AuditEntry]
			owner.do(t, req{method: "GET", path: "/api/v1/audit-log"}).expect(t, http.StatusOK, "").decode(t, &log)
			if len(log.Data) == 0 || log.Data[0].Action != feedback.AuditPasswordChange || log.Data[0].Target != "user:"+ann.User.ID {
				t.Errorf("the audit log does not start with the password change: %+v", log.Data)
			}

			owner.do(t, req{method: "POST", path: "/api/v1/account/password",
				body: feedback.PasswordChange{CurrentPassword: selfPassword, NewPassword: selfNew}}).
				expect(t, http.StatusConflict, feedback.EConflict)
			if a := owner.account(t); a.SignIn != feedback.SignInExternal {
				t.Errorf("GET /account of another provider's user: %+v", a)
			}
		})
	}
}

func TestAccountTOTP(t *testing.T) {
	for _, kind := range storeKinds {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			ts, p := openWithProvider(t, kind)
			ann := ts.signInEmbedded(t, p, "ann@example.com")
			ann.do(t, req{method: "POST", path: "/api/v1/account/totp/confirm", body: feedback.TOTPCode{Code: "123456"}}).
				expect(t, http.StatusConflict, feedback.EConflict)

			var e feedback.TOTPEnrolment
			ann.do(t, req{method: "POST", path: "/api/v1/account/totp"}).expect(t, http.StatusOK, "").decode(t, &e)
			if !strings.HasPrefix(e.QRCode, "data:image/svg+xml;base64,") || !strings.Contains(e.OTPAuthURI, "secret="+e.Secret) {
				t.Errorf("enrolment %+v", e)
			}
			code, err := totp.GenerateCode(e.Secret, ts.Clock.Now())
			if err != nil {
				t.Fatal(err)
			}
			wrong := "000000"
			if code == wrong {
				wrong = "111111"
			}
			confirm := func(c string) *result {
				return ann.do(t, req{method: "POST", path: "/api/v1/account/totp/confirm", body: feedback.TOTPCode{Code: c}})
			}
			namesParam(t, confirm(wrong).expect(t, http.StatusUnprocessableEntity, feedback.EValidation), "code")
			confirm(code).expect(t, http.StatusNoContent, "")
			if a := ann.account(t); !a.TOTP {
				t.Error("GET /account: no TOTP after the confirmation")
			}
			confirm(code).expect(t, http.StatusConflict, feedback.EConflict)
			ann.do(t, req{method: "POST", path: "/api/v1/account/totp"}).expect(t, http.StatusConflict, feedback.EConflict)

			remove := func(pw string) *result {
				return ann.do(t, req{method: "DELETE", path: "/api/v1/account/totp", body: feedback.PasswordCheck{Password: pw}})
			}
			namesParam(t, remove("wrong password!").expect(t, http.StatusUnprocessableEntity, feedback.EValidation), "password")
			remove(selfPassword).expect(t, http.StatusNoContent, "")
			if a := ann.account(t); a.TOTP {
				t.Error("GET /account: TOTP after its removal")
			}
			remove(selfPassword).expect(t, http.StatusConflict, feedback.EConflict)
		})
	}
}
