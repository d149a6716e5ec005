package idp_test

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"testing"

	"github.com/feedbackhq/feedback/server"
	"github.com/feedbackhq/feedback/server/idp"
	"github.com/feedbackhq/feedback/server/idp/internal/idptest"
	"github.com/feedbackhq/feedback/shared/feedback"
)

const newPassword = "a much longer new secret"

// wantProblem fails unless err has code and, with param, names it.
func wantProblem(t *testing.T, what string, err error, code, param string) {
	t.Helper()
	var fe *feedback.Error
	switch {
	case feedback.ErrorCode(err) != code:
		t.Errorf("%s: %v, want %s", what, err, code)
	case param != "" && (!errorsAs(err, &fe) || !slices.ContainsFunc(fe.Params, func(p feedback.InvalidParam) bool { return p.Name == param })):
		t.Errorf("%s: %v does not name %s", what, err, param)
	}
}

func errorsAs(err error, target **feedback.Error) bool { return errors.As(err, target) }

func TestChangePassword(t *testing.T) {
	idptest.EachStore(t, func(t *testing.T, db *idptest.Database) {
		e := idptest.NewEnv(t, db, 1)
		e.Account(email, password)
		r := e.RP()
		here, there := e.SignIn(r, email, password), e.SignIn(r, email, password)
		self := idp.Self{AccountID: here.ID.Subject, ClientIP: "192.0.2.1"}
		ctx := context.Background()

		err := e.P().ChangePassword(ctx, idp.PasswordChange{Self: self, Current: "wrong password!", New: newPassword})
		wantProblem(t, "a wrong current password", err, feedback.EValidation, "current_password")
		err = e.P().ChangePassword(ctx, idp.PasswordChange{Self: self, Current: password, New: "short"})
		wantProblem(t, "a short new password", err, feedback.EValidation, "new_password")
		err = e.P().ChangePassword(ctx, idp.PasswordChange{Self: idp.Self{AccountID: feedback.NewID()}, Current: password, New: newPassword})
		wantProblem(t, "an unknown account", err, feedback.ENotFound, "")

		err = e.P().ChangePassword(ctx, idp.PasswordChange{Self: self, Current: password, New: newPassword, Keep: here.Token.RefreshToken})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := refresh(r, here.Token.RefreshToken); err != nil {
			t.Errorf("the sign-in that changed the password lost its refresh token: %v", err)
		}
		_, err = refresh(r, there.Token.RefreshToken)
		wantInvalidGrant(t, "the other sign-in's refresh token", err)
		if p := e.Start(r).Password(email, password); p.Status != http.StatusUnauthorized {
			t.Errorf("sign-in with the old password: %d, want 401", p.Status)
		}
		if s := e.SignIn(r, email, newPassword); s.Claims.Email != email {
			t.Errorf("sign-in with the new password: %+v", s.Claims)
		}
	})
}

// TestChangePasswordThrottled checks wrong current passwords sent at once:
// the throttle lets exactly its limit through, then refuses, the right
// password too.
func TestChangePasswordThrottled(t *testing.T) {
	idptest.EachStore(t, func(t *testing.T, db *idptest.Database) {
		e := idptest.NewEnv(t, db, 2)
		e.Account(email, password)
		a := e.SignIn(e.RP(), email, password)
		self := idp.Self{AccountID: a.ID.Subject, ClientIP: "192.0.2.7"}
		const n = 12
		codes := make([]string, n)
		done := make(chan int)
		for i := range n {
			go func() {
				p := e.P()
				err := p.ChangePassword(context.Background(), idp.PasswordChange{Self: self, Current: "wrong password!", New: newPassword})
				codes[i] = feedback.ErrorCode(err)
				done <- i
			}()
		}
		for range n {
			<-done
		}
		count := map[string]int{}
		for _, c := range codes {
			count[c]++
		}
		if count[feedback.EValidation] != 5 || count[feedback.ERateLimited] != n-5 {
			t.Errorf("%d concurrent wrong passwords: %v, want 5 checked and the rest refused", n, count)
		}
		err := e.P().ChangePassword(context.Background(), idp.PasswordChange{Self: self, Current: password, New: newPassword})
		wantProblem(t, "the right password while locked", err, feedback.ERateLimited, "")
	})
}

func TestAccountTOTP(t *testing.T) {
	idptest.EachStore(t, func(t *testing.T, db *idptest.Database) {
		e := idptest.NewEnv(t, db, 1)
		e.Account(email, password)
		r := e.RP()
		self := idp.Self{AccountID: e.SignIn(r, email, password).ID.Subject, ClientIP: "192.0.2.1"}
		ctx := context.Background()

		err := e.P().ConfirmTOTP(ctx, self, "123456")
		wantProblem(t, "a code without an enrolment", err, feedback.EConflict, "")
		if _, _, err := e.P().BeginTOTP(ctx, self); err != nil {
			t.Fatal(err)
		}
		secret, uri, err := e.P().BeginTOTP(ctx, self) // replaces the first
		if err != nil || uri == "" {
			t.Fatal(uri, err)
		}
		wantProblem(t, "a wrong code", e.P().ConfirmTOTP(ctx, self, wrongCode(e, secret)), feedback.EValidation, "code")
		if a, _ := e.P().Account(ctx, self.AccountID); a.TOTP {
			t.Error("TOTP is on before a right code")
		}
		code := totpCode(e, secret)
		if err := e.P().ConfirmTOTP(ctx, self, code); err != nil {
			t.Fatal(err)
		}
		if a, _ := e.P().Account(ctx, self.AccountID); !a.TOTP {
			t.Error("TOTP is off after a right code")
		}
		wantProblem(t, "confirming again", e.P().ConfirmTOTP(ctx, self, code), feedback.EConflict, "")
		_, _, err = e.P().BeginTOTP(ctx, self)
		wantProblem(t, "enrolling again", err, feedback.EConflict, "")

		f := e.Start(r)
		f.Password(email, password)
		if p := f.Code(code); p.Status != http.StatusUnauthorized {
			t.Errorf("sign-in with the confirming code again: %d, want 401 (each code once)", p.Status)
		}

		wantProblem(t, "removal with a wrong password", e.P().RemoveTOTP(ctx, self, "wrong password!"), feedback.EValidation, "password")
		if err := e.P().RemoveTOTP(ctx, self, password); err != nil {
			t.Fatal(err)
		}
		if a, _ := e.P().Account(ctx, self.AccountID); a.TOTP {
			t.Error("TOTP is on after its removal")
		}
		wantProblem(t, "removing again", e.P().RemoveTOTP(ctx, self, password), feedback.EConflict, "")
		if s := e.SignIn(r, email, password); s.Claims.Email != email {
			t.Errorf("sign-in with the password alone after the removal: %+v", s.Claims)
		}
	})
}

// TestAccountFederated checks that a federated account's password and
// TOTP are managed by its organisation's provider.
func TestAccountFederated(t *testing.T) {
	idptest.EachStore(t, func(t *testing.T, db *idptest.Database) {
		e := idptest.NewEnv(t, db, 1)
		ctx := context.Background()
		store := db.Open(t)
		id := feedback.NewID()
		f := &server.IdPFederation{ID: id, Name: "Acme SSO", Kind: idp.KindOIDC, Issuer: "https://sso.acme.example",
			ClientID: "c", ClientSecret: e.Keys.Seal([]byte("s"), []byte("idp:federation:"+id)), Domains: []string{"acme.example"},
			CreatedAt: e.Clock.Now()}
		if err := store.CreateIdPFederation(ctx, f); err != nil {
			t.Fatal(err)
		}
		accountID, err := store.EnsureIdPAccount(ctx, "zoe@acme.example", e.Clock.Now())
		if err != nil {
			t.Fatal(err)
		}
		a, err := e.P().Account(ctx, accountID)
		if err != nil || a.Federation != "Acme SSO" || a.HasPassword {
			t.Fatalf("the federated account: %+v, %v", a, err)
		}
		self := idp.Self{AccountID: accountID, ClientIP: "192.0.2.1"}
		_, _, err = e.P().BeginTOTP(ctx, self)
		wantProblem(t, "TOTP", err, feedback.EConflict, "")
		err = e.P().ChangePassword(ctx, idp.PasswordChange{Self: self, Current: password, New: newPassword})
		wantProblem(t, "a password change", err, feedback.EConflict, "")
	})
}
